import { AddressSearchQuerySchema, AddressSearchResponseSchema, SEARCH_LIMIT_MAX } from '../../../schemas/api/property.ts';
import { BlockFileError } from '../../../lib/files/block-file.ts';
import type { SearchIndex } from '../../search/engine.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

export default defineRoute({
  method: 'GET',
  path: '/addresses/search',
  operationId: 'searchAddresses',
  summary: 'Typeahead address search resolving to UPRNs',
  description:
    'Trigram similarity (pg_trgm style) made for addresses: house and flat numbers (with letter suffixes) must match exactly, ' +
    'a full or partial postcode ranks its addresses first, abbreviations match their long forms and the last word may be partly typed. ' +
    '`score` is 0 to 1.',
  tag: 'Identity',
  cost: 1,
  query: AddressSearchQuerySchema,
  response: AddressSearchResponseSchema,
  needsBuild: true,
  handler: async ({ query, data, setHeader }) => {
    let index: SearchIndex;
    try {
      index = await data.searchIndex.get();
    } catch {
      // A build published without the index (or with an unreadable one): 503, nothing charged.
      return notServedYet('GET /addresses/search')();
    }
    const limit = Math.min(query.limit, SEARCH_LIMIT_MAX);
    if (query.limit > SEARCH_LIMIT_MAX) setHeader('X-Limit-Capped', `limit=${query.limit} was capped to ${SEARCH_LIMIT_MAX}`);
    let results;
    try {
      results = index.search(query.q, limit);
    } catch (e) {
      // The index is read where it lies: a file cut short since it was opened is a 503, never a partial answer.
      if (e instanceof BlockFileError) return notServedYet('GET /addresses/search')();
      throw e;
    }
    return { results, count: results.length };
  },
});
