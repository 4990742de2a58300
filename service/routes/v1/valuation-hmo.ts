import { z } from 'zod';
import { HmoQuerySchema, HmoValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/hmo',
  operationId: 'getHmoValuation',
  summary: 'HMO valuation with room rents and yield',
  tag: 'Valuations',
  cost: 5,
  params: z.strictObject({ uprn: Uprn }),
  query: HmoQuerySchema,
  response: HmoValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /valuations/{uprn}/hmo'),
});
