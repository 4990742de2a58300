import { HmoLicencesQuerySchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/hmo/licences',
  operationId: 'getHmoLicences',
  summary: 'Licensed HMOs near a location (council registers)',
  tag: 'Risk and planning',
  cost: 2,
  query: HmoLicencesQuerySchema,
  mayNotFind: true,
});
