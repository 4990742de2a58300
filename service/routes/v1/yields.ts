import { YieldsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/yields',
  operationId: 'getYields',
  summary: 'Gross yields by area and bedrooms',
  tag: 'Rents',
  cost: 2,
  query: YieldsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /yields'),
});
