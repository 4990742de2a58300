import { DealsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/sourcing/deals',
  operationId: 'getSourcingDeals',
  summary: 'Listings priced below the AVM or above an area yield',
  tag: 'Listings',
  cost: 5,
  query: DealsQuerySchema,
  mayNotFind: true,
});
