import { AreaRentsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/rents/hmo',
  operationId: 'getHmoRents',
  summary: 'Area room rents',
  tag: 'Rents',
  cost: 2,
  query: AreaRentsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /rents/hmo'),
});
