import { ListingsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/listings',
  operationId: 'getListings',
  summary: 'For-sale and to-let listings near a location, paged',
  tag: 'Listings',
  cost: 1,
  query: ListingsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /listings'),
});
