import { StrMarketQuerySchema, StrMarketSchema } from '../../../schemas/api/str.ts';
import { passes } from '../../domain/str/market-listings.ts';
import { countryOf, SECTIONS, marketSections, type Section } from '../../domain/str/market.ts';
import { ApiError } from '../../middleware/errors.ts';
import { locateListings } from '../../str/locate.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';
import { strCoverage } from '../../domain/coverage.ts';
import { requireCovered } from '../coverage.ts';

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
  mayNotCover: true,
  handler: async ({ query, data }) => {
    const set = await data.strMarket.get().catch(notServedYet('GET /str/market'));
    const found = await locateListings(set, query, data);
    if ('not_found' in found) throw new ApiError('not_found', found.not_found);
    const { idx: located, label } = found;
    // Ascending rows: the months are read in memory order, and summed in the same order from either path.
    const { s, at } = set.select(located);
    const idx = Int32Array.from(at.filter((i) => passes(s, i, query))).sort();
    if (located.length === 0) {
      await requireCovered(strCoverage(set.countries()), found.place, data);
      // A sector or outcode finds only listings placed by postcode: when the build has listings
      // without one, the cause may be missing postcode data, not an empty area. Say so.
      const unplaced = query.outcode !== undefined || query.postcode !== undefined ? set.unplacedCount() : 0;
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
      ...marketSections(s, idx, include, await set.bench(), set.ltm(s, (x) => data.caches.strListingLtm(x))),
    };
  },
});
