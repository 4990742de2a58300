import { StrEstimateBodySchema, StrEstimateSchema } from '../../../schemas/api/str.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'POST',
  path: '/valuations/str-estimate',
  operationId: 'estimateShortTermLet',
  summary: '12-month short-term-let revenue projection',
  tag: 'Short-term lets',
  cost: 50,
  body: StrEstimateBodySchema,
  response: StrEstimateSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('POST /valuations/str-estimate'),
});
