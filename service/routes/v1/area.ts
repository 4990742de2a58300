import { AreaCodeParamsSchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/areas/{code}',
  operationId: 'getArea',
  summary: 'Profile of a postcode area, district or sector',
  tag: 'Location',
  cost: 2,
  params: AreaCodeParamsSchema,
  mayNotFind: true,
});
