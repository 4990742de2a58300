import { radiusOf, toLocation } from '../../../schemas/api/location.ts';
import { COMPARABLES_LOCATION, ComparablesQuerySchema, ComparablesSchema } from '../../../schemas/api/prices.ts';
import { pageSlice, similarity, type CompSubject } from '../../domain/lookups.ts';
import { monthText } from '../../../schemas/months.ts';
import { topK } from '../../domain/top-k.ts';
import { placeOrNotFound } from '../place.ts';
import { COMP_TYPES } from '../../lookups/comparables.ts';
import { sourceAsOfEntry } from '../../lookups/tables.ts';
import { ApiError } from '../../middleware/errors.ts';
import { defineRoute } from '../types.ts';
import { notServedYet } from './not-served.ts';

const dayOf = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
const isoOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

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
    'Found through a spatial index (R-tree) over the sales.',
  tag: 'Prices',
  cost: 5,
  query: ComparablesQuerySchema,
  response: ComparablesSchema,
  needsBuild: true,
  mayNotFind: true,
  handler: async ({ query, data, build }) => {
    const store = await data.store.get();
    if (!store.tables.has('sales') || !store.tables.has('properties')) notServedYet('GET /prices/comparables')();
    const [idx, records] = await Promise.all([data.comparables.get(), data.records.get()]);
    const place = await placeOrNotFound(toLocation(query, COMPARABLES_LOCATION), data);
    if (place.lat === null || place.lng === null) throw new ApiError('not_found', `${place.label} has no position to search around.`);
    const radius = radiusOf(query, COMPARABLES_LOCATION)!;
    const typeCode = query.property_type ? COMP_TYPES.indexOf(query.property_type) : 0;
    const minBed = query.bedrooms ?? query.min_bedrooms ?? null;
    const maxBed = query.bedrooms ?? query.max_bedrooms ?? null;
    const minDay = query.min_date ? dayOf(query.min_date) : -Infinity;
    const maxDay = query.max_date ? dayOf(query.max_date) : Infinity;
    const self = place.uprn;
    const keepHome = (i: number) => {
      if (idx.uprn[i] === self) return false;
      if (typeCode > 0 && idx.type[i] !== typeCode) return false;
      const b = idx.bedrooms[i]!;
      if ((minBed !== null || maxBed !== null) && b < 0) return false;
      if (minBed !== null && b < minBed) return false;
      return maxBed === null || b <= maxBed;
    };
    // Each home once, with its latest sale in the date range, found over one point per home.
    const homes = idx.latestWithin(place.lat, place.lng, radius, keepHome, minDay, maxDay);
    let subject: CompSubject | null = null;
    if (self !== null) {
      const r = records.get(self)!;
      subject = {
        type: r.property_type == null ? null : String(r.property_type),
        bedrooms: r.bedrooms == null ? null : Number(r.bedrooms),
        floorAreaSqft: r.floor_area_sqft == null ? null : Number(r.floor_area_sqft),
      };
    }
    const nowDay = idx.indexMonth === null ? null : idx.indexMonth;
    // Hit j is home row homes.row[j] at homes.dist[j] metres.
    const { row, dist } = homes;
    const simAt = (j: number): number => {
      const i = row[j]!;
      const b = idx.bedrooms[i]!;
      const a = idx.areaSqft[i]!;
      const age = nowDay === null ? 0 : nowDay - idx.monthNo[i]!;
      return similarity(subject!, { type: COMP_TYPES[idx.type[i]!] ?? null, bedrooms: b < 0 ? null : b, floorAreaSqft: Number.isNaN(a) ? null : a }, dist[j]!, radius, age);
    };
    // Similarity to the subject for every hit only when sorting by it; else only for the page shown.
    const sim = subject && query.sort === 'similarity' ? Float64Array.from({ length: homes.length }, (_, j) => simAt(j)) : null;
    const byUprn = (a: number, b: number) => idx.uprn[row[a]!]! - idx.uprn[row[b]!]!;
    const order: (a: number, b: number) => number =
      query.sort === 'date' ? (a, b) => idx.day[row[b]!]! - idx.day[row[a]!]! || dist[a]! - dist[b]! || byUprn(a, b)
        : sim ? (a, b) => sim[b]! - sim[a]! || dist[a]! - dist[b]! || byUprn(a, b)
          : (a, b) => dist[a]! - dist[b]! || idx.day[row[b]!]! - idx.day[row[a]!]! || byUprn(a, b);
    const page = pageSlice(homes.length, query.page, query.per_page);
    if (typeof page === 'string') throw new ApiError('invalid_request', 'The page asked for is past the last page of results.', [{ path: 'query.page', message: page }]);
    // Only the homes up to the page's end are ranked (a 2 km radius holds thousands).
    const hitIds = Int32Array.from({ length: homes.length }, (_, j) => j);
    const comparables = topK(hitIds, page.to, order).slice(page.from).map((j) => {
      const i = row[j]!;
      const u = idx.uprn[i]!;
      const rec = records.get(u);
      const area = idx.areaSqft[i]!;
      const today = idx.priceToday[i]!;
      const b = idx.bedrooms[i]!;
      return {
        uprn: u,
        address: String(rec?.address ?? ''),
        postcode: rec?.postcode == null ? null : String(rec.postcode),
        price: idx.price[i]!,
        date: isoOf(idx.day[i]!),
        property_type: COMP_TYPES[idx.type[i]!] ?? null,
        bedrooms: b < 0 ? null : b,
        floor_area_sqft: Number.isNaN(area) ? null : area,
        price_per_sqft: Number.isNaN(area) || !(area > 0) ? null : Math.round((idx.price[i]! / area) * 100) / 100,
        price_today: Number.isNaN(today) ? null : today,
        distance_m: Math.round(dist[j]! * 10) / 10,
        similarity: subject ? (sim ? sim[j]! : simAt(j)) : null,
      };
    });
    return {
      location: { label: place.label, lat: place.lat, lng: place.lng, radius_m: radius },
      filters: {
        property_type: query.property_type ?? null, min_bedrooms: minBed, max_bedrooms: maxBed,
        min_date: query.min_date ?? null, max_date: query.max_date ?? null,
      },
      sort: query.sort,
      total_count: homes.length,
      page: query.page,
      per_page: query.per_page,
      total_pages: page.totalPages,
      comparables,
      price_today_month: idx.indexMonth === null ? null : monthText(idx.indexMonth),
      source: sourceAsOfEntry(build, 'price_paid'),
    };
  },
});
