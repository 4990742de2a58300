import { DevelopmentGdvBodySchema } from '../../../schemas/api/valuation.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'POST',
  path: '/valuations/development-gdv',
  operationId: 'estimateDevelopmentGdv',
  summary: 'Gross development value of a unit mix',
  tag: 'Valuations',
  cost: 5,
  body: DevelopmentGdvBodySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('POST /valuations/development-gdv'),
});
