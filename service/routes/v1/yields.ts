import { AREA_RENTS_LOCATION, YieldsQuerySchema, YieldsSchema } from '../../../schemas/api/rents.ts';
import { letsPeriod } from '../../domain/area-evidence.ts';
import { monthNo, monthText } from '../../../schemas/months.ts';
import { bedroomGroup, MAX_BEDROOM_GROUP } from '../../domain/rents.ts';
import { windowEndDate } from '../../lookups/tables.ts';
import { areaYield, askedArea } from '../../lookups/area-rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { toLocation } from '../../../schemas/api/location.ts';
import { placeOrNotFound } from '../place.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/yields',
  operationId: 'getYields',
  summary: 'Gross yields by area and bedrooms',
  description:
    'Gross yield by bedrooms for a sector (`postcode=BS1 4`; a full postcode or a UPRN answers for its sector), an outcode or a local authority: ' +
    'median monthly rent (whole-property lets of the 24 months to the rental evidence\'s latest month) × 12 ÷ median price (standard sales of the last 24 months with as many ' +
    'bedrooms, index-adjusted), each with its sample sizes. A thin area says so: a rent from few lets is shrunk toward the wider area\'s and names it; ' +
    'an area with too few sales or lets answers with the nearest wider area that has them (`area.widened`, `note`). docs/valuation-gdv-rents.md.',
  tag: 'Rents',
  cost: 2,
  query: YieldsQuerySchema,
  response: YieldsSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data, build }) => {
    const t = await data.lookups.get().catch(notServedYet('GET /yields'));
    if (!t.has.has('area_stats') || t.salesMonth === null) notServedYet('GET /yields')();
    const place = await placeOrNotFound(toLocation(query, AREA_RENTS_LOCATION), data);
    await requireCovered('price_paid', place, data);
    const asked = askedArea(place);
    if (asked.code === null) throw new ApiError('not_found', `No postcode sector is known for ${place.label}.`);
    const area = { level: asked.level, code: asked.code };
    const groups = query.bedrooms === undefined ? [0, 1, 2, 3, MAX_BEDROOM_GROUP] : [bedroomGroup(query.bedrooms)];
    const by_bedrooms: NonNullable<ReturnType<typeof areaYield>>[] = [];
    for (const b of groups) {
      const y = areaYield(t, area, place.la_code, b);
      if (y) by_bedrooms.push(y);
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
