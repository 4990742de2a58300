import { AREA_RENTS_LOCATION, YieldsQuerySchema, YieldsSchema } from '../../../schemas/api/rents.ts';
import { letsPeriod } from '../../domain/area-evidence.ts';
import { monthNo, monthText } from '../../../schemas/months.ts';
import { bedroomGroup, MAX_BEDROOM_GROUP } from '../../domain/rents.ts';
import { windowEndDate } from '../../lookups/tables.ts';
import { num, str } from '../../lookups/areas.ts';
import { askedArea, chooseFrom, type RentLevel } from '../../lookups/area-rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { toLocation } from '../../../schemas/api/location.ts';
import { placeOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

/** A yield whose rent is the area's own (enough lets) or shrunk toward a wider area's; an unshrunk thin rent is not enough. */
const ENOUGH_RENT = new Set(['evidence', 'shrunk', 'ons_district']);

export default defineRoute({
  method: 'GET',
  path: '/yields',
  operationId: 'getYields',
  summary: 'Gross yields by area and bedrooms',
  description:
    'Gross yield by bedrooms for a sector (`postcode=BS1 4`; a full postcode or a UPRN answers for its sector), an outcode or a local authority: ' +
    'median monthly rent (whole-property lets of the 24 months to the rental evidence\'s latest month) × 12 ÷ median price (standard sales of the last 24 months with as many ' +
    'bedrooms, index-adjusted), each with its sample sizes. A thin area says so: a rent from few lets is shrunk toward the wider area\'s and names it; ' +
    'an area with too few sales or lets answers with the nearest wider area that has them (`area.widened`, `note`). docs/valuation.md.',
  tag: 'Rents',
  cost: 2,
  query: YieldsQuerySchema,
  response: YieldsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /yields'));
    if (!t.has.has('area_stats') || t.salesMonth === null) notServedYet('GET /yields')();
    const place = await placeOrNotFound(toLocation(query, AREA_RENTS_LOCATION), data);
    const asked = askedArea(place);
    if (asked.code === null) throw new ApiError('not_found', `No postcode sector is known for ${place.label}.`);
    const area = { level: asked.level, code: asked.code };
    const groups = query.bedrooms === undefined ? [0, 1, 2, 3, MAX_BEDROOM_GROUP] : [bedroomGroup(query.bedrooms)];
    const by_bedrooms = [];
    for (const b of groups) {
      // The area rents rows carry their yield where yields_area has one (lookup_area_stats_tables.sql).
      const chosen = chooseFrom(t, t.rows.rents, area, place.la_code, (rows) => rows.find((r) => Number(r.bedrooms) === b && r.gross_yield_pct != null),
        (r) => ENOUGH_RENT.has(String(r.source)));
      if (!chosen) continue;
      const r = chosen.row;
      const source = String(r.source);
      const thin = !chosen.enough || source !== 'evidence';
      const where = `${chosen.level} ${chosen.code}`;
      const note = !chosen.enough
        ? `no area up to ${where} has a yield on enough lets: its rent is from ${r.sample_size} lets`
        : chosen.widened
          ? `${area.level} ${area.code} has too few ${b === MAX_BEDROOM_GROUP ? '4+' : b}-bedroom sales or lets for a yield of its own (at least 5 sales and a rent); these are the ${where}'s`
          : source === 'shrunk' ? `the rent rests on ${r.sample_size} lets, shrunk toward the ${str(r.prior_level)}'s figure` : null;
      by_bedrooms.push({
        bedrooms: b,
        gross_yield_pct: num(r.gross_yield_pct)!,
        median_rent_pcm: num(r.median_pcm)!,
        rent_sample_size: Number(r.sample_size),
        rent_source: source as 'evidence' | 'shrunk' | 'ons_district' | 'evidence_thin',
        rent_prior_level: str(r.prior_level),
        median_price: num(r.yield_median_price)!,
        sales_count: Number(r.yield_sales),
        area: { level: chosen.level as RentLevel, code: chosen.code, widened: chosen.widened },
        thin,
        note,
      });
    }
    if (by_bedrooms.length === 0) {
      throw new ApiError('not_found', `No gross yield for ${area.level} ${area.code} or any wider area${query.bedrooms === undefined ? '' : ` with ${bedroomGroup(query.bedrooms) === MAX_BEDROOM_GROUP ? '4+' : query.bedrooms} bedrooms`}: too few sales or lets.`);
    }
    const last = monthNo(t.salesMonth!); // yields_area is made from price_growth's sales
    return {
      area,
      by_bedrooms,
      rents_period: letsPeriod(windowEndDate(build, 'rental_evidence')),
      sales_period: { from: monthText(last - 23), to: monthText(last) },
      currency: 'GBP' as const,
    };
  },
});
