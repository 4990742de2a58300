import { LongTermRentsQuerySchema, LongTermRentsSchema } from '../../../schemas/api/rents.ts';
import { bedroomGroup, degreeBox, rentArea } from '../../domain/rents.ts';
import { ApiError } from '../../middleware/errors.ts';
import { buildStores } from '../../store/stores.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/rents/long-term',
  operationId: 'getLongTermRents',
  summary: 'Area long-term rents by bedrooms',
  description:
    'Whole-property lets agreed in the 24 months to the build date, by bedroom count (4 = four or more): median, mean, quartiles and sample size. ' +
    'Location in exactly one way: `postcode` (full, answered for its sector, or a sector), `outcode`, or `lat`+`lng`+`radius_m`. docs/valuation.md.',
  tag: 'Rents',
  cost: 2,
  query: LongTermRentsQuerySchema,
  response: LongTermRentsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, build }) => {
    const store = await buildStores.get(build!);
    if (!store.tables.has('rent_lets')) notServedYet('GET /rents/long-term')();
    const area = rentArea(query);
    const kind = query.property_type ?? null;
    const group = query.bedrooms === undefined ? null : bedroomGroup(query.bedrooms);
    if (area.postcode !== null && (await store.query('postcode_exists', [area.postcode])).length === 0) {
      throw new ApiError('not_found', `Postcode ${area.postcode} is not in the postcode directory.`);
    }
    let rows: Record<string, unknown>[];
    if (area.level === 'radius') {
      const { dlat, dlng } = degreeBox(area.lat, area.radius_m);
      rows = await store.query('rents_lt_radius', [area.lat, area.lng, area.radius_m, dlat, dlng, kind, group]);
    } else {
      rows = await store.query(area.level === 'sector' ? 'rents_lt_sector' : 'rents_lt_outcode', [area.code, kind, group]);
    }
    if (rows.length === 0) {
      const filters = [kind && `${kind}s`, group !== null && `${group === 4 ? '4+' : group} bedrooms`].filter(Boolean).join(', ');
      throw new ApiError('not_found', `No whole-property lets recorded in the last 24 months ${area.level === 'radius' ? area.label : `in ${area.label}`}${filters ? ` (${filters})` : ''}.`);
    }
    return {
      location: area.label,
      area: { level: area.level, code: area.level === 'radius' ? null : area.code, radius_m: area.level === 'radius' ? area.radius_m : null },
      property_type: kind,
      period: { from: rows.map((r) => String(r.first_let)).sort()[0]!, to: rows.map((r) => String(r.last_let)).sort().at(-1)! },
      by_bedrooms: rows.map((r) => ({
        bedrooms: Number(r.bedrooms),
        median_pcm: Number(r.median_pcm),
        mean_pcm: Number(r.mean_pcm),
        p25_pcm: Number(r.p25_pcm),
        p75_pcm: Number(r.p75_pcm),
        sample_size: Number(r.sample_size),
      })),
      currency: 'GBP' as const,
    };
  },
});
