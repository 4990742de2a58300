import { ComparablesQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/prices/comparables',
  operationId: 'getSoldComparables',
  summary: 'Sold comparables near a location',
  tag: 'Prices',
  cost: 5,
  query: ComparablesQuerySchema,
  mayNotFind: true,
});
