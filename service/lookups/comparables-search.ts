import { mapPoint } from '../location/sets.ts';
import type { z } from 'zod';
import type { ComparablesQuerySchema } from '../../schemas/api/prices.ts';
import { pageSlice, similarity, type CompSubject } from '../domain/lookups.ts';
import { topK } from '../domain/top-k.ts';
import type { PropertyRecord, PropertyRecords } from '../records/property-records.ts';
import { COMP_TYPES, type ComparablesSource } from './comparables.ts';

type ComparablesQuery = z.output<typeof ComparablesQuerySchema>;

const dayOf = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
const isoOf = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);

/**
 * GET /prices/comparables over the comparables index: the homes within `radius` of the point
 * (not the home `self`) that pass the query's filters, each with its latest sale in the date
 * range, sorted and paged as asked; or, for a page past the last, the reason.
 */
export function soldComparables(
  source: ComparablesSource, records: PropertyRecords, at: { lat: number; lng: number; self: number | null }, radius: number, query: ComparablesQuery,
) {
  const typeCode = query.property_type ? COMP_TYPES.indexOf(query.property_type) : 0;
  const minBed = query.bedrooms ?? query.min_bedrooms ?? null;
  const maxBed = query.bedrooms ?? query.max_bedrooms ?? null;
  const { self } = at;
  const keepHome = (uprn: number, type: number, b: number) => {
    if (uprn === self) return false;
    if (typeCode > 0 && type !== typeCode) return false;
    if ((minBed !== null || maxBed !== null) && b < 0) return false;
    if (minBed !== null && b < minBed) return false;
    return maxBed === null || b <= maxBed;
  };
  // Each home once, with its latest sale in the date range, found over one point per home.
  const homes = source.latestWithin(at.lat, at.lng, radius, keepHome, query.min_date ? dayOf(query.min_date) : -Infinity, query.max_date ? dayOf(query.max_date) : Infinity);
  const subject = self === null ? null : subjectOf(records.get(self)!);
  const nowDay = source.indexMonth;
  // Hit j is home row homes.row[j] of homes.sales at homes.dist[j] metres.
  const { row, dist, sales: idx } = homes;
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
  if (typeof page === 'string') return { past_last_page: page };
  // Only the homes up to the page's end are ranked (a 2 km radius holds thousands).
  const hitIds = Int32Array.from({ length: homes.length }, (_, j) => j);
  const comparables = topK(hitIds, page.to, order).slice(page.from).map((j) => {
    const i = row[j]!;
    const u = idx.uprn[i]!;
    const rec = records.get(u);
    const area = idx.areaSqft[i]!;
    const today = idx.priceTodayOf(i);
    const b = idx.bedrooms[i]!;
    return {
      uprn: u,
      address: rec?.address ?? '',
      postcode: rec?.postcode ?? null,
      price: idx.price[i]!,
      date: isoOf(idx.day[i]!),
      property_type: COMP_TYPES[idx.type[i]!] ?? null,
      bedrooms: b < 0 ? null : b,
      floor_area_sqft: Number.isNaN(area) ? null : area,
      price_per_sqft: Number.isNaN(area) || !(area > 0) ? null : Math.round((idx.price[i]! / area) * 100) / 100,
      price_today: Number.isNaN(today) ? null : today,
      distance_m: Math.round(dist[j]! * 10) / 10,
      location: mapPoint(idx.lat[i], idx.lng[i]),
      similarity: subject ? (sim ? sim[j]! : simAt(j)) : null,
    };
  });
  return { minBed, maxBed, total: homes.length, totalPages: page.totalPages, comparables };
}

/** The home compared with, from its property record. */
function subjectOf(r: PropertyRecord): CompSubject {
  return { type: r.property_type, bedrooms: r.bedrooms, floorAreaSqft: r.floor_area_sqft };
}
