import type { GIAS_PHASES, GIAS_STATUSES, OFSTED_RATINGS } from '../../schemas/sources/gias.ts';
import type { ListingPropertyType } from '../../schemas/sources/listings.ts';
import { CRIME_TYPES } from '../../schemas/sources/police-crime.ts';
import type { BuildStore } from '../store/store.ts';
import { Points } from '../../lib/geo/points.ts';

/**
 * The build's crime, schools and listings held in memory, with points indexes for radius queries:
 * loaded once per build (the `crime`, `schools` and `listings` resources of BuildResources,
 * opened by the build warmer), so a request counts or sorts a few thousand rows in
 * JavaScript. A build without these tables (published before they existed) yields
 * undefined, and the endpoints answer 503 for it.
 */

export interface CrimeSet {
  months: string[];
  latestRelease: string;
  /** Placed crimes only: month index, category index, grid. */
  month: Uint8Array;
  type: Uint8Array;
  grid: Points;
  /** Each authority's crimes (placed or not), addresses and months (crime_la). */
  la: Map<string, { crimes: number; addresses: number; months: number }>;
  unplacedByLa: Map<string, number>;
  homes: { grid: Points; count: Int32Array; la: (string | null)[] };
}

export async function loadCrimeSet(store: BuildStore): Promise<CrimeSet | undefined> {
  if (!store.tables.has('crime') || !store.tables.has('crime_la')) return undefined;
  const c = await store.columns('crime_all');
  const months = [...new Set(c.month)].sort();
  const monthIx = new Map(months.map((m, i) => [m, i]));
  const typeIx = new Map<string, number>(CRIME_TYPES.map((t, i) => [t, i]));
  const placed: number[] = [];
  const unplacedByLa = new Map<string, number>();
  for (let i = 0; i < c.month.length; i++) {
    if (c.lat[i] === null || c.lng[i] === null) {
      const la = c.la_code[i];
      if (la) unplacedByLa.set(la, (unplacedByLa.get(la) ?? 0) + 1);
    } else placed.push(i);
  }
  const month = Uint8Array.from(placed, (i) => monthIx.get(c.month[i]!)!);
  const type = Uint8Array.from(placed, (i) => typeIx.get(c.crime_type[i]!) ?? 255);
  const grid = new Points(Float64Array.from(placed, (i) => c.lat[i]!), Float64Array.from(placed, (i) => c.lng[i]!));
  const la = new Map<string, { crimes: number; addresses: number; months: number }>();
  const l = await store.columns('crime_la_all');
  for (let i = 0; i < l.la_code.length; i++) la.set(l.la_code[i]!, { crimes: l.crimes[i]!, addresses: l.addresses[i]!, months: l.months[i]! });
  const h = await store.columns('postcode_homes_all');
  const homes = { grid: new Points(h.lat, h.lng), count: Int32Array.from(h.address_count), la: h.la_code };
  const latestRelease = [...c.release].sort().at(-1) ?? months.at(-1) ?? '';
  return { months, latestRelease, month, type, grid, la, unplacedByLa, homes };
}

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
export interface ListingsSet { listings: Listing[]; grid: Points; byOutcode: Map<string, number[]>; asOf: string | null }

export async function loadListingsSet(store: BuildStore): Promise<ListingsSet | undefined> {
  if (!store.tables.has('listings')) return undefined;
  const rows = await store.rows('listings_all');
  const listings: Listing[] = rows.map((r) => ({
    listing_id: r.listing_id, agent_ref: r.agent_ref, channel: r.channel === 'rent' ? 'rent' : 'sale', status: r.status, uprn: r.uprn,
    address: r.address, postcode: r.postcode, outcode: r.outcode, sector: r.sector, la_code: r.la_code, price: r.price,
    price_qualifier: r.price_qualifier, bedrooms: r.bedrooms, property_type: r.property_type as ListingPropertyType, tenure: r.tenure,
    listed_date: r.listed_date, updated_at: r.updated_at, location: mapPoint(r.lat, r.lng),
  }));
  const byOutcode = new Map<string, number[]>();
  listings.forEach((l, i) => {
    let a = byOutcode.get(l.outcode);
    if (!a) byOutcode.set(l.outcode, (a = []));
    a.push(i);
  });
  const asOf = listings.map((l) => l.updated_at.slice(0, 10)).sort().at(-1) ?? null;
  return { listings, grid: new Points(Float64Array.from(rows, (r) => r.lat), Float64Array.from(rows, (r) => r.lng ?? NaN)), byOutcode, asOf };
}
