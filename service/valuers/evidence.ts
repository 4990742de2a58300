import { bedroomGroup, type Let, type RentArea } from '../domain/rents.ts';
import { RENTAL_RADII, rentGrowthPerDay, type RentComparable } from '../domain/valuation-models/rental.ts';
import { Points } from '../../lib/geo/points.ts';
import type { BuildStore } from '../store/store.ts';

/**
 * The build's lets and floor-area-matched sales held in memory (typed arrays), with a points
 * index for radius queries and index lists by sector and outcode: a request aggregates a few
 * hundred or thousand rows in JavaScript instead of scanning Parquet (docs/valuation-gdv-rents.md).
 */

function indexBy(keys: readonly (string | null)[]): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  keys.forEach((k, i) => {
    if (k === null) return;
    let l = lists.get(k);
    if (!l) lists.set(k, (l = []));
    l.push(i);
  });
  return new Map([...lists].map(([k, l]) => [k, Int32Array.from(l)]));
}

/** Whole-property lets: rent, bedrooms, house (0) or flat (1), date; by sector, outcode and position. */
export interface RentLetsIndex {
  n: number;
  rent: Float64Array;
  bedrooms: Uint8Array;
  flat: Uint8Array;
  date: string[];
  /** The let date as days since 1970-01-01 (for recency weights). */
  day: Int32Array;
  /** The latest let date of the build: the date rental valuations are made as of. */
  asOf: string;
  /** UPRN of the let home (0 when the evidence named none) and its floor area (NaN when unknown). */
  uprn: Float64Array;
  floorAreaSqft: Float64Array;
  /** Log rent growth per month measured on these lets (rentGrowthPerDay × 30.44). */
  growthPerMonth: number;
  bySector: Map<string, Int32Array>;
  byOutcode: Map<string, Int32Array>;
  grid: Points;
}

/** Sales with floor areas: £ per sq ft, house (0) or flat (1), new build (1) or not; by position. */
export interface SqftSalesIndex {
  n: number;
  gbpSqft: Float64Array;
  flat: Uint8Array;
  newBuild: Uint8Array;
  grid: Points;
}

export async function loadRentLets(store: BuildStore): Promise<RentLetsIndex> {
  const rows = await store.rows('rents_lets_all');
  const n = rows.length;
  const lat = new Float64Array(n), lng = new Float64Array(n), rent = new Float64Array(n);
  const bedrooms = new Uint8Array(n), flat = new Uint8Array(n);
  const date: string[] = new Array(n);
  const day = new Int32Array(n);
  const uprn = new Float64Array(n), floorAreaSqft = new Float64Array(n);
  let asOf = '';
  const sectors: (string | null)[] = new Array(n), outcodes: (string | null)[] = new Array(n);
  rows.forEach((r, i) => {
    lat[i] = r.lat; lng[i] = r.lng; rent[i] = r.rent_pcm;
    bedrooms[i] = Math.min(255, r.bedrooms); flat[i] = r.property_type === 'flat' ? 1 : 0;
    date[i] = r.let_date; day[i] = Math.round(Date.parse(date[i]!) / 86_400_000); if (date[i]! > asOf) asOf = date[i]!;
    sectors[i] = r.sector; outcodes[i] = r.outcode;
    uprn[i] = r.uprn ?? 0; floorAreaSqft[i] = r.floor_area_sqft ?? NaN;
  });
  const growthPerMonth = 30.44 * rentGrowthPerDay(Array.from(rent, (rent_pcm, i) => ({ group: `${sectors[i]}|${Math.min(4, bedrooms[i]!)}|${flat[i]}`, rent_pcm, day: day[i]! })));
  return { n, rent, bedrooms, flat, date, day, asOf, uprn, floorAreaSqft, growthPerMonth, bySector: indexBy(sectors), byOutcode: indexBy(outcodes), grid: new Points(lat, lng) };
}

export async function loadSqftSales(store: BuildStore): Promise<SqftSalesIndex> {
  const rows = await store.rows('gdv_sqft_sales_all');
  const n = rows.length;
  const lat = new Float64Array(n), lng = new Float64Array(n), gbpSqft = new Float64Array(n);
  const flat = new Uint8Array(n), newBuild = new Uint8Array(n);
  rows.forEach((r, i) => {
    lat[i] = r.lat; lng[i] = r.lng; gbpSqft[i] = r.gbp_sqft;
    flat[i] = r.kind === 'flat' ? 1 : 0; newBuild[i] = r.new_build === true ? 1 : 0;
  });
  return { n, gbpSqft, flat, newBuild, grid: new Points(lat, lng) };
}

/** New-build premium by kind, measured once per build on its sqft_sales (gdv_new_build_premium.sql). */
export async function loadNewBuildPremiums(store: BuildStore): Promise<Map<string, number>> {
  const m = new Map<string, number>();
  for (const r of await store.rows('gdv_new_build_premium')) if (r.premium !== null && r.outcodes > 0) m.set(r.kind, r.premium);
  return m;
}

/** The lets of `area` (a sector, an outcode or a radius) of one kind (house or flat) and bedroom group, each optional. */
export function letsIn(idx: RentLetsIndex, area: RentArea, kind: 'house' | 'flat' | null, group: number | null): Let[] {
  const lets: Let[] = [];
  const take = (i: number) => {
    if (kind !== null && idx.flat[i] !== (kind === 'flat' ? 1 : 0)) return;
    if (group !== null && bedroomGroup(idx.bedrooms[i]!) !== group) return;
    lets.push({ bedrooms: idx.bedrooms[i]!, rent_pcm: idx.rent[i]!, date: idx.date[i]! });
  };
  if (area.level === 'radius') idx.grid.within(area.lat, area.lng, area.radius_m, take);
  else (area.level === 'sector' ? idx.bySector : idx.byOutcode).get(area.code)?.forEach(take);
  return lets;
}

/**
 * The lets within the widest rental radius of a home at (lat, lng) as the rental valuation's
 * comparables: distance, age in months at the lets' as-of date, and whether the let was of
 * the home `uprn` itself.
 */
export function rentComparablesNear(idx: RentLetsIndex, lat: number, lng: number, uprn: number): RentComparable[] {
  const asOfDay = Math.round(Date.parse(idx.asOf) / 86_400_000);
  const lets: RentComparable[] = [];
  idx.grid.within(lat, lng, RENTAL_RADII[RENTAL_RADII.length - 1]!, (i, d) => {
    const area = idx.floorAreaSqft[i]!;
    lets.push({
      rent_pcm: idx.rent[i]!, bedrooms: idx.bedrooms[i]!, flat: idx.flat[i] === 1, distance_m: d, age_months: (asOfDay - idx.day[i]!) / 30.44,
      same_home: idx.uprn[i] === uprn, floor_area_sqft: Number.isNaN(area) ? null : area,
    });
  });
  return lets;
}
