import { FloodRiskQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/flood-risk',
  operationId: 'getFloodRisk',
  summary: 'Flood zones for a postcode or point',
  tag: 'Risk and planning',
  cost: 2,
  query: FloodRiskQuerySchema,
  mayNotFind: true,
});
