import { PlanningQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/planning/constraints',
  operationId: 'getPlanningConstraints',
  summary: 'Planning designations at a UPRN or point',
  tag: 'Risk and planning',
  cost: 2,
  query: PlanningQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /planning/constraints'),
});
