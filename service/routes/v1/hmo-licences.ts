import { HmoLicencesQuerySchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/hmo/licences',
  operationId: 'getHmoLicences',
  summary: 'Licensed HMOs near a location (council registers)',
  tag: 'Risk and planning',
  cost: 2,
  query: HmoLicencesQuerySchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /hmo/licences'),
});
