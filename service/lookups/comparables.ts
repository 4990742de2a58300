import { COMP_TYPES } from '../../lib/files/comparables-file.ts';
import { Points } from '../../lib/geo/points.ts';
import type { AreaPath } from '../domain/valuation-models/sale.ts';
import { priceToday } from '../domain/lookups.ts';
import type { BuildStore } from '../store/store.ts';
import type { Columns } from '../store/queries.ts';
import type { SaleValuer } from '../valuers/sale-valuer.ts';

/** Home types as stored (index = code; 0 = unknown): the comparables file's. */
export { COMP_TYPES };

/**
 * Every standard sale of a located home in typed arrays (about 50 bytes a sale), each home's
 * sales together, oldest first, with a points index (lib/geo/points.ts) over the homes: a radius
 * query visits only the homes in the radius's bounding box, never the whole table, and takes
 * each home's latest sale in the date range from its own few rows. Each sale's price today
 * (by its area's index) is worked out once when the build opens.
 */
export class ComparablesIndex implements ComparablesSource, ComparableSales {
  constructor(
    readonly uprn: Float64Array,
    readonly price: Float64Array,
    readonly day: Int32Array,
    readonly monthNo: Int32Array,
    readonly lat: Float64Array,
    readonly lng: Float64Array,
    readonly type: Uint8Array,
    /** −1 unknown. */
    readonly bedrooms: Int8Array,
    /** NaN unknown. */
    readonly areaSqft: Float32Array,
    /** NaN without an index. */
    readonly priceToday: Float64Array,
    /** YYYY-MM the prices today are brought to (null without an index). */
    readonly indexMonth: number | null,
    /** Each home's latest sale (rows are oldest first per home), and a points index over those homes. */
    private readonly latest: Int32Array,
    private readonly homes: Points,
  ) {}

  get size(): number {
    return this.uprn.length;
  }

  priceTodayOf(i: number): number {
    return this.priceToday[i]!;
  }

  /**
   * Each home within `radiusM` of (lat, lng) with a sale dated `minDay`..`maxDay` (days since
   * 1970), with its latest such sale, where `keep` (a filter on the home, not the sale) accepts
   * it: the sales' rows and their distances, in typed arrays (a 2 km radius in a city holds
   * tens of thousands of homes: no object per hit for the GC to sweep).
   */
  latestWithin(lat: number, lng: number, radiusM: number, keep: HomeFilter, minDay = -Infinity, maxDay = Infinity): Hits {
    const hits = new HitList();
    this.homes.within(lat, lng, radiusM, (h, d) => {
      const i = this.latestIn(h, minDay, maxDay);
      if (i >= 0 && keep(this.uprn[i]!, this.type[i]!, this.bedrooms[i]!)) hits.push(i, d);
    });
    return hits.done(this);
  }

  close(): void {}

  /** Home h's latest sale dated minDay..maxDay (its rows run oldest first up to latest[h]), or −1. */
  private latestIn(h: number, minDay: number, maxDay: number): number {
    let i = this.latest[h]!;
    const u = this.uprn[i];
    while (i >= 0 && this.uprn[i] === u && this.day[i]! > maxDay) i--;
    return i < 0 || this.uprn[i] !== u || this.day[i]! < minDay ? -1 : i;
  }
}

/** Sales as columns: row i's UPRN is `uprn[i]`, and so on. */
export interface ComparableSales {
  readonly uprn: ArrayLike<number>;
  readonly price: ArrayLike<number>;
  /** Days since 1970-01-01. */
  readonly day: ArrayLike<number>;
  readonly monthNo: ArrayLike<number>;
  readonly lat: ArrayLike<number>;
  readonly lng: ArrayLike<number>;
  /** `COMP_TYPES` code. */
  readonly type: ArrayLike<number>;
  /** −1 unknown. */
  readonly bedrooms: ArrayLike<number>;
  /** NaN unknown (a float32's value, as the in-heap index has always held it). */
  readonly areaSqft: ArrayLike<number>;
  /** Sale i's price today, NaN without an index (asked only of the hits shown: a file's are worked out then). */
  priceTodayOf(i: number): number;
}

/** Whether a home (its UPRN, `COMP_TYPES` code and bedrooms, −1 unknown) is wanted. */
export type HomeFilter = (uprn: number, type: number, bedrooms: number) => boolean;

/**
 * What GET /prices/comparables asks of the sales: the in-heap index (a build without the
 * comparables file) or the file read where it lies (service/lookups/comparables-file.ts);
 * both give the same hits.
 */
export interface ComparablesSource {
  /** YYYY-MM the prices today are brought to (null without an index). */
  readonly indexMonth: number | null;
  latestWithin(lat: number, lng: number, radiusM: number, keep: HomeFilter, minDay?: number, maxDay?: number): Hits;
  close(): void;
}

/** Sales and their distances: hit j is row `row[j]` of `sales`, `dist[j]` metres away. */
export interface Hits { sales: ComparableSales; row: Int32Array; dist: Float64Array; length: number }

/** A growing pair of typed arrays. */
export class HitList {
  private row = new Int32Array(256);
  private dist = new Float64Array(256);
  private n = 0;
  push(i: number, d: number): void {
    if (this.n === this.row.length) {
      const row = new Int32Array(this.n * 2);
      row.set(this.row);
      const dist = new Float64Array(this.n * 2);
      dist.set(this.dist);
      this.row = row;
      this.dist = dist;
    }
    this.row[this.n] = i;
    this.dist[this.n++] = d;
  }
  done(sales: ComparableSales): Hits {
    return { sales, row: this.row.subarray(0, this.n), dist: this.dist.subarray(0, this.n), length: this.n };
  }
}

/** Loads the index from the build's store, with prices today by the sale valuer's area index. */
export async function loadComparables(store: BuildStore, valuer: SaleValuer): Promise<ComparablesIndex> {
  const complete = ['sales', 'properties'].every((t) => store.tables.has(t));
  const c: Partial<Columns<'lookup_comparables_all'>> = complete ? await store.columns('lookup_comparables_all') : {};
  const n = c.uprn?.length ?? 0;
  const lookup = valuer.lookup;
  const uprn = new Float64Array(n), price = new Float64Array(n), day = new Int32Array(n), monthNo = new Int32Array(n);
  const lat = new Float64Array(n), lng = new Float64Array(n), type = new Uint8Array(n), bedrooms = new Int8Array(n);
  const areaSqft = new Float32Array(n), today = new Float64Array(n);
  const paths = new Map<string, AreaPath>();
  let indexed = false;
  for (let i = 0; i < n; i++) {
    uprn[i] = c.uprn![i]!; price[i] = c.price![i]!; day[i] = c.day![i]!; monthNo[i] = c.month_no![i]!;
    lat[i] = c.lat![i]!; lng[i] = c.lng![i]!;
    type[i] = Math.max(0, COMP_TYPES.indexOf(c.property_type![i] as never));
    const beds = c.bedrooms![i]!;
    bedrooms[i] = beds === null ? -1 : Math.min(127, beds);
    areaSqft[i] = c.floor_area_sqft![i] ?? NaN;
    const [sector, outcode, district, country] = [c.sector![i]!, c.outcode![i]!, c.la_code![i]!, c.country![i]!];
    const key = `${sector}|${outcode}|${district}|${country}`;
    let path = paths.get(key);
    if (!path) paths.set(key, (path = { sector, outcode, district, country }));
    const p = priceToday(price[i]!, lookup.logGrowth(path, monthNo[i]!));
    today[i] = p ?? NaN;
    if (p !== null) indexed = true;
  }
  const latest: number[] = [];
  for (let i = 0; i < n; i++) if (i === n - 1 || uprn[i + 1] !== uprn[i]) latest.push(i);
  const homes = new Points(Float64Array.from(latest, (i) => lat[i]!), Float64Array.from(latest, (i) => lng[i]!));
  return new ComparablesIndex(uprn, price, day, monthNo, lat, lng, type, bedrooms, areaSqft, today, indexed ? valuer.asOfMonth : null, Int32Array.from(latest), homes);
}
