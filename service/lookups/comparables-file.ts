import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BlockFileError, type BlockCache } from '../../lib/files/block-file.ts';
import { COMPARABLES_COLUMNS, COMPARABLES_FILE, type ComparablesExtra, type ComparablesRow } from '../../lib/files/comparables-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { cellRanges } from '../../lib/geo/grid-cells.ts';
import { haversineM, localMetres, radiusBox } from '../../lib/geo/points.ts';
import { priceToday } from '../domain/lookups.ts';
import type { AreaPath, IndexLookup } from '../domain/valuation-models/sale.ts';
import { COMP_TYPES, HitList, type ComparableSales, type ComparablesSource, type HomeFilter, type Hits } from './comparables.ts';

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
    private readonly file: KeyedRowsFile<ComparablesRow>,
    private readonly cellM: number,
    private readonly paths: readonly AreaPath[],
    private readonly lookup: IndexLookup,
    readonly indexMonth: number | null,
  ) {}

  /**
   * The build's comparables file on `cache`, with prices brought to today by `lookup` (the sale
   * valuer's area index, whose last month is `asOfMonth`); undefined when the build has none
   * (an older ETL's: the in-heap index serves it). A file of another kind, cut short or not
   * finished throws a `BlockFileError` naming it.
   */
  static open(buildDir: string, cache: BlockCache, lookup: IndexLookup, asOfMonth: number): ComparablesFile | undefined {
    const path = join(buildDir, COMPARABLES_FILE);
    if (!existsSync(path)) return undefined;
    const file = KeyedRowsFile.open<ComparablesRow>(path, cache);
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
    const sales = new HitSales();
    const hits = new HitList();
    // One home's rows (together in its cell, oldest first): its latest sale dated ≤ maxDay, if ≥ minDay.
    let home: ComparablesRow[] = [];
    const finish = () => {
      const first = home[0];
      if (!first) return;
      let i = home.length - 1;
      while (i >= 0 && home[i]!.day > maxDay) i--;
      const s = i >= 0 ? home[i]! : undefined;
      home = [];
      if (!s || s.day < minDay) return;
      const [x, y] = localMetres(s.lat, s.lng);
      if (x < minX || x > maxX || y < minY || y > maxY) return;
      const d = haversineM(lat, lng, s.lat, s.lng);
      if (d > radiusM) return;
      const type = Math.max(0, COMP_TYPES.indexOf(s.property_type as never));
      const beds = s.bedrooms === null ? -1 : Math.min(127, s.bedrooms);
      if (!keep(s.uprn, type, beds)) return;
      hits.push(sales.push(s, type, beds, this.todayOf(s)), d);
    };
    for (const [lo, hi] of cellRanges(minX, minY, maxX, maxY, this.cellM)) {
      for (const r of this.file.range(lo, hi)) {
        if (home.length > 0 && home[0]!.uprn !== r.uprn) finish();
        home.push(r);
      }
      finish();
    }
    return hits.done(sales);
  }

  close(): void {
    this.file.close();
  }

  private todayOf(s: ComparablesRow): number {
    const path = this.paths[s.path];
    if (!path) throw new BlockFileError(`${this.file.path}: a row names area path ${s.path} of ${this.paths.length}`);
    return priceToday(s.price, this.lookup.logGrowth(path, s.month_no)) ?? NaN;
  }
}

/** The hits' sales as columns (hit j is row j), as the in-heap index's typed arrays hold them. */
class HitSales implements ComparableSales {
  readonly uprn: number[] = [];
  readonly price: number[] = [];
  readonly day: number[] = [];
  readonly monthNo: number[] = [];
  readonly lat: number[] = [];
  readonly lng: number[] = [];
  readonly type: number[] = [];
  readonly bedrooms: number[] = [];
  readonly areaSqft: number[] = [];
  readonly priceToday: number[] = [];

  push(s: ComparablesRow, type: number, bedrooms: number, today: number): number {
    this.uprn.push(s.uprn);
    this.price.push(s.price);
    this.day.push(s.day);
    this.monthNo.push(s.month_no);
    this.lat.push(s.lat);
    this.lng.push(s.lng);
    this.type.push(type);
    this.bedrooms.push(bedrooms);
    // The in-heap index keeps floor areas as float32.
    this.areaSqft.push(s.floor_area_sqft === null ? NaN : Math.fround(s.floor_area_sqft));
    this.priceToday.push(today);
    return this.uprn.length - 1;
  }
}
