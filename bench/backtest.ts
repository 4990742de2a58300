/**
 * Sale valuation backtest (issue 6 item 5; docs/valuation.md).
 *
 *   npm run backtest [-- --addresses N --seed S]          (default 100,000 addresses, seed 42)
 *   npx tsx bench/backtest.ts --data-dir DIR --sources DIR [--param key=json …] [--out FILE]
 *
 * Without --data-dir/--sources the synthetic region and its build are made once under
 * data/bench/ (bench/support/bench-build.ts) and reused.
 *
 * DIR is a published build (DATA_DIR layout: `current` -> `builds/<id>`, or a build folder),
 * --sources the synthetic region it was built from (its `truth/sales.csv` gives each sale's
 * true value). Every home whose latest sale falls in the final 12 months of sales is valued as
 * of the month before that sale with the service's model (service/domain/valuation-models/sale.ts).
 *
 * No leakage, by monthly cut-off re-estimation: for each of the 12 months M, everything is
 * rebuilt from the sales dated before the first day of M and the certificates lodged before it:
 * the repeat-sales index (the ETL's estimator, etl/stages/40-marts/10-price-index/area-index.ts, solved again on
 * the pairs before M, with `enough_sales` recomputed), each home's latest sale and floor
 * area, the evidence and its type effects. The home being valued takes its floor area from the
 * certificates lodged before the day of its sale (a certificate carries no price). The valuation month is M − 1 (the last month of
 * that index). A sale of month M is never seen by the model that values it, nor is anything later.
 *
 * Reported per rung and overall: median absolute percentage error (MdAPE) against the sale
 * price and against the generator's true value, share within 10% and 20% of the price, and
 * share of prices inside [lower_bound, upper_bound], each beside the oracle (the true value
 * used as the estimate). Writes bench/results/backtest-<addresses>.json unless --out says otherwise.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { solveAreaIndexes, type PathCells, type PathCount } from '../etl/stages/40-marts/10-price-index/area-index.ts';
import type { PairCell } from '../etl/stages/40-marts/10-price-index/repeat-sales.ts';
import { localMetres } from '../lib/geo/points.ts';
import { runRentalBacktest } from './backtest-rental.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { MIN_REPEAT_PAIRS, MIN_SALES_12M } from '../schemas/tables/market.ts';
import {
  IndexLookup, SALE_MODEL, SaleEvidence, UNKNOWN_TYPE, ageCode, roundValue, saleBounds, typeCode, valueSale,
  type AreaIndex, type SaleModelParams,
} from '../service/domain/valuation-models/sale.ts';

interface Sale {
  uprn: number;
  tid: string;
  price: number;
  day: number;
  month: number;
  category: string;
  saleType: string;
}

interface Home {
  uprn: number;
  x: number;
  y: number;
  type: number;
  sector: string | null;
  outcode: string | null;
  district: string | null;
  country: string | null;
  group: number;
  postcode: number;
  /** Sales in date order. */
  sales: Sale[];
  /** Certificates (lodgement day, area sq ft, age band code) in date order. */
  epc: [number, number, number][];
}

export interface Row {
  month: number;
  rung: 'High' | 'Medium' | 'Low' | 'none';
  price: number;
  trueValue: number;
  estimate: number;
  /** Component estimates (log), for measuring the rung rules. */
  own: number | null;
  sqft: number | null;
  comps: number | null;
  saleAgeMonths: number | null;
  hasArea: boolean;
  /** Type code (service/domain/valuation/sale.ts PROPERTY_TYPES order). */
  type: number;
}

export interface Metrics {
  n: number;
  mdape_vs_sale: number;
  mdape_vs_true: number;
  within_10: number;
  within_20: number;
  in_bounds: number;
  oracle: { mdape_vs_sale: number; within_10: number; within_20: number; in_bounds: number };
}

const ym = (m: number) => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;

function medianOf(v: number[]): number {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
const r1 = (x: number) => Math.round(x * 10) / 10;

export function metrics(rows: readonly { price: number; trueValue: number; estimate: number }[]): Metrics {
  const ape = (est: number, ref: number) => Math.abs(est - ref) / ref;
  const share = (f: (r: (typeof rows)[number]) => boolean) => r1((100 * rows.filter(f).length) / Math.max(1, rows.length));
  const inBounds = (est: number, price: number) => {
    const b = saleBounds(roundValue(est));
    return price >= b.lower_bound && price <= b.upper_bound;
  };
  return {
    n: rows.length,
    mdape_vs_sale: r1(100 * medianOf(rows.map((r) => ape(r.estimate, r.price)))),
    mdape_vs_true: r1(100 * medianOf(rows.map((r) => ape(r.estimate, r.trueValue)))),
    within_10: share((r) => ape(r.estimate, r.price) <= 0.1),
    within_20: share((r) => ape(r.estimate, r.price) <= 0.2),
    in_bounds: share((r) => inBounds(r.estimate, r.price)),
    oracle: {
      mdape_vs_sale: r1(100 * medianOf(rows.map((r) => ape(r.trueValue, r.price)))),
      within_10: share((r) => ape(r.trueValue, r.price) <= 0.1),
      within_20: share((r) => ape(r.trueValue, r.price) <= 0.2),
      in_bounds: share((r) => inBounds(r.trueValue, r.price)),
    },
  };
}

function buildDirOf(dataDir: string): string {
  const cur = join(dataDir, 'current');
  return existsSync(cur) ? realpathSync(cur) : resolve(dataDir);
}

async function loadHomes(buildDir: string): Promise<{ homes: Home[]; sales: Sale[] }> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const c = await db.connect();
  const pq = (t: string) => `read_parquet('${join(buildDir, `${t}.parquet`).replaceAll("'", "''")}')`;
  const cols = async (sql: string) => (await c.runAndReadAll(sql)).getColumnsObjectJS() as Record<string, unknown[]>;
  const p = await cols(`SELECT uprn::DOUBLE AS uprn, lat, lng, property_type, postcode, sector, outcode, la_code, country FROM ${pq('properties')} ORDER BY uprn`);
  const s = await cols(`SELECT uprn::DOUBLE AS uprn, transaction_id, price::DOUBLE AS price, (date - DATE '1970-01-01')::INTEGER AS day,
      (year(date) * 12 + month(date) - 1)::INTEGER AS month, category, property_type FROM ${pq('sales')} WHERE price > 0 ORDER BY uprn, date, price`);
  const e = await cols(`SELECT uprn::DOUBLE AS uprn, (lodgement_date - DATE '1970-01-01')::INTEGER AS day, total_floor_area_m2 * 10.7639 AS sqft, construction_age_band
      FROM ${pq('epc_linked')} WHERE uprn IS NOT NULL AND total_floor_area_m2 > 0 AND lodgement_date IS NOT NULL ORDER BY uprn, lodgement_date`);
  c.closeSync();
  db.closeSync();
  const groups = new Map<string, number>();
  const postcodes = new Map<string, number>();
  const homes: Home[] = [];
  const byUprn = new Map<number, Home>();
  for (let i = 0; i < p.uprn!.length; i++) {
    const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
    // A home without a position has none (NaN), as in the service: no neighbours, no one's neighbour.
    const [x, y] = p.lat![i] == null || p.lng![i] == null ? [NaN, NaN] : localMetres(Number(p.lat![i]), Number(p.lng![i]));
    const sector = str(p.sector![i]);
    const gk = sector ?? '';
    if (!groups.has(gk)) groups.set(gk, groups.size);
    const pc = str(p.postcode![i]) ?? '';
    if (!postcodes.has(pc)) postcodes.set(pc, postcodes.size);
    const h: Home = {
      uprn: Number(p.uprn![i]), x, y, type: typeCode(str(p.property_type![i])), sector, outcode: str(p.outcode![i]),
      district: str(p.la_code![i]), country: str(p.country![i]), group: groups.get(gk)!, postcode: postcodes.get(pc)!, sales: [], epc: [],
    };
    homes.push(h);
    byUprn.set(h.uprn, h);
  }
  const sales: Sale[] = [];
  for (let i = 0; i < s.uprn!.length; i++) {
    const sale: Sale = {
      uprn: Number(s.uprn![i]), tid: String(s.transaction_id![i]), price: Number(s.price![i]), day: Number(s.day![i]),
      month: Number(s.month![i]), category: String(s.category![i]), saleType: String(s.property_type![i]),
    };
    const h = byUprn.get(sale.uprn);
    if (!h) continue;
    h.sales.push(sale);
    sales.push(sale);
  }
  for (let i = 0; i < e.uprn!.length; i++) byUprn.get(Number(e.uprn![i]))?.epc.push([Number(e.day![i]), Number(e.sqft![i]), ageCode(e.construction_age_band![i] as string | null)]);
  return { homes, sales };
}

function loadTruth(sourcesDir: string): Map<string, { price: number; trueValue: number }> {
  const text = readFileSync(join(sourcesDir, 'truth', 'sales.csv'), 'utf8');
  const lines = text.split('\n');
  const head = lines[0]!.split(',');
  const [ti, pi, vi] = ['transaction_id', 'price', 'true_value'].map((k) => head.indexOf(k));
  const out = new Map<string, { price: number; trueValue: number }>();
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const f = lines[i]!.split(',');
    out.set(f[ti!]!.replace(/[{}]/g, ''), { price: Number(f[pi!]), trueValue: Number(f[vi!]) });
  }
  return out;
}

/** The repeat-sales index from the sales before month `cut` (the ETL's estimator and rules). */
function indexBefore(homes: readonly Home[], cut: number, start: number): AreaIndex {
  const T = cut - start; // months start … cut − 1
  const now = T - 1;
  const pathKey = (h: Home) => `${h.sector}|${h.outcode}|${h.district}|${h.country}`;
  const paths = new Map<string, PathCount>();
  const pairs = new Map<string, PathCells & { cellMap: Map<string, PairCell> }>();
  const recent = new Map<string, number>(); // area key → sales in the 12 months to now
  for (const h of homes) {
    const before = h.sales.filter((s) => s.month < cut);
    if (!before.length) continue;
    const k = pathKey(h);
    const path = { country: h.country, district: h.district, outcode: h.outcode, sector: h.sector };
    const pc = paths.get(k) ?? { ...path, n: 0 };
    pc.n += before.length;
    paths.set(k, pc);
    const n12 = before.filter((s) => s.month > cut - 1 - 12).length;
    if (n12) {
      for (const level of ['country', 'district', 'outcode', 'sector'] as const) {
        const code = path[level];
        if (code !== null) recent.set(`${level}:${code}`, (recent.get(`${level}:${code}`) ?? 0) + n12);
      }
    }
    for (let i = 1; i < before.length; i++) {
      const a = before[i - 1]!;
      const b = before[i]!;
      if (b.month - a.month < 6 || a.saleType !== b.saleType || a.category !== 'A' || b.category !== 'A') continue;
      const entry = pairs.get(k) ?? { ...path, cells: [], cellMap: new Map<string, PairCell>() };
      pairs.set(k, entry);
      const ck = `${a.month}:${b.month}`;
      const cell = entry.cellMap.get(ck);
      const y = Math.log(b.price / a.price);
      if (cell) {
        cell.n += 1;
        cell.sumY += y;
      } else {
        const nc = { t1: a.month - start, t2: b.month - start, n: 1, sumY: y };
        entry.cellMap.set(ck, nc);
        entry.cells.push(nc);
      }
    }
  }
  const series = solveAreaIndexes(T, [...paths.values()], [...pairs.values()]);
  const index: AreaIndex = { start, series: new Map(), enough: new Map() };
  for (const s of series) {
    const key = `${s.level}:${s.code}`;
    index.series.set(key, s.logLevel);
    const enough = new Uint8Array(T);
    enough[now] = s.pairs >= MIN_REPEAT_PAIRS && (recent.get(key) ?? 0) >= MIN_SALES_12M ? 1 : 0;
    index.enough.set(key, enough);
  }
  return index;
}

export interface BacktestResult {
  build: string;
  months: string[];
  rows: Row[];
  overall: Metrics;
  by_rung: Record<string, Metrics>;
  coverage: Record<string, number>;
  seconds: number;
}

export async function backtest(dataDir: string, sourcesDir: string, params: SaleModelParams = SALE_MODEL, log = (_: string) => {}): Promise<BacktestResult> {
  return (await backtestMany(dataDir, sourcesDir, [params], log))[0]!;
}

/** The backtest of several parameter sets over the same cut-offs (the index is solved once per month). */
export async function backtestMany(dataDir: string, sourcesDir: string, paramSets: readonly SaleModelParams[], log = (_: string) => {}, allSales = process.env.BACKTEST_LATEST_ONLY !== '1'): Promise<BacktestResult[]> {
  const t0 = performance.now();
  const buildDir = buildDirOf(dataDir);
  const { homes, sales } = await loadHomes(buildDir);
  const truth = loadTruth(sourcesDir);
  const start = sales.reduce((m, s) => Math.min(m, s.month), Infinity);
  const last = sales.reduce((m, s) => Math.max(m, s.month), -Infinity);
  const months: number[] = [];
  for (let m = last - 11; m <= last; m++) months.push(m);
  const rowSets: Row[][] = paramSets.map(() => []);
  for (const cut of months) {
    const index = indexBefore(homes, cut, start);
    const lookup = new IndexLookup(index, cut - 1);
    // Evidence: each home's latest sale before the cut, its floor area as lodged before the cut.
    const ev = { pc: [] as number[], latest: [] as number[], band: [] as number[], uprn: [] as number[], x: [] as number[], y: [] as number[], type: [] as number[], area: [] as number[], logValue: [] as number[], age: [] as number[], group: [] as number[] };
    const cutDay = Date.UTC(Math.floor(cut / 12), cut % 12, 1) / 86_400_000;
    const areaBefore = (h: Home, day = cutDay) => {
      let a = NaN;
      for (const [d, sq] of h.epc) if (d < day) a = sq;
      return a;
    };
    const ageBefore = (h: Home, day = cutDay) => {
      let a = UNKNOWN_TYPE;
      for (const [d, , band] of h.epc) if (d < day && band !== UNKNOWN_TYPE) a = band;
      return a;
    };
    for (const h of homes) {
      let last = -1;
      h.sales.forEach((s, j) => {
        if (s.day < cutDay) last = j;
      });
      if (last < 0) continue;
      const band = ageBefore(h);
      const area = areaBefore(h);
      for (let j = allSales ? 0 : last; j <= last; j++) {
        const sale = h.sales[j]!;
        const g = lookup.logGrowth(h, sale.month);
        if (g === null) continue;
        ev.uprn.push(h.uprn); ev.x.push(h.x); ev.y.push(h.y); ev.type.push(h.type); ev.area.push(area);
        ev.logValue.push(Math.log(sale.price) + g); ev.age.push(cut - 1 - sale.month); ev.group.push(h.group); ev.band.push(band); ev.latest.push(j === last ? 1 : 0); ev.pc.push(h.postcode);
      }
    }
    const cols = {
      uprn: Float64Array.from(ev.uprn), x: Float64Array.from(ev.x), y: Float64Array.from(ev.y), type: Uint8Array.from(ev.type),
      areaSqft: Float64Array.from(ev.area), logValue: Float64Array.from(ev.logValue), ageMonths: Int32Array.from(ev.age), group: Int32Array.from(ev.group), age: Uint8Array.from(ev.band), latest: Uint8Array.from(ev.latest), postcode: Int32Array.from(ev.pc),
    };
    let n = 0;
    let evSize = 0;
    paramSets.forEach((params, k) => {
      const evidence = new SaleEvidence(cols, params);
      evSize = evidence.size;
      for (const h of homes) {
        const target = h.sales.at(-1);
        if (!target || target.month !== cut) continue;
        const t = truth.get(target.tid.replace(/[{}]/g, ''));
        if (!t) continue;
        let prev: Sale | undefined;
        for (const s of h.sales) if (s.day < cutDay) prev = s;
        // Its floor area as known the day before the sale (a certificate carries no price).
        const area = areaBefore(h, target.day);
        const subject = {
          uprn: h.uprn, x: h.x, y: h.y, type: h.type, areaSqft: Number.isNaN(area) ? null : area, age: ageBefore(h, target.day), postcode: h.postcode, path: h,
          lastSale: prev ? { price: prev.price, month: prev.month } : null,
        };
        const est = valueSale(subject, lookup, evidence);
        const g = prev ? lookup.logGrowth(h, prev.month) : null;
        const sq = subject.areaSqft ? evidence.sqftEstimate(h.x, h.y, h.uprn, h.type, subject.areaSqft, subject.age, h.postcode) : null;
        const cp = evidence.compsEstimate(h.x, h.y, h.uprn, h.type);
        rowSets[k]!.push({
          month: cut, rung: est.value === null ? 'none' : est.confidence, price: target.price, trueValue: t.trueValue,
          estimate: est.log === undefined ? NaN : Math.exp(est.log),
          own: prev && g !== null ? Math.log(prev.price) + g : null, sqft: sq?.log ?? null, comps: cp?.log ?? null,
          saleAgeMonths: prev ? cut - 1 - prev.month : null, hasArea: subject.areaSqft !== null, type: h.type,
        });
        if (k === 0) n++;
      }
    });
    log(`${ym(cut)}: ${n} homes valued, ${evSize} evidence sales, ${Math.round(performance.now() - t0)} ms`);
  }
  const seconds = Math.round((performance.now() - t0) / 100) / 10;
  return rowSets.map((rows) => {
    const valued = rows.filter((r) => r.rung !== 'none');
    const by_rung: Record<string, Metrics> = {};
    for (const rung of ['High', 'Medium', 'Low'] as const) by_rung[rung] = metrics(valued.filter((r) => r.rung === rung));
    const coverage: Record<string, number> = {};
    for (const rung of ['High', 'Medium', 'Low', 'none']) coverage[rung] = rows.filter((r) => r.rung === rung).length;
    return { build: buildDir, months: months.map(ym), rows, overall: metrics(valued), by_rung, coverage, seconds };
  });
}

/**
 * Per rung and property type, and the High rung by the anchor it was blended with (the
 * £/sq ft estimate where the home has a floor area, else the comparables): the figures issue
 * 48 asks for beside the real Bristol ones (bench/backtest-bristol.ts).
 */
export function rungTypeTable(rows: readonly Row[]) {
  const names = ['Detached', 'Semi-Detached', 'Terraced', 'Flat'];
  const valued = rows.filter((r) => r.rung !== 'none');
  const short = (m: Metrics) => ({ n: m.n, mdape_vs_sale: m.mdape_vs_sale, mdape_vs_true: m.mdape_vs_true, within_10: m.within_10, in_bounds: m.in_bounds });
  const by_rung_type: Record<string, Record<string, ReturnType<typeof short>>> = {};
  for (const rung of ['High', 'Medium', 'Low'] as const) {
    by_rung_type[rung] = Object.fromEntries(names.map((nm, t) => [nm, short(metrics(valued.filter((r) => r.rung === rung && r.type === t)))]));
  }
  const high = valued.filter((r) => r.rung === 'High');
  const high_by_anchor = {
    sqft: short(metrics(high.filter((r) => r.hasArea && r.sqft !== null))),
    comparables: short(metrics(high.filter((r) => !(r.hasArea && r.sqft !== null) && r.comps !== null))),
    none: short(metrics(high.filter((r) => r.sqft === null && r.comps === null))),
  };
  return { by_rung_type, high_by_anchor };
}

/** Component estimates side by side (for the rung rules), by sale age for homes with a last sale. */
export function componentTable(rows: readonly Row[]) {
  const mk = (sel: readonly Row[], f: (r: Row) => number | null) => {
    const ok = sel.filter((r) => f(r) !== null);
    return ok.length ? { n: ok.length, ...pick(metrics(ok.map((r) => ({ price: r.price, trueValue: r.trueValue, estimate: Math.exp(f(r)!) })))) } : null;
  };
  const pick = (m: Metrics) => ({ vs_sale: m.mdape_vs_sale, vs_true: m.mdape_vs_true, w10: m.within_10 });
  const buckets: [string, number, number][] = [['<2y', 0, 23], ['2-5y', 24, 59], ['5-10y', 60, 119], ['10-15y', 120, 179], ['15y+', 180, 1e9]];
  const out: Record<string, unknown> = {};
  for (const [name, lo, hi] of buckets) {
    const sel = rows.filter((r) => r.saleAgeMonths !== null && r.saleAgeMonths >= lo && r.saleAgeMonths <= hi);
    out[name] = { n: sel.length, own: mk(sel, (r) => r.own), sqft: mk(sel, (r) => r.sqft), comps: mk(sel, (r) => r.comps), model: mk(sel, (r) => (r.rung === 'none' ? null : Math.log(r.estimate))) };
  }
  const noSale = rows.filter((r) => r.saleAgeMonths === null);
  out.no_last_sale = { n: noSale.length, sqft: mk(noSale, (r) => r.sqft), comps: mk(noSale, (r) => r.comps) };
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const get = (k: string) => {
    const i = args.indexOf(`--${k}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  let dataDir = get('data-dir');
  let sources = get('sources');
  if (!dataDir !== !sources) {
    console.error('usage: npx tsx bench/backtest.ts [--addresses N] [--seed S] | [--data-dir DIR --sources DIR] [--param key=json …] [--out FILE]');
    process.exit(2);
  }
  if (!dataDir || !sources) {
    const made = await ensureBenchBuild(Number(get('addresses') ?? 100_000), Number(get('seed') ?? 42));
    dataDir = made.dataDir;
    sources = made.region;
  }
  const params: SaleModelParams = { ...SALE_MODEL };
  args.forEach((a, i) => {
    if (a !== '--param') return;
    const [k, v] = args[i + 1]!.split('=');
    (params as unknown as Record<string, unknown>)[k!] = JSON.parse(v!);
  });
  const res = await backtest(dataDir, sources, params, (m) => console.error(m));
  const manifest = JSON.parse(readFileSync(join(sources, 'manifest.json'), 'utf8')) as { addresses: number; seed: number };
  const out = {
    command: `npx tsx bench/backtest.ts ${args.join(' ')}`,
    region: { addresses: manifest.addresses, seed: manifest.seed },
    params, months: res.months, coverage: res.coverage, overall: res.overall, by_rung: res.by_rung,
    ...rungTypeTable(res.rows), components_by_sale_age: componentTable(res.rows), seconds: res.seconds,
  };
  console.log(JSON.stringify(out, null, 1));
  const file = get('out') ?? join(import.meta.dirname, 'results', `backtest-${manifest.addresses}.json`);
  if (file !== '-') {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
  }
  // The rental valuation backtest on the same build (bench/backtest-rental.ts).
  await runRentalBacktest(dataDir, sources, undefined, `npx tsx bench/backtest-rental.ts --data-dir ${dataDir} --sources ${sources}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
