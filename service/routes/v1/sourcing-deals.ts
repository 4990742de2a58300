import { DealsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/sourcing/deals',
  operationId: 'getSourcingDeals',
  summary: 'Listings priced below the AVM or above an area yield',
  tag: 'Listings',
  cost: 5,
  query: DealsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /sourcing/deals'),
});
