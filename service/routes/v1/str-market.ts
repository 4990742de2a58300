import { StrMarketQuerySchema, StrMarketSchema } from '../../../schemas/api/str.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/str/market',
  operationId: 'getStrMarket',
  summary: 'Short-term-rental market analysis for an area',
  tag: 'Short-term lets',
  cost: 3,
  query: StrMarketQuerySchema,
  response: StrMarketSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /str/market'),
});
