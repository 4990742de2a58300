import { z } from 'zod';
import { HmoQuerySchema, HmoValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { hmoValuers } from '../../valuation/hmo-areas.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

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
    // A build without HMO yields or the property record file: 503, nothing charged.
    const valuer = await hmoValuers.get(build!);
    if (!valuer) notServedYet('GET /valuations/{uprn}/hmo')();
    const v = valuer!.value(params.uprn, query);
    if (!v) throw new ApiError('not_found', `No property with UPRN ${params.uprn}.`);
    return v;
  },
});
