import type { BuildInfo } from '../middleware/data.ts';
import { PerBuild } from '../store/per-build.ts';
import type { BuildStore } from '../store/store.ts';
import { buildStores } from '../store/stores.ts';
import {
  IndexLookup, SaleEvidence, ageCode, toMetres, typeCode, valueSale, type AreaIndex, type AreaPath, type SaleEstimate,
} from '../domain/valuation/sale.ts';

/**
 * The sale valuation model of one build, in memory (docs/valuation.md): every home's inputs
 * in columns sorted by UPRN, the area index, and the evidence (every sold home, its last sale
 * brought to the build's last index month) in a spatial index. Built once when the build
 * opens (about 2 s and 150 MB at 1M addresses); a valuation is then a binary search and two
 * nearest-neighbour queries.
 */
export class SaleValuer {
  private constructor(
    private readonly uprns: Float64Array,
    private readonly postcodes: (string | null)[],
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    private readonly type: Uint8Array,
    private readonly area: Float64Array,
    private readonly age: Uint8Array,
    private readonly lastPrice: Float64Array,
    private readonly lastMonth: Int32Array,
    private readonly paths: AreaPath[],
    readonly lookup: IndexLookup,
    readonly evidence: SaleEvidence,
  ) {}

  /** Month number (year × 12 + month − 1) values are brought to: the index's last month. */
  get asOfMonth(): number {
    return this.lookup.now;
  }

  private find(uprn: number): number {
    let lo = 0;
    let hi = this.uprns.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.uprns[mid]!;
      if (v === uprn) return mid;
      if (v < uprn) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The cascade for one UPRN; undefined when the UPRN is not a known home. */
  value(uprn: number): { postcode: string; estimate: SaleEstimate; areaSqft: number | null } | undefined {
    const i = this.find(uprn);
    if (i < 0) return undefined;
    const area = this.area[i]!;
    const price = this.lastPrice[i]!;
    const estimate = valueSale(
      {
        uprn, x: this.x[i]!, y: this.y[i]!, type: this.type[i]!, areaSqft: area > 0 ? area : null, age: this.age[i]!, path: this.paths[i]!,
        lastSale: price > 0 ? { price, month: this.lastMonth[i]! } : null,
      },
      this.lookup,
      this.evidence,
    );
    return { postcode: this.postcodes[i] ?? '', estimate, areaSqft: area > 0 ? area : null };
  }

  static async open(store: BuildStore): Promise<SaleValuer> {
    const ix = await store.queryColumns('valuation_index');
    const index: AreaIndex = { start: Infinity, series: new Map(), enough: new Map() };
    let end = -Infinity;
    for (const m of ix.month_no ?? []) {
      index.start = Math.min(index.start, Number(m));
      end = Math.max(end, Number(m));
    }
    if (!Number.isFinite(index.start)) index.start = end = 0;
    const T = end - index.start + 1;
    for (let r = 0; r < (ix.area_code?.length ?? 0); r++) {
      const key = `${String(ix.area_level![r])}:${String(ix.area_code![r])}`;
      let s = index.series.get(key);
      let e = index.enough.get(key);
      if (!s || !e) {
        index.series.set(key, (s = new Float64Array(T)));
        index.enough.set(key, (e = new Uint8Array(T)));
      }
      const t = Number(ix.month_no![r]) - index.start;
      s[t] = Number(ix.log_index![r]);
      e[t] = ix.enough_sales![r] === true ? 1 : 0;
    }
    const lookup = new IndexLookup(index, end);

    const h = await store.queryColumns('valuation_homes');
    const n = h.uprn?.length ?? 0;
    const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
    const uprns = new Float64Array(n);
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    const type = new Uint8Array(n);
    const area = new Float64Array(n);
    const age = new Uint8Array(n);
    const lastPrice = new Float64Array(n);
    const lastMonth = new Int32Array(n);
    const paths: AreaPath[] = new Array(n);
    const postcodes: (string | null)[] = new Array(n);
    const groups = new Map<string, number>();
    const group = new Int32Array(n);
    const pathCache = new Map<string, AreaPath>();
    for (let i = 0; i < n; i++) {
      uprns[i] = Number(h.uprn![i]);
      postcodes[i] = str(h.postcode![i]);
      [x[i], y[i]] = toMetres(Number(h.lat![i]), Number(h.lng![i]));
      type[i] = typeCode(str(h.property_type![i]));
      const a = h.floor_area_sqft![i];
      area[i] = a === null || a === undefined ? NaN : Number(a);
      age[i] = ageCode(str(h.construction_age![i]));
      const p = h.last_sold_price![i];
      lastPrice[i] = p === null || p === undefined ? NaN : Number(p);
      lastMonth[i] = Number(h.last_sold_month![i] ?? 0);
      const path: AreaPath = { sector: str(h.sector![i]), outcode: str(h.outcode![i]), district: str(h.la_code![i]), country: str(h.country![i]) };
      const pk = `${path.sector}|${path.outcode}|${path.district}|${path.country}`;
      let shared = pathCache.get(pk);
      if (!shared) pathCache.set(pk, (shared = path));
      paths[i] = shared;
      if (!groups.has(pk)) groups.set(pk, groups.size);
      group[i] = groups.get(pk)!;
    }
    // Evidence: every home with a sale its area index can bring to the valuation month.
    const keep: number[] = [];
    const logValue: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!(lastPrice[i]! > 0)) continue;
      const g = lookup.logGrowth(paths[i]!, lastMonth[i]!);
      if (g === null) continue;
      keep.push(i);
      logValue.push(Math.log(lastPrice[i]!) + g);
    }
    const pickF = (a: Float64Array) => Float64Array.from(keep, (i) => a[i]!);
    const evidence = new SaleEvidence({
      uprn: pickF(uprns), x: pickF(x), y: pickF(y), type: Uint8Array.from(keep, (i) => type[i]!), areaSqft: pickF(area),
      logValue: Float64Array.from(logValue), ageMonths: Int32Array.from(keep, (i) => end - lastMonth[i]!),
      group: Int32Array.from(keep, (i) => group[i]!), age: Uint8Array.from(keep, (i) => age[i]!),
    });
    return new SaleValuer(uprns, postcodes, x, y, type, area, age, lastPrice, lastMonth, paths, lookup, evidence);
  }
}

/** The process's sale valuation model of the build being served, swapped with the build. */
export const saleValuers = new PerBuild<SaleValuer>(async (b: BuildInfo) => SaleValuer.open(await buildStores.prepare(b)));

/** `YYYY-MM` of a month number. */
export function monthLabel(m: number): string {
  return `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
}
