import { ComparablesQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/prices/comparables',
  operationId: 'getSoldComparables',
  summary: 'Sold comparables near a location',
  tag: 'Prices',
  cost: 5,
  query: ComparablesQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /prices/comparables'),
});
