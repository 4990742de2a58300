import { FloodRiskQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/flood-risk',
  operationId: 'getFloodRisk',
  summary: 'Flood zones for a postcode or point',
  tag: 'Risk and planning',
  cost: 2,
  query: FloodRiskQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /flood-risk'),
});
