import { ListingsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/listings',
  operationId: 'getListings',
  summary: 'For-sale and to-let listings near a location, paged',
  tag: 'Listings',
  cost: 1,
  query: ListingsQuerySchema,
  mayNotFind: true,
});
