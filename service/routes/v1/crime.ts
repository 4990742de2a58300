import { PointQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/crime',
  operationId: 'getCrime',
  summary: 'Street-level crime by category near a point, last 12 months',
  tag: 'Location',
  cost: 2,
  query: PointQuerySchema,
  mayNotFind: true,
});
