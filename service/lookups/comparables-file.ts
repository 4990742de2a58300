import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BlockFileError, type BlockCache } from '../../lib/files/block-file.ts';
import { COMPARABLES_AT as A, COMPARABLES_COLUMNS, COMPARABLES_FILE, type ComparablesExtra } from '../../lib/files/comparables-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { cellRanges } from '../../lib/geo/grid-cells.ts';
import { haversineM, localMetres, radiusBox } from '../../lib/geo/points.ts';
import { priceToday } from '../domain/lookups.ts';
import type { AreaPath, IndexLookup } from '../domain/valuation-models/sale.ts';
import { HitList, type ComparableSales, type ComparablesSource, type HomeFilter, type Hits } from './comparables.ts';

/**
 * The comparables of a build read where they lie (issue 46, ADR 0015 step 4): the ETL's
 * comparables file (lib/files/comparables-file.ts) through the build's page cache, instead of
 * every sale in the heap. A radius query reads the rows of grid cells its box spans, one key
 * range per row of cells, and answers as the in-heap index does (service/lookups/comparables.ts):
 * the same homes (in the box, within the great-circle radius), each with its latest sale in the
 * date range, the same fields; only the hits' order differs, which no caller relies on.
 */
export class ComparablesFile implements ComparablesSource {
  private constructor(
    private readonly file: KeyedRowsFile,
    private readonly cellM: number,
    private readonly paths: readonly AreaPath[],
    private readonly lookup: IndexLookup,
    readonly indexMonth: number | null,
  ) {}

  /** Log growth to the index's last month by path id × 100,000 + month number. */
  private readonly growth = new Map<number, number | null>();

  /**
   * The build's comparables file on `cache`, with prices brought to today by `lookup` (the sale
   * valuer's area index, whose last month is `asOfMonth`); undefined when the build has none
   * (an older ETL's: the in-heap index serves it). A file of another kind, cut short or not
   * finished throws a `BlockFileError` naming it.
   */
  static open(buildDir: string, cache: BlockCache, lookup: IndexLookup, asOfMonth: number): ComparablesFile | undefined {
    const path = join(buildDir, COMPARABLES_FILE);
    if (!existsSync(path)) return undefined;
    const file = KeyedRowsFile.open(path, cache);
    try {
      const extra = file.meta.extra as Partial<ComparablesExtra> | undefined;
      const cols = file.meta.columns.map((c) => `${c.name}:${c.kind}`).join(',');
      const want = COMPARABLES_COLUMNS.map((c) => `${c.name}:${c.kind}`).join(',');
      if (extra?.kind !== 'comparables' || file.meta.key.name !== 'cell' || file.meta.key.kind !== 'num' || cols !== want) {
        throw new BlockFileError(`${path} is not a comparables file (key ${file.meta.key.name}, columns ${cols})`);
      }
      if (!(typeof extra.cell_m === 'number' && extra.cell_m >= 10) || !Array.isArray(extra.paths)) throw new BlockFileError(`${path}: its cell size or area paths are missing`);
      const paths = extra.paths.map(([sector, outcode, district, country]) => ({ sector, outcode, district, country }));
      // Some sale has a price today exactly when some home's area path has an index series.
      const indexed = paths.some((p) => lookup.seriesFor(p) !== null);
      return new ComparablesFile(file, extra.cell_m, paths, lookup, indexed ? asOfMonth : null);
    } catch (e) {
      file.close();
      throw e;
    }
  }

  get size(): number {
    return this.file.size;
  }

  latestWithin(lat: number, lng: number, radiusM: number, keep: HomeFilter, minDay = -Infinity, maxDay = Infinity): Hits {
    const [minX, minY, maxX, maxY] = radiusBox(lat, lng, radiusM);
    const sales = new HitSales((i) => this.todayOf(sales.price[i]!, sales.path[i]!, sales.monthNo[i]!));
    const hits = new HitList();
    // The home being read (its rows are together in its cell, newest first) and a copy of its
    // first row dated ≤ maxDay: its latest sale up to then (`found`).
    let uprn = NaN;
    let found = false;
    const s = { uprn: 0, price: 0, day: 0, month: 0, lat: 0, lng: 0, type: 0, beds: 0, area: 0, path: 0 };
    const finish = () => {
      const had = found;
      found = false;
      if (!had || s.day < minDay) return;
      const [x, y] = localMetres(s.lat, s.lng);
      if (x < minX || x > maxX || y < minY || y > maxY) return;
      const d = haversineM(lat, lng, s.lat, s.lng);
      s.beds = Math.min(127, s.beds); // as the in-heap index's int8
      if (d > radiusM || !keep(s.uprn, s.type, s.beds)) return;
      hits.push(sales.push(s), d);
    };
    // A DataView over the page's memory (the cache's arena: one for every page read from it):
    // its getFloat64 is several times Buffer.readDoubleLE's speed, and a row is 90 bytes of them.
    let dv: DataView | undefined;
    const visit = (b: Buffer, at: number) => {
      if (b[at] !== 0 || b[at + 1] !== 0) throw new BlockFileError(`${this.file.path}: a row has a null value (the comparables file has none)`);
      if (dv?.buffer !== b.buffer) dv = new DataView(b.buffer);
      const o = b.byteOffset + at;
      const u = dv.getFloat64(o + A.uprn, true);
      if (u !== uprn) {
        finish();
        uprn = u;
      } else if (found) return; // the home's latest sale up to maxDay is already found
      const day = dv.getFloat64(o + A.day, true);
      if (day > maxDay) return;
      found = true;
      s.uprn = u; s.day = day;
      s.price = dv.getFloat64(o + A.price, true); s.month = dv.getFloat64(o + A.month_no, true);
      s.lat = dv.getFloat64(o + A.lat, true); s.lng = dv.getFloat64(o + A.lng, true);
      s.type = dv.getFloat64(o + A.type, true); s.beds = dv.getFloat64(o + A.bedrooms, true);
      s.area = dv.getFloat64(o + A.floor_area_sqft, true); s.path = dv.getFloat64(o + A.path, true);
    };
    for (const [lo, hi] of cellRanges(minX, minY, maxX, maxY, this.cellM)) {
      this.file.rangeRaw(lo, hi, visit);
      finish();
      uprn = NaN;
    }
    return hits.done(sales);
  }

  close(): void {
    this.file.close();
  }

  /** A sale's price today: its area path's growth from its month (memoised per path and month: a few thousand of each). */
  private todayOf(price: number, pathId: number, month: number): number {
    const key = pathId * 100_000 + month;
    let g = this.growth.get(key);
    if (g === undefined) {
      const path = this.paths[pathId];
      if (!path) throw new BlockFileError(`${this.file.path}: a row names area path ${pathId} of ${this.paths.length}`);
      this.growth.set(key, (g = this.lookup.logGrowth(path, month)));
    }
    return priceToday(price, g) ?? NaN;
  }
}

/**
 * The hits' sales as columns (hit j is row j), as the in-heap index's typed arrays hold them;
 * a price today is worked out when asked (for the page shown, not the thousands in a radius).
 */
class HitSales implements ComparableSales {
  constructor(readonly priceTodayOf: (i: number) => number) {}

  readonly uprn: number[] = [];
  readonly price: number[] = [];
  readonly day: number[] = [];
  readonly monthNo: number[] = [];
  readonly lat: number[] = [];
  readonly lng: number[] = [];
  readonly type: number[] = [];
  readonly bedrooms: number[] = [];
  readonly areaSqft: number[] = [];
  /** Each sale's area path (an index into the file's paths). */
  readonly path: number[] = [];

  push(s: { uprn: number; price: number; day: number; month: number; lat: number; lng: number; type: number; beds: number; area: number; path: number }): number {
    this.uprn.push(s.uprn);
    this.price.push(s.price);
    this.day.push(s.day);
    this.monthNo.push(s.month);
    this.lat.push(s.lat);
    this.lng.push(s.lng);
    this.type.push(s.type);
    this.bedrooms.push(s.beds);
    // The in-heap index keeps floor areas as float32.
    this.areaSqft.push(Math.fround(s.area));
    this.path.push(s.path);
    return this.uprn.length - 1;
  }
}
