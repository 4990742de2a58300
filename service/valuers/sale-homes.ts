import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BlockFileError, type BlockCache } from '../../lib/files/block-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { VALUATION_HOMES_COLUMNS, VALUATION_HOMES_FILE, type ValuationHomeRow, type ValuationHomesExtra } from '../../lib/files/valuation-homes-file.ts';
import { localMetres } from '../../lib/geo/points.ts';
import { SaleEvidence, UNKNOWN_TYPE, ageCode, type AreaPath, type IndexLookup } from '../domain/valuation-models/sale.ts';
import type { Columns } from '../store/queries.ts';

/** One home's sale valuation inputs. */
export interface SaleHome {
  postcode: string;
  /** The evidence's id of its postcode. */
  postcodeId: number;
  /** Local metres; NaN without a position. */
  x: number;
  y: number;
  type: number;
  /** Sq ft; NaN unknown. */
  area: number;
  age: number;
  /** NaN never sold. */
  lastPrice: number;
  lastMonth: number;
  path: AreaPath;
}

/** Every home's inputs, by UPRN: in typed arrays (ArrayHomes) or read where they lie (FileHomes). */
export interface HomeInputs {
  find(uprn: number): SaleHome | undefined;
  close(): void;
}

/** Every home's inputs in typed arrays sorted by UPRN (a build without valuation-homes.rows). */
export class ArrayHomes implements HomeInputs {
  constructor(
    private readonly uprns: Float64Array,
    private readonly postcodeId: Int32Array,
    private readonly postcodeOf: readonly string[],
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    private readonly type: Uint8Array,
    private readonly area: Float64Array,
    private readonly age: Uint8Array,
    private readonly lastPrice: Float64Array,
    private readonly lastMonth: Int32Array,
    private readonly paths: AreaPath[],
  ) {}

  find(uprn: number): SaleHome | undefined {
    let lo = 0;
    let hi = this.uprns.length - 1;
    while (lo <= hi) {
      const i = (lo + hi) >> 1;
      const v = this.uprns[i]!;
      if (v === uprn) {
        return {
          postcode: this.postcodeOf[this.postcodeId[i]!] ?? '', postcodeId: this.postcodeId[i]!, x: this.x[i]!, y: this.y[i]!, type: this.type[i]!,
          area: this.area[i]!, age: this.age[i]!, lastPrice: this.lastPrice[i]!, lastMonth: this.lastMonth[i]!, path: this.paths[i]!,
        };
      }
      if (v < uprn) lo = i + 1;
      else hi = i - 1;
    }
    return undefined;
  }

  close(): void {}
}

/**
 * Every home's inputs read where they lie (issue 46, ADR 0015 step 4): the ETL's
 * valuation-homes.rows through the build's page cache; a valuation reads its home's page.
 * Only the area paths and age bands (a few thousand) are in the heap.
 */
export class FileHomes implements HomeInputs {
  private constructor(
    private readonly file: KeyedRowsFile<ValuationHomeRow>,
    private readonly paths: readonly AreaPath[],
    private readonly ages: readonly number[],
  ) {}

  /** The build's file on `cache`; undefined when it has none. Another kind of file, or one cut short, throws. */
  static open(dir: string, cache: BlockCache): FileHomes | undefined {
    const path = join(dir, VALUATION_HOMES_FILE);
    if (!existsSync(path)) return undefined;
    const file = KeyedRowsFile.open<ValuationHomeRow>(path, cache);
    try {
      const extra = file.meta.extra as Partial<ValuationHomesExtra> | undefined;
      const cols = file.meta.columns.map((c) => `${c.name}:${c.kind}`).join(',');
      const want = VALUATION_HOMES_COLUMNS.map((c) => `${c.name}:${c.kind}`).join(',');
      if (extra?.kind !== 'valuation-homes' || file.meta.key.name !== 'uprn' || file.meta.key.kind !== 'num' || !file.meta.unique || cols !== want) {
        throw new BlockFileError(`${path} is not a valuation-homes file (key ${file.meta.key.name}, columns ${cols})`);
      }
      if (!Array.isArray(extra.paths) || !Array.isArray(extra.ages)) throw new BlockFileError(`${path}: its area paths or age bands are missing`);
      const paths = extra.paths.map(([sector, outcode, district, country]) => ({ sector, outcode, district, country }));
      return new FileHomes(file, paths, extra.ages.map((a) => ageCode(a)));
    } catch (e) {
      file.close();
      throw e;
    }
  }

  find(uprn: number): SaleHome | undefined {
    const h = this.file.first(uprn);
    return h && this.home(h);
  }

  /**
   * The evidence as the in-heap model makes it (sale-valuer.ts): every sale of `sales` (by UPRN,
   * oldest first) of a home in the file whose area index brings it to the index's last month
   * `end`, with the home's inputs read off one scan of the file (sorted by UPRN, as the sales are).
   */
  evidence(sl: Partial<Columns<'valuation_sales'>>, lookup: IndexLookup, end: number): SaleEvidence {
    const m = sl.uprn?.length ?? 0;
    const ev = {
      uprn: new Float64Array(m), x: new Float64Array(m), y: new Float64Array(m), type: new Uint8Array(m), areaSqft: new Float64Array(m),
      logValue: new Float64Array(m), ageMonths: new Int32Array(m), group: new Int32Array(m), age: new Uint8Array(m), latest: new Uint8Array(m), postcode: new Int32Array(m),
    };
    const rows = this.file.scan();
    let row = rows.next();
    let home: { uprn: number; h: SaleHome; pathId: number } | undefined;
    let k = 0;
    for (let r = 0; r < m; r++) {
      const u = sl.uprn![r]!;
      while (!row.done && row.value.uprn < u) row = rows.next();
      if (row.done || row.value.uprn !== u) continue;
      if (home?.uprn !== u) home = { uprn: u, h: this.home(row.value), pathId: row.value.path_id };
      const { h } = home;
      const month = sl.month![r]!;
      const g = lookup.logGrowth(h.path, month);
      if (g === null) continue;
      ev.uprn[k] = u; ev.x[k] = h.x; ev.y[k] = h.y; ev.type[k] = h.type; ev.areaSqft[k] = h.area;
      ev.logValue[k] = Math.log(sl.price![r]!) + g; ev.ageMonths[k] = end - month; ev.group[k] = home.pathId; ev.age[k] = h.age;
      ev.postcode[k] = h.postcodeId;
      ev.latest[k] = r + 1 < m && sl.uprn![r + 1] === u ? 0 : 1;
      k++;
    }
    const cut = <T extends Float64Array | Int32Array | Uint8Array>(a: T) => a.subarray(0, k) as T;
    return new SaleEvidence({
      uprn: cut(ev.uprn), x: cut(ev.x), y: cut(ev.y), type: cut(ev.type), areaSqft: cut(ev.areaSqft), logValue: cut(ev.logValue),
      ageMonths: cut(ev.ageMonths), group: cut(ev.group), age: cut(ev.age), latest: cut(ev.latest), postcode: cut(ev.postcode),
    });
  }

  close(): void {
    this.file.close();
  }

  /** A row as the in-heap arrays hold it: NaN for no position, area or price; month 0 never sold. */
  private home(r: ValuationHomeRow): SaleHome {
    const path = this.paths[r.path_id];
    if (!path) throw new BlockFileError(`${this.file.path}: UPRN ${r.uprn} names area path ${r.path_id} of ${this.paths.length}`);
    const [x, y] = r.lat === null || r.lng === null ? [NaN, NaN] : localMetres(r.lat, r.lng);
    return {
      postcode: r.postcode ?? '', postcodeId: r.postcode_id, x, y, type: r.type_code, area: r.floor_area_sqft ?? NaN, age: this.ages[r.age_id] ?? UNKNOWN_TYPE,
      lastPrice: r.last_sold_price ?? NaN, lastMonth: r.last_sold_month ?? 0, path,
    };
  }
}
