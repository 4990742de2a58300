import { Points } from '../../lib/geo/points.ts';
import {
  bedroomResemblance, comparableOrder, FLAT_SEASONALITY, proximity, similarityOf,
  type PropertyKind, type Seasonality, type SeasonSource, type StrComparable, type StrSubject,
} from '../domain/str/estimate.ts';
import type { Row } from '../store/queries.ts';
import type { StoreReads } from '../store/store.ts';

export type EstimateListingRow = Row<'str_estimate_listings'>;
export type SeasonalityRow = Row<'str_seasonality_all'>;

/** Listings near a point: row numbers and distances in metres. */
export interface NearHits {
  rows: Int32Array;
  dist: Float64Array;
}

/**
 * The comparable listings of one build in memory: columns as typed arrays and a points
 * index (lib/geo/points.ts) over them, so a 2 km radius query is a tree search and a
 * distance check per candidate, with no SQL on the request path.
 */
export class StrListingIndex {
  readonly size: number;
  private readonly points: Points;
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
  private readonly la: Int32Array; // -1 none, else index into laNames
  private readonly laNames: string[] = [];
  private readonly sector: (string | null)[];
  private readonly seasons: Map<string, Seasonality>;

  constructor(rows: readonly EstimateListingRow[], seasonRows: readonly SeasonalityRow[]) {
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
    this.la = new Int32Array(n);
    const laIds = new Map<string, number>();
    this.sector = new Array<string | null>(n);
    rows.forEach((r, i) => {
      this.ids[i] = r.id;
      this.lat[i] = r.lat;
      this.lng[i] = r.lng;
      this.beds[i] = r.bedrooms;
      this.baths[i] = r.bathrooms ?? NaN;
      this.kind[i] = r.property_type === 'house' ? 1 : r.property_type === 'apartment' ? 2 : 0;
      this.baseAdr[i] = r.base_adr;
      this.occ[i] = r.occupancy;
      this.blocked[i] = r.blocked_share;
      this.rev[i] = r.revenue_ltm ?? NaN;
      this.adr[i] = r.adr_ltm ?? NaN;
      if (r.la_code === null) this.la[i] = -1;
      else {
        const la = r.la_code;
        let id = laIds.get(la);
        if (id === undefined) laIds.set(la, (id = this.laNames.push(la) - 1));
        this.la[i] = id;
      }
      this.sector[i] = r.sector;
    });
    this.points = new Points(this.lat, this.lng);
    this.seasons = new Map();
    const byLa = new Map<string, { demand: number[]; adr: number[]; source: SeasonSource }>();
    for (const r of seasonRows) {
      const la = r.la_code;
      const m = r.month_of_year - 1;
      if (!(m >= 0 && m < 12)) continue;
      let s = byLa.get(la);
      if (!s) byLa.set(la, (s = { demand: Array(12).fill(1), adr: Array(12).fill(1), source: r.source === 'national_prior' || r.source === 'build_wide' ? r.source : 'reviews' }));
      s.demand[m] = r.demand_index || 1;
      s.adr[m] = r.adr_index || 1;
    }
    for (const [la, s] of byLa) this.seasons.set(la, s);
  }

  static async load(store: StoreReads): Promise<StrListingIndex> {
    const [rows, season] = await Promise.all([store.rows('str_estimate_listings'), store.rows('str_seasonality_all')]);
    return new StrListingIndex(rows, season);
  }

  /**
   * Listings within `radiusM` (great-circle) of the point, optionally leaving one listing out
   * (leave-one-out accuracy): their row numbers and distances, no objects.
   */
  near(lat: number, lng: number, radiusM: number, excludeId?: string): NearHits {
    const rows: number[] = [];
    const dist: number[] = [];
    this.points.within(lat, lng, radiusM, (i, d) => {
      if (excludeId !== undefined && this.ids[i] === excludeId) return;
      rows.push(i);
      dist.push(d);
    });
    return { rows: Int32Array.from(rows), dist: Float64Array.from(dist) };
  }

  private kindOf(i: number): PropertyKind | null {
    const k = this.kind[i]!;
    return k === 1 ? 'house' : k === 2 ? 'apartment' : null;
  }

  /** Row `i` as a comparable at distance `d`. */
  comparable(i: number, d: number): StrComparable {
    const baths = this.baths[i]!;
    return {
      id: this.ids[i]!,
      distance_m: d,
      bedrooms: this.beds[i]!,
      bathrooms: Number.isNaN(baths) ? null : baths,
      property_type: this.kindOf(i),
      base_adr: this.baseAdr[i]!,
      occupancy: this.occ[i]!,
      blocked_share: this.blocked[i]!,
      revenue_ltm: this.rev[i]!,
      adr_ltm: this.adr[i]!,
    };
  }

  /** Every hit as a comparable (small hit sets, tests). */
  comparables(h: NearHits): StrComparable[] {
    return Array.from(h.rows, (i, j) => this.comparable(i, h.dist[j]!));
  }

  /** `inferPropertyType` over the hits, without objects. */
  inferType(bedrooms: number, h: NearHits): PropertyKind {
    let house = 0;
    let flat = 0;
    const { rows, dist } = h;
    for (let j = 0; j < rows.length; j++) {
      const i = rows[j]!;
      const k = this.kind[i]!;
      if (k === 0) continue;
      const w = bedroomResemblance(this.beds[i]! - bedrooms) * proximity(dist[j]!);
      if (k === 1) house += w;
      else flat += w;
    }
    return house > flat ? 'house' : 'apartment';
  }

  /**
   * The `k` hits with the highest weight (similarity × proximity, ordered as `selectComparables`
   * orders them), as comparables: a bounded heap over the hits, objects only for the chosen.
   */
  top(subject: Omit<StrSubject, 'finish_quality'>, h: NearHits, k: number): StrComparable[] {
    const n = h.rows.length;
    const w = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const i = h.rows[j]!;
      const baths = this.baths[i]!;
      w[j] = similarityOf(subject.bedrooms, subject.bathrooms, subject.property_type, this.beds[i]!, Number.isNaN(baths) ? null : baths, this.kindOf(i)) * proximity(h.dist[j]!);
    }
    // "a before b" in the final order; the heap keeps the worst of the chosen at its root.
    const before = (a: number, b: number) => comparableOrder(w[a]!, h.dist[a]!, this.ids[h.rows[a]!]!, w[b]!, h.dist[b]!, this.ids[h.rows[b]!]!) < 0;
    const heap: number[] = [];
    const down = (x: number) => {
      for (;;) {
        const l = 2 * x + 1, r = l + 1;
        let m = x;
        if (l < heap.length && before(heap[m]!, heap[l]!)) m = l;
        if (r < heap.length && before(heap[m]!, heap[r]!)) m = r;
        if (m === x) return;
        [heap[x], heap[m]] = [heap[m]!, heap[x]!];
        x = m;
      }
    };
    for (let j = 0; j < n; j++) {
      if (heap.length < k) {
        heap.push(j);
        for (let x = heap.length - 1; x > 0; ) {
          const p = (x - 1) >> 1;
          if (!before(heap[p]!, heap[x]!)) break;
          [heap[x], heap[p]] = [heap[p]!, heap[x]!];
          x = p;
        }
      } else if (before(j, heap[0]!)) {
        heap[0] = j;
        down(0);
      }
    }
    return heap.map((j) => this.comparable(h.rows[j]!, h.dist[j]!));
  }

  /** The local authority most of the hits are in, weighted by proximity. */
  laOf(h: NearHits): string | null {
    const w = new Float64Array(this.laNames.length);
    const { rows, dist } = h;
    for (let j = 0; j < rows.length; j++) {
      const la = this.la[rows[j]!]!;
      if (la >= 0) w[la]! += proximity(dist[j]!);
    }
    let best: string | null = null;
    let bestW = 0;
    w.forEach((x, la) => {
      const name = this.laNames[la]!;
      if (x > bestW || (x === bestW && x > 0 && best !== null && name < best)) [best, bestW] = [name, x];
    });
    return best;
  }

  /** Sector of the nearest hit (for a location label), if any. */
  nearestSector(h: NearHits): string | null {
    let best = -1;
    for (let j = 0; j < h.dist.length; j++) if (best < 0 || h.dist[j]! < h.dist[best]!) best = j;
    return best < 0 ? null : this.sector[h.rows[best]!] ?? null;
  }

  /** The LA's month-of-year indices, else the build-wide ones, else flat. */
  seasonality(la: string | null): Seasonality {
    return (la ? this.seasons.get(la) : undefined) ?? this.seasons.get('*') ?? { ...FLAT_SEASONALITY, source: 'none' };
  }
}
