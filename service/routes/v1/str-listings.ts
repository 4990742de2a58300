import { StrListingsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/str/listings',
  operationId: 'getStrListings',
  summary: 'Listing-level short-term-let performance in an area, paged',
  tag: 'Short-term lets',
  cost: 3,
  query: StrListingsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /str/listings'),
});
