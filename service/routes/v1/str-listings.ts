import { StrListingsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/str/listings',
  operationId: 'getStrListings',
  summary: 'Listing-level short-term-let performance in an area, paged',
  tag: 'Short-term lets',
  cost: 3,
  query: StrListingsQuerySchema,
  mayNotFind: true,
});
