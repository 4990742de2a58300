import { z } from 'zod';
import { RentalQuerySchema } from '../../../schemas/api/valuation.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/valuations/{uprn}/rental',
  operationId: 'getRentalValuation',
  summary: 'Monthly rent from comparables by expanding radius',
  tag: 'Valuations',
  cost: 3,
  params: z.strictObject({ uprn: Uprn }),
  query: RentalQuerySchema,
  mayNotFind: true,
});
