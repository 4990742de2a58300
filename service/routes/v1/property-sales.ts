import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/properties/{uprn}/sales',
  operationId: 'getPropertySales',
  summary: 'Price-paid history of a property',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  mayNotFind: true,
});
