import { YieldsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/yields',
  operationId: 'getYields',
  summary: 'Gross yields by area and bedrooms',
  tag: 'Rents',
  cost: 2,
  query: YieldsQuerySchema,
  mayNotFind: true,
});
