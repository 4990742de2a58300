import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/properties/{uprn}/epc',
  operationId: 'getPropertyEpc',
  summary: 'Energy certificates of a property over time',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  mayNotFind: true,
});
