import type { GIAS_PHASES, GIAS_STATUSES, OFSTED_RATINGS } from '../../schemas/sources/gias.ts';
import type { ListingPropertyType } from '../../schemas/sources/listings.ts';
import { CRIME_TYPES } from '../../schemas/sources/police-crime.ts';
import type { BuildStore } from '../store/store.ts';
import { Points } from '../../lib/geo/points.ts';
import { numOrNaN as num, numOrNull as intOrNull, textOrNull as strOrNull } from '../store/values.ts';

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
  const c = await store.queryColumns('crime_all');
  const months = [...new Set(c.month!.map(String))].sort() as string[];
  const monthIx = new Map(months.map((m, i) => [m, i]));
  const typeIx = new Map<string, number>(CRIME_TYPES.map((t, i) => [t, i]));
  const placed: number[] = [];
  const unplacedByLa = new Map<string, number>();
  for (let i = 0; i < c.month!.length; i++) {
    if (c.lat![i] === null || c.lng![i] === null) {
      const la = strOrNull(c.la_code![i]);
      if (la) unplacedByLa.set(la, (unplacedByLa.get(la) ?? 0) + 1);
    } else placed.push(i);
  }
  const month = Uint8Array.from(placed, (i) => monthIx.get(String(c.month![i]))!);
  const type = Uint8Array.from(placed, (i) => typeIx.get(String(c.crime_type![i])) ?? 255);
  const grid = new Points(Float64Array.from(placed, (i) => num(c.lat![i])), Float64Array.from(placed, (i) => num(c.lng![i])));
  const la = new Map<string, { crimes: number; addresses: number; months: number }>();
  const l = await store.queryColumns('crime_la_all');
  for (let i = 0; i < l.la_code!.length; i++) la.set(String(l.la_code![i]), { crimes: num(l.crimes![i]), addresses: num(l.addresses![i]), months: num(l.months![i]) });
  const h = await store.queryColumns('postcode_homes_all');
  const homes = {
    grid: new Points(Float64Array.from(h.lat!, num), Float64Array.from(h.lng!, num)),
    count: Int32Array.from(h.address_count!, num),
    la: h.la_code!.map(strOrNull),
  };
  const latestRelease = c.release!.map(String).sort().at(-1) ?? months.at(-1) ?? '';
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
  const rows: Record<string, unknown>[] = await store.query('schools_all');
  const schools = rows.map((r) => ({
    urn: Number(r.urn), name: String(r.name), phase: String(r.phase), type: String(r.type), status: String(r.status),
    low_age: intOrNull(r.low_age), high_age: intOrNull(r.high_age), pupils: intOrNull(r.pupils), capacity: intOrNull(r.capacity),
    ofsted_rating: strOrNull(r.ofsted_rating), ofsted_date: strOrNull(r.ofsted_date), postcode: strOrNull(r.postcode),
  }) as School);
  const asOf = rows.map((r) => strOrNull(r.ofsted_date)).filter((d): d is string => d !== null).sort().at(-1) ?? null;
  return { schools, lat: Float64Array.from(rows, (r) => num(r.lat)), lng: Float64Array.from(rows, (r) => num(r.lng)), asOf };
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
  listing_id: string; agent_ref: string; channel: 'sale' | 'rent'; status: string; uprn: string | null; address: string; postcode: string;
  outcode: string; sector: string; la_code: string | null; price: number; price_qualifier: string | null; bedrooms: number;
  property_type: ListingPropertyType; tenure: string | null; listed_date: string | null; updated_at: string;
  /** Where the console's map draws it. */
  location: MapPoint;
}
export interface ListingsSet { listings: Listing[]; grid: Points; byOutcode: Map<string, number[]>; asOf: string | null }

export async function loadListingsSet(store: BuildStore): Promise<ListingsSet | undefined> {
  if (!store.tables.has('listings')) return undefined;
  const rows: Record<string, unknown>[] = await store.query('listings_all');
  const listings: Listing[] = rows.map((r) => ({
    listing_id: String(r.listing_id), agent_ref: String(r.agent_ref), channel: r.channel === 'rent' ? 'rent' : 'sale', status: String(r.status),
    uprn: strOrNull(r.uprn), address: String(r.address), postcode: String(r.postcode), outcode: String(r.outcode), sector: String(r.sector),
    la_code: strOrNull(r.la_code), price: Number(r.price), price_qualifier: strOrNull(r.price_qualifier), bedrooms: Number(r.bedrooms),
    property_type: String(r.property_type) as ListingPropertyType, tenure: strOrNull(r.tenure), listed_date: strOrNull(r.listed_date), updated_at: String(r.updated_at),
    location: mapPoint(r.lat, r.lng),
  }));
  const byOutcode = new Map<string, number[]>();
  listings.forEach((l, i) => {
    let a = byOutcode.get(l.outcode);
    if (!a) byOutcode.set(l.outcode, (a = []));
    a.push(i);
  });
  const asOf = listings.map((l) => l.updated_at.slice(0, 10)).sort().at(-1) ?? null;
  return { listings, grid: new Points(Float64Array.from(rows, (r) => num(r.lat)), Float64Array.from(rows, (r) => num(r.lng))), byOutcode, asOf };
}
