import { PointQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/crime',
  operationId: 'getCrime',
  summary: 'Street-level crime by category near a point, last 12 months',
  tag: 'Location',
  cost: 2,
  query: PointQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /crime'),
});
