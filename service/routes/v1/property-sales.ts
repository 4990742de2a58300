import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/properties/{uprn}/sales',
  operationId: 'getPropertySales',
  summary: 'Price-paid history of a property',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /properties/{uprn}/sales'),
});
