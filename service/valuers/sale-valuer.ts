import { localMetres } from '../../lib/geo/points.ts';
import type { BuildStore } from '../store/store.ts';
import type { Columns, QueryName } from '../store/queries.ts';
import {
  IndexLookup, SaleEvidence, UNKNOWN_TYPE, ageCode, indexLookupOf, saleBounds, valueSale, type AreaPath, type Evidence, type SaleEstimate,
} from '../domain/valuation-models/sale.ts';
import { SCOTLAND, SCOTTISH_SALES_NOT_OPEN } from '../domain/scotland.ts';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { ArrayHomes, FileHomes, type HomeInputs } from './sale-homes.ts';
import { FileEvidence } from './sale-evidence-file.ts';

/**
 * The sale valuation model of one build (docs/valuation.md): every home's inputs by UPRN (read
 * where they lie from the build's valuation-homes.rows, or for an older build in typed arrays
 * sorted by UPRN), the area index, and the evidence (every sold home, its last sale brought to
 * the build's last index month) in a spatial index in the heap. Built once when the build opens;
 * a valuation is then one page read (or a binary search) and two nearest-neighbour queries.
 */
export class SaleValuer {
  private constructor(
    private readonly homes: HomeInputs,
    readonly lookup: IndexLookup,
    readonly evidence: Evidence,
    private readonly evidenceFile?: FileEvidence,
  ) {}

  /** Month number (year × 12 + month − 1) values are brought to: the index's last month. */
  get asOfMonth(): number {
    return this.lookup.now;
  }

  /**
   * GET /valuations/{uprn}/sale's answer (the shape of every valuer: valued, or not_found with
   * the reason): the estimate with its bounds, confidence and method.
   */
  valuation(uprn: number) {
    const found = this.value(uprn);
    if (!found) return { kind: 'not_found' as const, reason: `No property with UPRN ${uprn}.` };
    const e = found.estimate;
    if (e.value === null) return { kind: 'not_found' as const, reason: `No sale valuation for UPRN ${uprn}: ${e.reason}.` };
    return {
      kind: 'valued' as const,
      valuation: { uprn: String(uprn), postcode: found.postcode, value: e.value, ...saleBounds(e.value), confidence: e.confidence, method: e.method, currency: 'GBP' as const },
    };
  }

  /** The cascade for one UPRN; undefined when the UPRN is not a known home. */
  value(uprn: number): { postcode: string; estimate: SaleEstimate; areaSqft: number | null } | undefined {
    const h = this.homes.find(uprn);
    if (!h) return undefined;
    const { area, lastPrice: price, postcode } = h;
    // No Scottish sale is recorded, so any estimate would rest on English sales over the border.
    if (h.path.country === SCOTLAND) return { postcode, estimate: { value: null, reason: SCOTTISH_SALES_NOT_OPEN }, areaSqft: area > 0 ? area : null };
    const estimate = valueSale(
      {
        uprn, x: h.x, y: h.y, type: h.type, areaSqft: area > 0 ? area : null, age: h.age, postcode: h.postcodeId, path: h.path,
        lastSale: price > 0 ? { price, month: h.lastMonth } : null,
      },
      this.lookup,
      this.evidence,
    );
    return { postcode, estimate, areaSqft: area > 0 ? area : null };
  }

  /** Closes the per-home and evidence files, when read from them. */
  close(): void {
    this.homes.close();
    this.evidenceFile?.close();
  }

  /**
   * The model of a build: from its per-home file (valuation-homes.rows, read where it lies
   * through `files.cache`) when `files` is given and the build has one, else every home's
   * inputs in typed arrays made from the store (a build of an older ETL). The area index and
   * the evidence come from the store either way. A per-home file of another kind or cut short
   * throws a `BlockFileError` naming it.
   */
  static async open(store: BuildStore, flaggedDistricts: ReadonlySet<string> = new Set(), files?: { dir: string; cache: BlockCache }): Promise<SaleValuer> {
    // A build without the price tables (e.g. a search-only fixture) opens an empty model:
    // every home then has no valuation, and nothing is re-tried per request.
    const complete = ['properties', 'sales', 'price_index_monthly'].every((t) => store.tables.has(t));
    const q = <N extends QueryName>(name: N): Promise<Partial<Columns<N>>> => (complete ? store.columns(name) : Promise.resolve({}));
    let file: FileHomes | undefined;
    let evidence: FileEvidence | undefined;
    try {
      file = complete && files ? FileHomes.open(files.dir, files.cache) : undefined;
      const { lookup, end } = indexLookupOf(await q('valuation_index'), flaggedDistricts);
      evidence = complete && files ? FileEvidence.open(files.dir, files.cache, end) : undefined;
      if (file && evidence) return new SaleValuer(file, lookup, evidence, evidence);
      if (file) return new SaleValuer(file, lookup, file.evidence(await q('valuation_sales'), lookup, end));
      evidence?.close();
      return await SaleValuer.fromStore(q, lookup, end);
    } catch (e) {
      file?.close();
      evidence?.close();
      throw e;
    }
  }

  /** Every home's inputs in typed arrays sorted by UPRN, from the store. */
  private static async fromStore(q: <N extends QueryName>(name: N) => Promise<Partial<Columns<N>>>, lookup: IndexLookup, end: number): Promise<SaleValuer> {
    const keys = await q('valuation_home_keys');
    const pathOf: AreaPath[] = [];
    const postcodeOf: string[] = [];
    const ageOf: number[] = [];
    for (let r = 0; r < (keys.kind?.length ?? 0); r++) {
      const id = keys.id![r]!;
      if (keys.kind![r] === 'path') pathOf[id] = { sector: keys.a![r] ?? null, outcode: keys.b![r] ?? null, district: keys.c![r] ?? null, country: keys.d![r] ?? null };
      else if (keys.kind![r] === 'postcode') postcodeOf[id] = keys.a![r] ?? '';
      else ageOf[id] = ageCode(keys.a![r]);
    }
    const h = await q('valuation_homes');
    const n = h.uprn?.length ?? 0;
    const uprns = Float64Array.from(h.uprn ?? []);
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    // A home without a position has none (NaN): it is in no radius or nearest search, as
    // evidence or as the home valued (domain/valuation-models/sale.ts), so it never meets other
    // unpositioned homes at one made-up place.
    for (let i = 0; i < n; i++) {
      const lat = h.lat![i] ?? null;
      const lng = h.lng![i] ?? null;
      [x[i], y[i]] = lat === null || lng === null ? [NaN, NaN] : localMetres(lat, lng);
    }
    const type = Uint8Array.from(h.type_code ?? []);
    const area = Float64Array.from(h.floor_area_sqft ?? [], (v) => v ?? NaN);
    const lastPrice = Float64Array.from(h.last_sold_price ?? [], (v) => v ?? NaN);
    const lastMonth = Int32Array.from(h.last_sold_month ?? [], (v) => v ?? 0);
    const group = Int32Array.from(h.path_id ?? []);
    const postcodeId = Int32Array.from(h.postcode_id ?? []);
    const age = Uint8Array.from(h.age_id ?? [], (v) => ageOf[v] ?? UNKNOWN_TYPE);
    const paths: AreaPath[] = Array.from(group, (g) => pathOf[g]!);

    // Evidence: every recorded sale its home's area index can bring to the valuation month.
    const sl = await q('valuation_sales');
    const m = sl.uprn?.length ?? 0;
    const ev = {
      uprn: new Float64Array(m), x: new Float64Array(m), y: new Float64Array(m), type: new Uint8Array(m), areaSqft: new Float64Array(m),
      logValue: new Float64Array(m), ageMonths: new Int32Array(m), group: new Int32Array(m), age: new Uint8Array(m), latest: new Uint8Array(m), postcode: new Int32Array(m),
    };
    let k = 0;
    let i = 0;
    for (let r = 0; r < m; r++) {
      const u = sl.uprn![r]!;
      while (i < n && uprns[i]! < u) i++;
      if (i >= n || uprns[i] !== u) continue;
      const month = sl.month![r]!;
      const g = lookup.logGrowth(paths[i]!, month);
      if (g === null) continue;
      ev.uprn[k] = u; ev.x[k] = x[i]!; ev.y[k] = y[i]!; ev.type[k] = type[i]!; ev.areaSqft[k] = area[i]!;
      ev.logValue[k] = Math.log(sl.price![r]!) + g; ev.ageMonths[k] = end - month; ev.group[k] = group[i]!; ev.age[k] = age[i]!;
      ev.postcode[k] = postcodeId[i]!;
      ev.latest[k] = r + 1 < m && sl.uprn![r + 1] === u ? 0 : 1;
      k++;
    }
    const cut = <T extends Float64Array | Int32Array | Uint8Array>(a: T) => a.subarray(0, k) as T;
    const evidence = new SaleEvidence({
      uprn: cut(ev.uprn), x: cut(ev.x), y: cut(ev.y), type: cut(ev.type), areaSqft: cut(ev.areaSqft), logValue: cut(ev.logValue),
      ageMonths: cut(ev.ageMonths), group: cut(ev.group), age: cut(ev.age), latest: cut(ev.latest), postcode: cut(ev.postcode),
    });
    return new SaleValuer(new ArrayHomes(uprns, postcodeId, postcodeOf, x, y, type, area, age, lastPrice, lastMonth, paths), lookup, evidence);
  }
}


