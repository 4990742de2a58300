import { z } from 'zod';
import { HmoQuerySchema, HmoValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { valueHmo } from '../../domain/hmo.ts';
import { ApiError } from '../../middleware/errors.ts';
import { buildStores } from '../../store/stores.ts';
import { dataDate, hmoAreas } from '../../valuation/hmo-areas.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/hmo',
  operationId: 'getHmoValuation',
  summary: 'HMO valuation with room rents and yield',
  description:
    'Letting rooms = bedrooms (+1 when `living_room=false`); rent per room = the area median room let × finish, parking and outside-space factors; ' +
    'sale value = annual rent ÷ the area HMO yield (low/high from its interquartile range). Model and factors: docs/valuation.md.',
  tag: 'Valuations',
  cost: 5,
  params: z.strictObject({ uprn: Uprn }),
  query: HmoQuerySchema,
  response: HmoValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, query, build }) => {
    const store = await buildStores.get(build!);
    // A build published before the valuation_evidence stage has no HMO yields: 503, nothing charged.
    if (!store.tables.has('hmo_yields_area') || !store.tables.has('rents_rooms')) notServedYet('GET /valuations/{uprn}/hmo')();
    const [p] = await store.query('hmo_property', [BigInt(params.uprn)]);
    if (!p) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    const areas = await hmoAreas.get(build!);
    const sector = str(p.sector), outcode = str(p.outcode), district = str(p.la_code);
    const room = areas.roomRent(sector, outcode, district);
    if (!room) throw new ApiError('not_found', `No room rents are recorded for the area of UPRN ${params.uprn} (${p.postcode}), so it cannot be valued as an HMO.`);
    const yld = areas.hmoYield(sector, outcode, district);
    if (!yld) throw new ApiError('not_found', `No HMO yield can be measured for the area of UPRN ${params.uprn} (no recent sales of 3+ bedroom houses in this build).`);
    return valueHmo(
      {
        uprn: params.uprn,
        bedrooms: p.bedrooms === null || p.bedrooms === undefined ? null : Number(p.bedrooms),
        kind: p.property_type === 'Flat' ? 'flat' : 'house',
        article_4: p.article_4 === true,
        room_rent: room,
        hmo_yield: yld,
        as_of: dataDate(build!),
      },
      query,
    );
  },
});
