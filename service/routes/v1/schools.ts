import { SchoolsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/schools',
  operationId: 'getSchools',
  summary: 'Nearest schools with phase and inspection rating',
  tag: 'Location',
  cost: 2,
  query: SchoolsQuerySchema,
  mayNotFind: true,
});
