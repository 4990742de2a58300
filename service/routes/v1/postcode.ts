import { PostcodeParamsSchema } from '../../../schemas/api/area.ts';
import { pendingRoute } from '../types.ts';

export default pendingRoute({
  method: 'GET',
  path: '/postcodes/{postcode}',
  operationId: 'getPostcode',
  summary: 'Postcode location, country, area codes, status, address count and median price',
  tag: 'Location',
  cost: 1,
  params: PostcodeParamsSchema,
  mayNotFind: true,
});
