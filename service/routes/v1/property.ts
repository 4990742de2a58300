import { z } from 'zod';
import { FieldsSelector, PropertyRecordSchema } from '../../../schemas/api/property.ts';
import { Uprn } from '../../../schemas/api/common.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/properties/{uprn}',
  operationId: 'getProperty',
  summary: 'Merged property record',
  tag: 'Identity',
  cost: 1,
  params: z.strictObject({ uprn: Uprn }),
  query: z.strictObject({ fields: FieldsSelector.optional() }),
  response: PropertyRecordSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /properties/{uprn}'),
});
