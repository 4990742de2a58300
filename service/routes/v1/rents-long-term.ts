import { AreaRentsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/rents/long-term',
  operationId: 'getLongTermRents',
  summary: 'Area long-term rents by bedrooms',
  tag: 'Rents',
  cost: 2,
  query: AreaRentsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /rents/long-term'),
});
