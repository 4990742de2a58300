import { z } from 'zod';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/risks/{uprn}',
  operationId: 'getRisks',
  summary: 'Flood, planning designations and energy risk of a property',
  tag: 'Risk and planning',
  cost: 8,
  params: z.strictObject({ uprn: Uprn }),
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /risks/{uprn}'),
});
