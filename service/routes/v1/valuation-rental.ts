import { z } from 'zod';
import { RentalQuerySchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/valuations/{uprn}/rental',
  operationId: 'getRentalValuation',
  summary: 'Monthly rent from comparables by expanding radius',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  query: RentalQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /valuations/{uprn}/rental'),
});
