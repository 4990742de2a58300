import Flatbush from 'flatbush';
import { FLAT_SEASONALITY, proximity, type PropertyKind, type Seasonality, type StrComparable } from '../domain/str/estimate.ts';
import { PerBuild } from '../store/per-build.ts';
import { buildStores } from '../store/stores.ts';

/** Runs a named `service/store/sql/<name>.sql` statement (a BuildStore, or a plain connection in tests and benches). */
export type RunNamed = (name: string) => Promise<Record<string, unknown>[]>;

const EARTH_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v));

/**
 * The comparable listings of one build in memory: columns as typed arrays and a packed
 * R-tree (flatbush) over their points, so a 2 km radius query is a tree search and a
 * distance check per candidate, with no SQL on the request path.
 */
export class StrListingIndex {
  readonly size: number;
  private readonly tree: Flatbush | undefined;
  private readonly ids: string[];
  private readonly lat: Float64Array;
  private readonly lng: Float64Array;
  private readonly beds: Float32Array;
  private readonly baths: Float32Array;
  private readonly kind: Uint8Array; // 0 unknown, 1 house, 2 apartment
  private readonly baseAdr: Float64Array;
  private readonly occ: Float64Array;
  private readonly blocked: Float64Array;
  private readonly rev: Float64Array;
  private readonly adr: Float64Array;
  private readonly la: (string | null)[];
  private readonly sector: (string | null)[];
  private readonly seasons: Map<string, Seasonality>;

  constructor(rows: readonly Record<string, unknown>[], seasonRows: readonly Record<string, unknown>[]) {
    const n = rows.length;
    this.size = n;
    this.ids = new Array<string>(n);
    this.lat = new Float64Array(n);
    this.lng = new Float64Array(n);
    this.beds = new Float32Array(n);
    this.baths = new Float32Array(n);
    this.kind = new Uint8Array(n);
    this.baseAdr = new Float64Array(n);
    this.occ = new Float64Array(n);
    this.blocked = new Float64Array(n);
    this.rev = new Float64Array(n);
    this.adr = new Float64Array(n);
    this.la = new Array<string | null>(n);
    this.sector = new Array<string | null>(n);
    rows.forEach((r, i) => {
      this.ids[i] = String(r.id);
      this.lat[i] = num(r.lat);
      this.lng[i] = num(r.lng);
      this.beds[i] = num(r.bedrooms);
      this.baths[i] = num(r.bathrooms);
      this.kind[i] = r.property_type === 'house' ? 1 : r.property_type === 'apartment' ? 2 : 0;
      this.baseAdr[i] = num(r.base_adr);
      this.occ[i] = num(r.occupancy);
      this.blocked[i] = num(r.blocked_share);
      this.rev[i] = num(r.revenue_ltm);
      this.adr[i] = num(r.adr_ltm);
      this.la[i] = r.la_code === null || r.la_code === undefined ? null : String(r.la_code);
      this.sector[i] = r.sector === null || r.sector === undefined ? null : String(r.sector);
    });
    if (n > 0) {
      const tree = new Flatbush(n);
      for (let i = 0; i < n; i++) tree.add(this.lng[i]!, this.lat[i]!, this.lng[i]!, this.lat[i]!);
      tree.finish();
      this.tree = tree;
    }
    this.seasons = new Map();
    const byLa = new Map<string, { demand: number[]; adr: number[] }>();
    for (const r of seasonRows) {
      const la = String(r.la_code);
      const m = Number(r.month_of_year) - 1;
      if (!(m >= 0 && m < 12)) continue;
      let s = byLa.get(la);
      if (!s) byLa.set(la, (s = { demand: Array(12).fill(1), adr: Array(12).fill(1) }));
      s.demand[m] = num(r.demand_index) || 1;
      s.adr[m] = num(r.adr_index) || 1;
    }
    for (const [la, s] of byLa) this.seasons.set(la, s);
  }

  static async load(run: RunNamed): Promise<StrListingIndex> {
    const [rows, season] = await Promise.all([run('str_estimate_listings'), run('str_seasonality_all')]);
    return new StrListingIndex(rows, season);
  }

  /**
   * Listings within `radiusM` of the point (great-circle distance), optionally leaving one
   * listing out (leave-one-out accuracy). Returns the comparables and their row numbers.
   */
  near(lat: number, lng: number, radiusM: number, excludeId?: string): { comps: StrComparable[]; rows: number[] } {
    if (!this.tree) return { comps: [], rows: [] };
    const dLat = (radiusM / EARTH_M) / RAD;
    const dLng = dLat / Math.max(0.01, Math.cos(lat * RAD));
    const hits = this.tree.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat);
    const comps: StrComparable[] = [];
    const rows: number[] = [];
    for (const i of hits) {
      const d = haversineM(lat, lng, this.lat[i]!, this.lng[i]!);
      if (d > radiusM) continue;
      const id = this.ids[i]!;
      if (id === excludeId) continue;
      const k = this.kind[i]!;
      const baths = this.baths[i]!;
      comps.push({
        id,
        distance_m: d,
        bedrooms: this.beds[i]!,
        bathrooms: Number.isNaN(baths) ? null : baths,
        property_type: k === 1 ? 'house' : k === 2 ? 'apartment' : null,
        base_adr: this.baseAdr[i]!,
        occupancy: this.occ[i]!,
        blocked_share: this.blocked[i]!,
        revenue_ltm: this.rev[i]!,
        adr_ltm: this.adr[i]!,
      });
      rows.push(i);
    }
    return { comps, rows };
  }

  /** The local authority most of these listings are in, weighted by proximity. */
  laOf(rows: readonly number[], comps: readonly StrComparable[]): string | null {
    const w = new Map<string, number>();
    rows.forEach((i, j) => {
      const la = this.la[i];
      if (la) w.set(la, (w.get(la) ?? 0) + proximity(comps[j]!.distance_m));
    });
    let best: string | null = null;
    let bestW = -1;
    for (const [la, x] of [...w].sort(([a], [b]) => (a < b ? -1 : 1))) if (x > bestW) [best, bestW] = [la, x];
    return best;
  }

  /** Sector of the nearest of these listings (for a location label), if any. */
  nearestSector(rows: readonly number[], comps: readonly StrComparable[]): string | null {
    let best = -1;
    rows.forEach((_, j) => {
      if (best < 0 || comps[j]!.distance_m < comps[best]!.distance_m) best = j;
    });
    return best < 0 ? null : this.sector[rows[best]!] ?? null;
  }

  /** The LA's month-of-year indices, else the build-wide ones, else flat. */
  seasonality(la: string | null): Seasonality {
    return (la ? this.seasons.get(la) : undefined) ?? this.seasons.get('*') ?? FLAT_SEASONALITY;
  }
}

export type { PropertyKind };

/** The process's listing index of the build being served, loaded off the request path and swapped per build. */
export const strListingIndexes = new PerBuild<StrListingIndex>(async (b) => {
  // prepare, not get: get may hand back the previous build's store while this one opens.
  const store = await buildStores.prepare(b);
  return StrListingIndex.load((name) => store.query(name));
});
