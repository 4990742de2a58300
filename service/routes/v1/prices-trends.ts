import { TrendsQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/prices/trends',
  operationId: 'getPriceTrends',
  summary: 'Area monthly index, medians, growth and volumes',
  tag: 'Prices',
  cost: 2,
  query: TrendsQuerySchema,
  mayNotFind: true,
});
