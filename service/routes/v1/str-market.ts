import type { z } from 'zod';
import { StrMarketQuerySchema, StrMarketSchema } from '../../../schemas/api/str.ts';
import { passes } from '../../domain/str/market-listings.ts';
import { SECTIONS, marketSections, type Section } from '../../domain/str/market.ts';
import { ApiError } from '../../middleware/errors.ts';
import { locateListings } from '../../str/locate.ts';
import type { StrMarketSet } from '../../str/market-set.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

type Country = z.output<typeof StrMarketSchema>['country'];

/**
 * The country most of the selected listings are in, from their postcodes (ties:
 * alphabetical): a polygon across a border takes its majority. Never a default: undefined
 * when no selected listing has a postcode.
 */
export function countryOf(country: readonly (string | null)[], idx: ArrayLike<number>): Country | undefined {
  // The listings' country column holds the build's country names (England, Scotland, Wales).
  const m = new Map<Country, number>();
  for (let k = 0; k < idx.length; k++) {
    const c = country[idx[k]!] as Country | null | undefined;
    if (c) m.set(c, (m.get(c) ?? 0) + 1);
  }
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/** Listings of the build with no postcode point within 1 km (so in no sector or outcode). */
function unplacedCount(set: StrMarketSet): number {
  let n = 0;
  for (let i = 0; i < set.listings.n; i++) if (set.listings.postcode[i] === null) n++;
  return n;
}

export default defineRoute({
  method: 'GET',
  path: '/str/market',
  operationId: 'getStrMarket',
  summary: 'Short-term-rental market analysis for an area',
  description:
    'Figures aggregate the selected listings\' estimated months (docs/str.md, "The market analysis"). ' +
    'A full postcode selects listings within 1 km of its point; a sector (e.g. `BS1 4`) or an outcode the listings placed in it. ' +
    '404 when no listing is selected after the filters.',
  tag: 'Short-term lets',
  cost: 3,
  query: StrMarketQuerySchema,
  response: StrMarketSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data }) => {
    const set = await data.strMarket.get().catch(notServedYet('GET /str/market'));
    const found = await locateListings(set, query, data);
    if ('not_found' in found) throw new ApiError('not_found', found.not_found);
    const { idx: located, label } = found;
    const s = set.listings;
    // Ascending rows: the months are read in memory order.
    const idx = Int32Array.from(located.filter((i) => passes(s, i, query))).sort();
    if (located.length === 0) {
      // A sector or outcode finds only listings placed by postcode: when the build has listings
      // without one, the cause may be missing postcode data, not an empty area. Say so.
      const unplaced = query.outcode !== undefined || query.postcode !== undefined ? unplacedCount(set) : 0;
      throw new ApiError('not_found', unplaced > 0
        ? `No short-term-let listings are placed in ${label}, but ${unplaced} listings of this build have no postcode point within 1 km (missing postcode data), so they are in no sector or outcode; a lat, lng and radius_m or polygon query finds them.`
        : `No short-term-let listings in ${label}.`);
    }
    if (idx.length === 0) throw new ApiError('not_found', `None of the ${located.length} short-term-let listings in ${label} match the filters.`);
    const country = countryOf(s.country, idx);
    if (country === undefined) {
      throw new ApiError('not_found', `The ${idx.length} short-term-let listings in ${label} have no postcode point within 1 km (missing postcode data), so their country and areas are unknown.`);
    }
    const include = new Set<Section>(
      query.include === undefined ? SECTIONS : (query.include.split(',').map((x) => x.trim()).filter(Boolean) as Section[]),
    );
    return {
      location: label,
      country,
      currency: 'GBP' as const,
      listings: idx.length,
      ...marketSections(s, idx, include, set.bench, data.caches.strListingLtm(s)),
    };
  },
});
