import { AreaRentsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/rents/hmo',
  operationId: 'getHmoRents',
  summary: 'Area room rents',
  tag: 'Rents',
  cost: 2,
  query: AreaRentsQuerySchema,
  mayNotFind: true,
});
