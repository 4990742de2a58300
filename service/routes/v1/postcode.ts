import { PostcodeParamsSchema } from '../../../schemas/api/area.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/postcodes/{postcode}',
  operationId: 'getPostcode',
  summary: 'Postcode location, country, area codes, status, address count and median price',
  tag: 'Location',
  cost: 1,
  params: PostcodeParamsSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: notServedYet('GET /postcodes/{postcode}'),
});
