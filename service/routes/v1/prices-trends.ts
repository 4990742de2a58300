import { TrendsQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/prices/trends',
  operationId: 'getPriceTrends',
  summary: 'Area monthly index, medians, growth and volumes',
  tag: 'Prices',
  cost: 2,
  query: TrendsQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /prices/trends'),
});
