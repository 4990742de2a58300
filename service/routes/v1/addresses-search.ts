import { AddressSearchQuerySchema, AddressSearchResponseSchema } from '../../../schemas/api/property.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './pending.ts';

export default defineRoute({
  method: 'GET',
  path: '/addresses/search',
  operationId: 'searchAddresses',
  summary: 'Typeahead address search resolving to UPRNs',
  tag: 'Identity',
  cost: 1,
  query: AddressSearchQuerySchema,
  response: AddressSearchResponseSchema,
  needsBuild: true,
  handler: notServedYet('GET /addresses/search'),
});
