import { z } from 'zod';
import { SaleValuationSchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/sale',
  operationId: 'getSaleValuation',
  summary: 'Automated sale valuation (AVM cascade)',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  response: SaleValuationSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /valuations/{uprn}/sale'),
});
