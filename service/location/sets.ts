import type { GIAS_PHASES, GIAS_STATUSES, OFSTED_RATINGS } from '../../schemas/sources/gias.ts';
import type { ListingPropertyType } from '../../schemas/sources/listings.ts';
import type { BuildStore } from '../store/store.ts';

/**
 * The build's schools held in memory (the `schools` resource of BuildResources), and the
 * listing shape the listings set (listings-set.ts) gives. A build without the schools table
 * (published before it existed) yields undefined, and the endpoint answers 503 for it.
 */

/** Values the published table holds (the reader's schema checked them), typed as such. */
export interface School {
  urn: number; name: string; phase: (typeof GIAS_PHASES)[number]; type: string; status: (typeof GIAS_STATUSES)[number];
  low_age: number | null; high_age: number | null; pupils: number | null; capacity: number | null;
  ofsted_rating: (typeof OFSTED_RATINGS)[number] | null; ofsted_date: string | null; postcode: string | null;
}
export interface SchoolsSet { schools: School[]; lat: Float64Array; lng: Float64Array; asOf: string | null }

export async function loadSchoolsSet(store: BuildStore): Promise<SchoolsSet | undefined> {
  if (!store.tables.has('schools')) return undefined;
  const rows = await store.rows('schools_all');
  // The reader's schema checked phase, status and rating against their lists (School's types).
  const schools = rows.map((r) => ({
    urn: r.urn, name: r.name, phase: r.phase, type: r.type, status: r.status, low_age: r.low_age, high_age: r.high_age, pupils: r.pupils,
    capacity: r.capacity, ofsted_rating: r.ofsted_rating, ofsted_date: r.ofsted_date, postcode: r.postcode,
  }) as School);
  const asOf = rows.map((r) => r.ofsted_date).filter((d): d is string => d !== null).sort().at(-1) ?? null;
  return { schools, lat: Float64Array.from(rows, (r) => r.lat), lng: Float64Array.from(rows, (r) => r.lng), asOf };
}

/** A map point, rounded as answers give coordinates; null where the row has no position. */
export type MapPoint = { lat: number; lng: number } | null;
export function mapPoint(lat: unknown, lng: unknown): MapPoint {
  if (lat === null || lat === undefined || lng === null || lng === undefined) return null;
  const a = Number(lat);
  const b = Number(lng);
  return Number.isFinite(a) && Number.isFinite(b) ? { lat: Math.round(a * 1e7) / 1e7, lng: Math.round(b * 1e7) / 1e7 } : null;
}

export interface Listing {
  listing_id: string; agent_ref: string; channel: 'sale' | 'rent'; status: string; uprn: number | null; address: string; postcode: string;
  outcode: string; sector: string; la_code: string | null; price: number; price_qualifier: string | null; bedrooms: number;
  property_type: ListingPropertyType; tenure: string | null; listed_date: string | null; updated_at: string;
  /** Where the console's map draws it. */
  location: MapPoint;
}

/**
 * Where a set is searched: a point with a radius, or an outcode (around.ts's `Around` is one;
 * declared here so the sets, which BuildResources opens, need not import the resolver's module).
 */
export type SetPlace =
  | { kind: 'outcode'; outcode: string }
  | { kind: 'uprn' | 'postcode' | 'point'; lat: number; lng: number; radius_m: number };
