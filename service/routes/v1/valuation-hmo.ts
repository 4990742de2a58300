import { z } from 'zod';
import { HmoQuerySchema, HmoValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { ApiError } from '../../middleware/errors.ts';
import { requireCovered } from '../coverage.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/hmo',
  operationId: 'getHmoValuation',
  summary: 'HMO valuation with room rents and yield',
  description:
    'Letting rooms = bedrooms (+1 when `living_room=false`), but no more than the floor area holds: floor area ÷ the floor area per let household of the ' +
    "build's licensed HMOs (their 10th percentile, from at least 20 matched to a home with a floor area; else 129 sq ft from the national HMO and space standards). " +
    "Unrecorded bedrooms are estimated from the floor area at the licences' median, else 3 for a house, 2 for a flat; rooms other than the recorded bedrooms make confidence low. " +
    'Rent per room = the area median room let × finish, parking and outside-space factors; ' +
    'sale value = annual rent ÷ the area HMO yield (low/high from its interquartile range). The yield rests on sale prices, so a Scottish home is a free 404 `not_covered` ' +
    '(Price Paid covers England and Wales). Model, figures and sample sizes: docs/valuation-rental-hmo.md.',
  tag: 'Valuations',
  cost: 5,
  params: z.strictObject({ uprn: Uprn }),
  query: HmoQuerySchema,
  response: HmoValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ params, query, data }) => {
    // A build without HMO yields or the property record file: 503, nothing charged.
    const valuer = (await data.hmoValuer.get()) ?? notServedYet('GET /valuations/{uprn}/hmo')();
    // The sale value is rent ÷ a yield measured on sale prices: none where Price Paid does not reach.
    await requireCovered('price_paid', { kind: 'uprn', label: `UPRN ${params.uprn}`, uprn: params.uprn, la_code: null, lat: null, lng: null }, data);
    const r = valuer.value(params.uprn, query);
    if (r.kind === 'not_found') throw new ApiError('not_found', r.reason);
    return r.valuation;
  },
});
