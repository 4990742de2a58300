import { Points } from '../../lib/geo/points.ts';
import { gradeBenchmark, type GradeBenchmark } from '../domain/str/market-grade.ts';
import {
  AVAIL, BOOKED, HISTORY_MONTHS, LIVE, LISTING_TYPE_CODES, RATING_FIELDS, REV, TIER_NAMES, type MarketListings,
} from '../domain/str/market-listings.ts';
import type { Columns } from '../store/queries.ts';
import type { StoreReads } from '../store/store.ts';

/**
 * A set of `n` listings with every column allocated and zeroed (no month read: `endMonth` −1),
 * for a loader to fill: the in-heap set's, or the files' selection (market-files.ts).
 */
export function emptyMarketListings(n: number, amenityKeys: string[]): MarketListings {
  return {
    n,
    lat: new Float64Array(n), lng: new Float64Array(n),
    postcode: new Array(n), sector: new Array(n), outcode: new Array(n), country: new Array(n),
    type: new Uint8Array(n), kind: new Uint8Array(n), beds: new Int16Array(n), tier: new Int8Array(n),
    ratings: new Float32Array(n * 7),
    active: new Uint8Array(n), blocked: new Uint8Array(n), new30: new Uint8Array(n),
    bookedAhead30: new Float32Array(n), openNext30: new Float32Array(n), stay: new Float32Array(n),
    amenityKeys, amenities: new Uint8Array(n * amenityKeys.length),
    endMonth: new Int32Array(n).fill(-1),
    months: new Float32Array(n * HISTORY_MONTHS * 4),
  };
}

/**
 * `str_market_listings` and `str_market_months` (column-wise query results) as the set the
 * market analysis aggregates. A listing's months are right-aligned: its latest month is slot 23.
 */
export function marketListingsFromColumns(l: Columns<'str_market_listings'>, m: Columns<'str_market_months'>): MarketListings {
  const n = l.id.length;
  const amenityKeys = Object.keys(l).filter((k) => k.startsWith('has_')).map((k) => k.slice(4)).sort();
  const K = amenityKeys.length;
  const M = HISTORY_MONTHS;
  const s = emptyMarketListings(n, amenityKeys);
  const { lat, lng, postcode, sector, outcode, country, listing_type: ltype, property_type: ptype, bedrooms: beds, price_tier: tier } = l;
  const { active, blocked, new_30d: new30, booked_ahead_30d: ahead, available_next_30d: open, stay_nights: stay } = l;
  const ratings = RATING_FIELDS.map((f) => l[`rating_${f}`]);
  const amen = amenityKeys.map((k) => l[`has_${k}`]);
  for (let i = 0; i < n; i++) {
    s.lat[i] = lat[i]!;
    s.lng[i] = lng[i]!;
    s.postcode[i] = postcode[i]!;
    s.sector[i] = sector[i]!;
    s.outcode[i] = outcode[i]!;
    s.country[i] = country[i]!;
    const t = LISTING_TYPE_CODES.indexOf(ltype[i] as (typeof LISTING_TYPE_CODES)[number]);
    s.type[i] = t < 0 ? 255 : t;
    s.kind[i] = ptype[i] === 'house' ? 1 : ptype[i] === 'apartment' ? 2 : 0;
    s.beds[i] = beds[i] ?? -1;
    s.tier[i] = TIER_NAMES.indexOf(tier[i] as (typeof TIER_NAMES)[number]);
    for (let k = 0; k < 7; k++) s.ratings[i * 7 + k] = ratings[k]![i] ?? NaN;
    s.active[i] = active[i] ? 1 : 0;
    s.blocked[i] = blocked[i] ? 1 : 0;
    s.new30[i] = new30[i] ? 1 : 0;
    s.bookedAhead30[i] = ahead[i] || 0;
    s.openNext30[i] = open[i] || 0;
    s.stay[i] = stay[i] || 0;
    for (let a = 0; a < K; a++) s.amenities[i * K + a] = amen[a]![i] === true ? 1 : 0;
  }
  // Months arrive sorted by listing row and month: a listing's last month comes last.
  const { rn, mi, live, available: av, booked: bk, revenue: rv } = m;
  for (let r = rn.length - 1; r >= 0; r--) {
    const i = rn[r]!;
    if (!(i >= 0 && i < n)) continue;
    const month = mi[r]!;
    if (s.endMonth[i]! < 0) s.endMonth[i] = month;
    const j = M - 1 - (s.endMonth[i]! - month);
    if (j < 0) continue;
    const o = (i * M + j) * 4;
    s.months[o + LIVE] = live[r] ? 1 : 0;
    s.months[o + AVAIL] = av[r] || 0;
    s.months[o + BOOKED] = bk[r] || 0;
    s.months[o + REV] = rv[r] || 0;
  }
  return s;
}

/**
 * Adds `str_market_prior` (the 12 months before each listing's history) to the set: slot k of
 * listing i is month endMonth − 35 + k.
 */
export function addPriorYear(s: MarketListings, p: Columns<'str_market_prior'>): void {
  const M = HISTORY_MONTHS;
  const prior = new Float32Array(s.n * 24);
  s.prior = prior;
  const { rn, mi, live, revenue: rv } = p;
  for (let r = 0; r < rn.length; r++) {
    const i = rn[r]!;
    if (!(i >= 0 && i < s.n) || s.endMonth[i]! < 0) continue;
    const k = mi[r]! - (s.endMonth[i]! - M - 11);
    if (k < 0 || k >= 12) continue;
    prior[i * 24 + k * 2] = live[r] ? 1 : 0;
    prior[i * 24 + k * 2 + 1] = rv[r] || 0;
  }
}

/**
 * The market set as GET /str/market and /str/listings use it, in the heap (StrMarketSet) or
 * read where it lies (StrMarketFiles): a location's listings as row numbers of the set
 * (ascending), then `select` gives those rows as a set `s` and their indices `at` in it.
 */
export interface StrMarket {
  readonly size: number;
  sector(code: string): readonly number[];
  outcode(code: string): readonly number[];
  within(lat: number, lng: number, radiusM: number): number[];
  inPolygon(ring: readonly (readonly [number, number])[]): number[];
  unplacedCount(): number;
  /** The listings' countries (null for a listing without one), for the source's coverage. */
  countries(): Iterable<string | null>;
  select(rns: readonly number[]): { s: MarketListings; at: number[] };
  /** Per-listing last-12-month sums of `s` when the caller may cache them per build (the whole set in the heap). */
  ltm(s: MarketListings, cached: (s: MarketListings) => Float64Array): Float64Array | undefined;
  bench(): GradeBenchmark | Promise<GradeBenchmark>;
  /** Every listing's latitude by row number (for checking another query's alignment). */
  lats(): Float64Array;
  close?(): void;
}

/**
 * One build's listings for the market analysis: the column-wise set, a points index
 * (lib/geo/points.ts) over their points, the listings of each sector and outcode, and the grade
 * benchmark, all made once when the build is loaded.
 */
export class StrMarketSet implements StrMarket {
  readonly points: Points;
  private readonly benchmark: GradeBenchmark;
  private readonly bySector = new Map<string, number[]>();
  private readonly byOutcode = new Map<string, number[]>();

  constructor(readonly listings: MarketListings) {
    const s = listings;
    this.points = new Points(s.lat, s.lng);
    for (let i = 0; i < s.n; i++) {
      const sec = s.sector[i];
      const out = s.outcode[i];
      if (sec) (this.bySector.get(sec) ?? this.bySector.set(sec, []).get(sec)!).push(i);
      if (out) (this.byOutcode.get(out) ?? this.byOutcode.set(out, []).get(out)!).push(i);
    }
    this.benchmark = gradeBenchmark(s);
  }

  get size(): number {
    return this.listings.n;
  }

  bench(): GradeBenchmark {
    return this.benchmark;
  }

  select(rns: readonly number[]): { s: MarketListings; at: number[] } {
    return { s: this.listings, at: [...rns] };
  }

  ltm(s: MarketListings, cached: (s: MarketListings) => Float64Array): Float64Array {
    return cached(s);
  }

  lats(): Float64Array {
    return this.listings.lat;
  }

  countries(): Iterable<string | null> {
    return this.listings.country;
  }

  static async load(store: StoreReads): Promise<StrMarketSet> {
    const listings = await store.columns('str_market_listings');
    const months = await store.columns('str_market_months');
    const s = marketListingsFromColumns(listings, months);
    // A build published before str_listing_prior_months: the first year has no year-on-year change.
    const prior = await store.columns('str_market_prior').catch(() => undefined);
    if (prior) addPriorYear(s, prior);
    return new StrMarketSet(s);
  }

  sector(code: string): readonly number[] {
    return this.bySector.get(code) ?? [];
  }

  outcode(code: string): readonly number[] {
    return this.byOutcode.get(code) ?? [];
  }

  /** Listings of the build with no postcode point within 1 km (so in no sector or outcode). */
  unplacedCount(): number {
    let n = 0;
    for (let i = 0; i < this.listings.n; i++) if (this.listings.postcode[i] === null) n++;
    return n;
  }

  /** Listings within `radiusM` metres (great-circle) of the point. */
  within(lat: number, lng: number, radiusM: number): number[] {
    return this.points.withinIds(lat, lng, radiusM);
  }

  /** Listings inside the polygon (`[lng, lat]` vertices, closed implicitly; even-odd rule). */
  inPolygon(ring: readonly (readonly [number, number])[]): number[] {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [x, y] of ring) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const s = this.listings;
    return this.points.inBox(minX, minY, maxX, maxY).filter((i) => pointInRing(s.lng[i]!, s.lat[i]!, ring)).sort((a, b) => a - b);
  }
}

export function pointInRing(x: number, y: number, ring: readonly (readonly [number, number])[]): boolean {
  let inside = false;
  for (let a = 0, b = ring.length - 1; a < ring.length; b = a++) {
    const [xa, ya] = ring[a]!;
    const [xb, yb] = ring[b]!;
    if ((ya > y) !== (yb > y) && x < ((xb - xa) * (y - ya)) / (yb - ya) + xa) inside = !inside;
  }
  return inside;
}
