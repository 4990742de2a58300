import { AreaCodeParamsSchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/areas/{code}',
  operationId: 'getArea',
  summary: 'Profile of a postcode area, district or sector',
  tag: 'Location',
  cost: 2,
  params: AreaCodeParamsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /areas/{code}'),
});
