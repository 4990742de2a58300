import { PlanningQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/planning/constraints',
  operationId: 'getPlanningConstraints',
  summary: 'Planning designations at a UPRN or point',
  tag: 'Risk and planning',
  cost: 2,
  query: PlanningQuerySchema,
  mayNotFind: true,
});
