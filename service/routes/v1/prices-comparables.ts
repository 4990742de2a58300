import { radiusOf, toLocation } from '../../../schemas/api/location.ts';
import { COMPARABLES_LOCATION, ComparablesQuerySchema, ComparablesSchema } from '../../../schemas/api/prices.ts';
import { monthText } from '../../../schemas/months.ts';
import { placeOrNotFound } from '../place.ts';
import { soldComparables } from '../../lookups/comparables-search.ts';
import { sourceAsOfEntry } from '../../lookups/tables.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet, unlessFileFails } from './not-served.ts';
import { requireCovered } from '../coverage.ts';

export default defineRoute({
  method: 'GET',
  path: '/prices/comparables',
  operationId: 'getSoldComparables',
  summary: 'Sold comparables near a location',
  description:
    'Homes sold (standard Price Paid sales) within `radius_m` (default 500, at most 2,000) of a UPRN, full postcode or point, ' +
    'each once with its latest sale in the date range; filters on the home\'s type, bedrooms and the sale date. Sorted by ' +
    'distance (default), date (newest first) or similarity to the UPRN given (type, bedrooms, floor area, distance, age of ' +
    'sale; docs/api.md), paged. Each with £ per sq ft where the home has a floor area and its price today by the local index. ' +
    'Found through a spatial index over the sales (the grid cells around the point).',
  tag: 'Prices',
  cost: 5,
  query: ComparablesQuerySchema,
  response: ComparablesSchema,
  needsBuild: true,
  mayNotFind: true,
  mayNotCover: true,
  handler: async ({ query, data, build }) => {
    const store = await data.store.get();
    if (!store.tables.has('sales') || !store.tables.has('properties')) notServedYet('GET /prices/comparables')();
    const [idx, records] = await Promise.all([data.comparables.get().catch(notServedYet('GET /prices/comparables')), data.records.get()]);
    const place = await placeOrNotFound(toLocation(query, COMPARABLES_LOCATION), data);
    await requireCovered('price_paid', place, data);
    if (place.lat === null || place.lng === null) throw new ApiError('not_found', `${place.label} has no position to search around.`);
    const radius = radiusOf(query, COMPARABLES_LOCATION)!;
    const at = { lat: place.lat, lng: place.lng, self: place.uprn };
    const found = unlessFileFails(() => soldComparables(idx, records, at, radius, query), 'GET /prices/comparables');
    if (found.past_last_page !== undefined) throw new ApiError('invalid_request', 'The page asked for is past the last page of results.', [{ path: 'query.page', message: found.past_last_page }]);
    const { minBed, maxBed } = found;
    return {
      location: { label: place.label, lat: place.lat, lng: place.lng, radius_m: radius },
      filters: {
        property_type: query.property_type ?? null, min_bedrooms: minBed, max_bedrooms: maxBed,
        min_date: query.min_date ?? null, max_date: query.max_date ?? null,
      },
      sort: query.sort,
      total: found.total,
      page: query.page,
      per_page: query.per_page,
      total_pages: found.totalPages,
      comparables: found.comparables,
      price_today_month: idx.indexMonth === null ? null : monthText(idx.indexMonth),
      source: sourceAsOfEntry(build, 'price_paid'),
    };
  },
});
