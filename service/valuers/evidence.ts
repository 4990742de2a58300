import { bedroomGroup, type Let, type RentArea } from '../domain/rents.ts';
import { RENTAL_MIN_COMPARABLES, RENTAL_RADII, type RentComparable } from '../domain/valuation-models/rental.ts';
import { Points } from '../../lib/geo/points.ts';
import { letDay, rentLetsSummary } from '../../lib/valuation/rent-growth.ts';
import type { BuildStore } from '../store/store.ts';

/**
 * The build's whole-property lets and floor-area-matched sales, searched by radius (and the
 * lets by sector and outcode): a request aggregates a few hundred or thousand rows in
 * JavaScript instead of scanning Parquet (docs/valuation-gdv-rents.md). Read where they lie
 * from the build's files (evidence-files.ts) or, for a build published before them, held in
 * the heap here: the same answers either way (test/service/evidence-files.test.ts).
 */

/** One whole-property let: house (0) or flat (1); its date and that as days since 1970; `uprn` 0 when the evidence named none, `floorAreaSqft` NaN when unknown. */
export interface LetRow {
  rent: number;
  bedrooms: number;
  flat: number;
  date: string;
  day: number;
  uprn: number;
  floorAreaSqft: number;
}

export interface RentLetsIndex {
  /** The latest let date of the build: the date rental valuations are made as of. */
  readonly asOf: string;
  /** Log rent growth per month measured on these lets (lib/valuation/rent-growth.ts). */
  readonly growthPerMonth: number;
  /** Every let within `radiusM` (great-circle metres) of (lat, lng), with its distance, in no promised order. */
  within(lat: number, lng: number, radiusM: number, visit: (l: LetRow, d: number) => void): void;
  /** Every let of a sector or an outcode, in no promised order. */
  inArea(level: 'sector' | 'outcode', code: string, visit: (l: LetRow) => void): void;
}

/** One sale with a floor area: £ per sq ft, house (0) or flat (1), new build (1) or not. */
export interface SqftSaleRow {
  gbpSqft: number;
  flat: number;
  newBuild: number;
}

export interface SqftSalesIndex {
  /** Every sale within `radiusM` (great-circle metres) of (lat, lng), with its distance, in no promised order. */
  within(lat: number, lng: number, radiusM: number, visit: (s: SqftSaleRow, d: number) => void): void;
}

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

/** The lets held in the heap (typed arrays, an R-tree, index lists by sector and outcode). */
class HeapRentLets implements RentLetsIndex {
  constructor(
    private readonly rows: readonly LetRow[],
    private readonly grid: Points,
    private readonly bySector: Map<string, Int32Array>,
    private readonly byOutcode: Map<string, Int32Array>,
    readonly asOf: string,
    readonly growthPerMonth: number,
  ) {}

  within(lat: number, lng: number, radiusM: number, visit: (l: LetRow, d: number) => void): void {
    this.grid.within(lat, lng, radiusM, (i, d) => visit(this.rows[i]!, d));
  }

  inArea(level: 'sector' | 'outcode', code: string, visit: (l: LetRow) => void): void {
    (level === 'sector' ? this.bySector : this.byOutcode).get(code)?.forEach((i) => visit(this.rows[i]!));
  }
}

export async function loadRentLets(store: BuildStore): Promise<RentLetsIndex> {
  const rows = await store.rows('rents_lets_all');
  const lets: LetRow[] = rows.map((r) => ({
    rent: r.rent_pcm, bedrooms: Math.min(255, r.bedrooms), flat: r.property_type === 'flat' ? 1 : 0, date: r.let_date, day: letDay(r.let_date),
    uprn: r.uprn ?? 0, floorAreaSqft: r.floor_area_sqft ?? NaN,
  }));
  const { asOf, growthPerMonth } = rentLetsSummary(rows);
  const grid = new Points(Float64Array.from(rows, (r) => r.lat), Float64Array.from(rows, (r) => r.lng));
  return new HeapRentLets(lets, grid, indexBy(rows.map((r) => r.sector)), indexBy(rows.map((r) => r.outcode)), asOf, growthPerMonth);
}

class HeapSqftSales implements SqftSalesIndex {
  constructor(private readonly rows: readonly SqftSaleRow[], private readonly grid: Points) {}

  within(lat: number, lng: number, radiusM: number, visit: (s: SqftSaleRow, d: number) => void): void {
    this.grid.within(lat, lng, radiusM, (i, d) => visit(this.rows[i]!, d));
  }
}

export async function loadSqftSales(store: BuildStore): Promise<SqftSalesIndex> {
  const rows = await store.rows('gdv_sqft_sales_all');
  const sales = rows.map((r) => ({ gbpSqft: r.gbp_sqft, flat: r.kind === 'flat' ? 1 : 0, newBuild: r.new_build === true ? 1 : 0 }));
  return new HeapSqftSales(sales, new Points(Float64Array.from(rows, (r) => r.lat), Float64Array.from(rows, (r) => r.lng)));
}

/** New-build premium by kind, measured once per build on its sqft_sales (gdv_new_build_premium.sql). */
export async function loadNewBuildPremiums(store: BuildStore): Promise<Map<string, number>> {
  const m = new Map<string, number>();
  for (const r of await store.rows('gdv_new_build_premium')) if (r.premium !== null && r.outcodes > 0) m.set(r.kind, r.premium);
  return m;
}

/**
 * The lets of `area` (a sector, an outcode or a radius) of one kind (house or flat) and bedroom
 * group, each optional. In no promised order: what is made of them (summariseLets) sorts.
 */
export function letsIn(idx: RentLetsIndex, area: RentArea, kind: 'house' | 'flat' | null, group: number | null): Let[] {
  const lets: Let[] = [];
  const take = (l: LetRow) => {
    if (kind !== null && l.flat !== (kind === 'flat' ? 1 : 0)) return;
    if (group !== null && bedroomGroup(l.bedrooms) !== group) return;
    lets.push({ bedrooms: l.bedrooms, rent_pcm: l.rent, date: l.date });
  };
  if (area.level === 'radius') idx.within(area.lat, area.lng, area.radius_m, take);
  else idx.inArea(area.level, area.code, take);
  return lets;
}

/**
 * The lets within `radiusM` (the widest rental radius unless given) of a home at (lat, lng) as
 * the rental valuation's comparables, of bedroom group `group` only when given: distance, age in
 * months at the lets' as-of date, and whether the let was of the home `uprn` itself. Sorted by
 * their values (distance first): the valuation sums over them in order, and an R-tree and a file
 * of cells find them in different orders.
 */
export function rentComparablesNear(idx: RentLetsIndex, lat: number, lng: number, uprn: number, radiusM: number = RENTAL_RADII[RENTAL_RADII.length - 1]!, group: number | null = null): RentComparable[] {
  const asOfDay = letDay(idx.asOf);
  const lets: RentComparable[] = [];
  idx.within(lat, lng, radiusM, (l, d) => {
    if (group !== null && bedroomGroup(l.bedrooms) !== group) return;
    lets.push({
      rent_pcm: l.rent, bedrooms: l.bedrooms, flat: l.flat === 1, distance_m: d, age_months: (asOfDay - l.day) / 30.44,
      same_home: l.uprn === uprn, floor_area_sqft: Number.isNaN(l.floorAreaSqft) ? null : l.floorAreaSqft,
    });
  });
  return lets.sort(byValues);
}

/**
 * The lets a rental valuation of a home with `bedrooms` uses, found one radius at a time: those
 * of its bedroom group within the first of RENTAL_RADII holding RENTAL_MIN_COMPARABLES of them,
 * else within the last. valueRental answers over them exactly as over every let within the last
 * radius (it keeps the group's and tries the radii in the same order, and the lets within a
 * radius are the same whichever radius was searched); but a home in a city reads the lets of
 * its 220 m, a 35th of the area of 1,300 m, and makes objects of one bedroom group's alone.
 */
export function rentalLetsNear(idx: RentLetsIndex, lat: number, lng: number, uprn: number, bedrooms: number): RentComparable[] {
  const group = bedroomGroup(bedrooms);
  const last = RENTAL_RADII.length - 1;
  for (let k = 0; ; k++) {
    const lets = rentComparablesNear(idx, lat, lng, uprn, RENTAL_RADII[k]!, group);
    if (k === last || lets.length >= RENTAL_MIN_COMPARABLES) return lets;
  }
}

/** A total order of a comparable's values (equal ones are interchangeable in any sum). */
function byValues(a: RentComparable, b: RentComparable): number {
  return a.distance_m - b.distance_m || a.rent_pcm - b.rent_pcm || a.bedrooms - b.bedrooms || a.age_months - b.age_months
    || Number(a.flat) - Number(b.flat) || Number(a.same_home) - Number(b.same_home) || (a.floor_area_sqft ?? -1) - (b.floor_area_sqft ?? -1);
}
