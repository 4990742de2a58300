import { SchoolsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/schools',
  operationId: 'getSchools',
  summary: 'Nearest schools with phase and inspection rating',
  tag: 'Location',
  cost: 2,
  query: SchoolsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /schools'),
});
