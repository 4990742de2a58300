import Flatbush from 'flatbush';
import {
  HISTORY_MONTHS, LISTING_TYPE_CODES, RATING_FIELDS, TIER_NAMES, gradeBenchmark, monthIndex,
  type GradeBenchmark, type MarketListings,
} from '../domain/str/market.ts';
import { PerBuild } from '../store/per-build.ts';
import { buildStores } from '../store/stores.ts';
import { haversineM, type RunNamed } from './listing-index.ts';

const EARTH_M = 6_371_008.8;
const RAD = Math.PI / 180;

const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));
const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** `str_market_listings` rows as the column-wise set the market analysis aggregates. */
export function marketListingsFromRows(rows: readonly Record<string, unknown>[]): MarketListings {
  const n = rows.length;
  const amenityKeys = n > 0 ? Object.keys(rows[0]!).filter((k) => k.startsWith('has_')).map((k) => k.slice(4)).sort() : [];
  const K = amenityKeys.length;
  const M = HISTORY_MONTHS;
  const s: MarketListings = {
    n,
    lat: new Float64Array(n), lng: new Float64Array(n),
    postcode: new Array(n), sector: new Array(n), outcode: new Array(n), country: new Array(n),
    type: new Uint8Array(n), kind: new Uint8Array(n), beds: new Int16Array(n), tier: new Int8Array(n),
    ratings: new Float32Array(n * 7),
    active: new Uint8Array(n), blocked: new Uint8Array(n), new30: new Uint8Array(n),
    bookedAhead30: new Float32Array(n), openNext30: new Float32Array(n), stay: new Float32Array(n),
    amenityKeys, amenities: new Uint8Array(n * K),
    endMonth: new Int32Array(n),
    live: new Uint8Array(n * M), available: new Float32Array(n * M), booked: new Float32Array(n * M), revenue: new Float32Array(n * M),
  };
  rows.forEach((r, i) => {
    s.lat[i] = num(r.lat);
    s.lng[i] = num(r.lng);
    s.postcode[i] = text(r.postcode);
    s.sector[i] = text(r.sector);
    s.outcode[i] = text(r.outcode);
    s.country[i] = text(r.country);
    const t = LISTING_TYPE_CODES.indexOf(r.listing_type as (typeof LISTING_TYPE_CODES)[number]);
    s.type[i] = t < 0 ? 255 : t;
    s.kind[i] = r.property_type === 'house' ? 1 : r.property_type === 'apartment' ? 2 : 0;
    s.beds[i] = r.bedrooms === null || r.bedrooms === undefined ? -1 : Number(r.bedrooms);
    s.tier[i] = TIER_NAMES.indexOf(r.price_tier as (typeof TIER_NAMES)[number]);
    RATING_FIELDS.forEach((f, k) => (s.ratings[i * 7 + k] = num(r[`rating_${f}`])));
    s.active[i] = r.active === true ? 1 : 0;
    s.blocked[i] = r.blocked === true ? 1 : 0;
    s.new30[i] = r.new_30d === true ? 1 : 0;
    s.bookedAhead30[i] = num(r.booked_ahead_30d) || 0;
    s.openNext30[i] = num(r.available_next_30d) || 0;
    s.stay[i] = num(r.stay_nights) || 0;
    amenityKeys.forEach((k, a) => (s.amenities[i * K + a] = r[`has_${k}`] === true ? 1 : 0));
    s.endMonth[i] = monthIndex(String(r.last_month));
    const live = r.live as unknown[];
    const av = r.available as unknown[];
    const bk = r.booked as unknown[];
    const rv = r.revenue as unknown[];
    // Right-align: a listing with fewer than 24 rows keeps its last month in slot 23.
    const off = M - live.length;
    for (let j = 0; j < live.length && j + off >= 0; j++) {
      s.live[i * M + off + j] = live[j] === true ? 1 : 0;
      s.available[i * M + off + j] = num(av[j]) || 0;
      s.booked[i * M + off + j] = num(bk[j]) || 0;
      s.revenue[i * M + off + j] = num(rv[j]) || 0;
    }
  });
  return s;
}

/**
 * One build's listings for the market analysis: the column-wise set, a packed R-tree
 * (flatbush) over their points, the listings of each sector and outcode, and the grade
 * benchmark, all made once when the build is loaded.
 */
export class StrMarketSet {
  readonly tree: Flatbush | undefined;
  readonly bench: GradeBenchmark;
  private readonly bySector = new Map<string, number[]>();
  private readonly byOutcode = new Map<string, number[]>();

  constructor(readonly listings: MarketListings) {
    const s = listings;
    if (s.n > 0) {
      const tree = new Flatbush(s.n);
      for (let i = 0; i < s.n; i++) tree.add(s.lng[i]!, s.lat[i]!, s.lng[i]!, s.lat[i]!);
      tree.finish();
      this.tree = tree;
    }
    for (let i = 0; i < s.n; i++) {
      const sec = s.sector[i];
      const out = s.outcode[i];
      if (sec) (this.bySector.get(sec) ?? this.bySector.set(sec, []).get(sec)!).push(i);
      if (out) (this.byOutcode.get(out) ?? this.byOutcode.set(out, []).get(out)!).push(i);
    }
    this.bench = gradeBenchmark(s);
  }

  static async load(run: RunNamed): Promise<StrMarketSet> {
    return new StrMarketSet(marketListingsFromRows(await run('str_market_listings')));
  }

  sector(code: string): readonly number[] {
    return this.bySector.get(code) ?? [];
  }

  outcode(code: string): readonly number[] {
    return this.byOutcode.get(code) ?? [];
  }

  /** Listings within `radiusM` metres (great-circle) of the point. */
  within(lat: number, lng: number, radiusM: number): number[] {
    if (!this.tree) return [];
    const dLat = radiusM / EARTH_M / RAD;
    const dLng = dLat / Math.max(0.01, Math.cos(lat * RAD));
    const s = this.listings;
    return this.tree.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat).filter((i) => haversineM(lat, lng, s.lat[i]!, s.lng[i]!) <= radiusM);
  }

  /** Listings inside the polygon (`[lng, lat]` vertices, closed implicitly; even-odd rule). */
  inPolygon(ring: readonly (readonly [number, number])[]): number[] {
    if (!this.tree) return [];
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [x, y] of ring) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const s = this.listings;
    return this.tree.search(minX, minY, maxX, maxY).filter((i) => pointInRing(s.lng[i]!, s.lat[i]!, ring));
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

/** The process's market set of the build being served, loaded off the request path and swapped per build. */
export const strMarketSets = new PerBuild<StrMarketSet>(async (b) => {
  const store = await buildStores.prepare(b);
  return StrMarketSet.load((name) => store.query(name));
});
