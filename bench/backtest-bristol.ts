/**
 * The sale valuation backtest on the real Bristol Price Paid sample, where it applies
 * (docs/valuation.md). The sample (`_derived_not_original/bristol_houseprice_dataset_2024.csv.xlsx`
 * in the shared raw folder: HM Land Registry Price Paid for BS postcodes, 2024 only, SAON
 * dropped) has no UPRNs, no floor areas and one year of sales, so:
 *  - High (`last_sold_growth`) does not apply: a home's earlier sale is not in the file (a
 *    repeat within 2024 is counted, not valued);
 *  - Medium (`sqft_estimate`) does not apply: no floor areas (no certificates are linked);
 *  - Low (`comparables`) applies: positions from OS Code-Point Open (`bs.csv`, eastings and
 *    northings are metres), and each sale of month M (February to December) is valued with
 *    the service's comparables code (`SaleEvidence.compsEstimate`) from the category A sales
 *    before the first day of M, brought to month M − 1 with the UK HPI for England (the only
 *    monthly HPI in the raw samples). No truth, so no oracle and no error against true value.
 *
 *   npx tsx bench/backtest-bristol.ts [--raw ../shared/data/raw]
 * Writes bench/results/backtest-bristol-2024.json.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { IndexLookup, SALE_MODEL, SaleEvidence, UNKNOWN_TYPE, roundValue, saleBounds, valueSale } from '../service/domain/valuation-models/sale.ts';

/** The files of a zip archive (stored or deflated), by name. */
function unzip(buf: Buffer): Map<string, Buffer> {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip central directory');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataStart, dataStart + size);
    out.set(name, method === 8 ? inflateRawSync(data) : data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

const unxml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** The first sheet of an .xlsx as rows of cells keyed by column letter. */
export function readXlsx(path: string): Record<string, string>[] {
  const files = unzip(readFileSync(path));
  const shared: string[] = [];
  const ss = files.get('xl/sharedStrings.xml')?.toString('utf8') ?? '';
  for (const m of ss.matchAll(/<si>([\s\S]*?)<\/si>/g)) shared.push(unxml([...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join('')));
  const sheet = files.get('xl/worksheets/sheet1.xml')!.toString('utf8');
  const rows: Record<string, string>[] = [];
  for (const r of sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)) {
    const row: Record<string, string> = {};
    for (const c of r[1]!.matchAll(/<c r="([A-Z]+)\d+"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[2] ?? '';
      const body = c[3] ?? '';
      const v = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      const inline = /<t[^>]*>([\s\S]*?)<\/t>/.exec(body)?.[1];
      row[c[1]!] = /t="s"/.test(attrs) ? (shared[Number(v)] ?? '') : unxml(v ?? inline ?? '');
    }
    rows.push(row);
  }
  return rows;
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n ? (n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2) : NaN;
};
const r1 = (x: number) => Math.round(x * 10) / 10;

export interface BristolResult {
  sales_read: number;
  sales_used: number;
  repeat_sales_in_year: number;
  valued: number;
  no_comparables: number;
  mdape_vs_sale: number;
  within_10: number;
  within_20: number;
  in_bounds: number;
  by_type: Record<string, { n: number; mdape_vs_sale: number; within_10: number }>;
}

interface S { key: string; price: number; month: number; day: number; type: number; x: number; y: number; cat: string }

/** The real 2024 Bristol sales (positions from Code-Point, newest status), keyed by address, and UK HPI England by month. */
function loadBristol(raw: string): { rowsRead: number; sales: S[]; keys: Map<string, number>; hpi: Map<number, number> } {
  const rows = readXlsx(join(raw, '_derived_not_original', 'bristol_houseprice_dataset_2024.csv.xlsx'));
  const head = rows[0]!;
  const col = Object.fromEntries(Object.entries(head).map(([k, v]) => [v, k]));
  const pos = new Map<string, [number, number]>();
  for (const line of readFileSync(join(raw, 'postcodes', 'codepoint_open_2024-01', 'bs.csv'), 'utf8').split('\n')) {
    const f = line.split(',');
    if (f.length < 4) continue;
    pos.set(f[0]!.replace(/"/g, '').replace(/\s+/g, ' ').trim(), [Number(f[2]), Number(f[3])]);
  }
  // UK HPI England, monthly, as month number → index.
  const hpi = new Map<number, number>();
  const hl = readFileSync(join(raw, 'ukhpi', 'app_download_city_of_london', 'england.csv'), 'utf8').split('\n');
  const hh = hl[0]!.split('","').map((s) => s.replace(/"/g, ''));
  const pi = hh.indexOf('Period');
  const ii = hh.indexOf('House price index All property types');
  for (const l of hl.slice(1)) {
    const f = l.split(',');
    if (!f[pi]) continue;
    const [y, m] = f[pi]!.split('-').map(Number);
    hpi.set(y! * 12 + m! - 1, Number(f[ii]));
  }
  const TYPES: Record<string, number> = { D: 0, S: 1, T: 2, F: 3 };
  const sales: S[] = [];
  for (const r of rows.slice(1)) {
    const pc = (r[col.Postcode!] ?? '').trim();
    const p = pos.get(pc);
    const serial = Number(r[col.Date!]);
    const price = Number(r[col.Price!]);
    if (!p || !(serial > 0) || !(price > 0) || r[col.Record_Status!] === 'D') continue;
    const d = new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000);
    sales.push({
      key: `${pc}|${r[col.Address_Number!] ?? ''}|${r[col.Street!] ?? ''}`, price, day: Math.floor(d.getTime() / 86_400_000),
      month: d.getUTCFullYear() * 12 + d.getUTCMonth(), type: TYPES[r[col.Property_Type!] ?? ''] ?? UNKNOWN_TYPE, x: p[0], y: p[1], cat: r[col.Category_Type!] ?? 'A',
    });
  }
  sales.sort((a, b) => a.day - b.day);
  const keys = new Map<string, number>();
  for (const s of sales) if (!keys.has(s.key)) keys.set(s.key, keys.size);
  return { rowsRead: rows.length - 1, sales, keys, hpi };
}

/** The evidence the service's comparables code sees at valuation month `now`: category A sales before month M, brought to `now` by the HPI. */
function evidenceBefore(sales: S[], keys: Map<string, number>, M: number, g: (m: number) => number): SaleEvidence {
  const now = M - 1;
  const before = sales.filter((s) => s.month < M && s.cat === 'A');
  const latestIdx = new Map<number, number>();
  before.forEach((s, i) => latestIdx.set(keys.get(s.key)!, i));
  const n = before.length;
  return new SaleEvidence({
    uprn: Float64Array.from(before, (s) => keys.get(s.key)!), x: Float64Array.from(before, (s) => s.x), y: Float64Array.from(before, (s) => s.y),
    type: Uint8Array.from(before, (s) => s.type), areaSqft: new Float64Array(n).fill(NaN), logValue: Float64Array.from(before, (s) => Math.log(s.price) + g(s.month)),
    ageMonths: Int32Array.from(before, (s) => now - s.month), group: new Int32Array(n), age: new Uint8Array(n).fill(UNKNOWN_TYPE),
    latest: Uint8Array.from(before, (s, i) => (latestIdx.get(keys.get(s.key)!) === i ? 1 : 0)), postcode: new Int32Array(n).fill(-1),
  }, SALE_MODEL);
}

export function bristolBacktest(raw: string): BristolResult {
  const { rowsRead, sales, keys, hpi } = loadBristol(raw);
  const repeats = sales.length - keys.size;
  const months = [...new Set(sales.map((s) => s.month))].sort((a, b) => a - b);
  const res: { ape: number; inB: boolean; type: number }[] = [];
  let none = 0;
  for (const M of months.slice(1)) {
    const now = M - 1;
    const g = (m: number) => Math.log((hpi.get(now) ?? hpi.get(m)!) / hpi.get(m)!);
    const ev = evidenceBefore(sales, keys, M, g);
    for (const s of sales.filter((t) => t.month === M)) {
      const e = ev.compsEstimate(s.x, s.y, keys.get(s.key)!, s.type);
      if (!e) {
        none++;
        continue;
      }
      const v = roundValue(Math.exp(e.log));
      const b = saleBounds(v);
      res.push({ ape: Math.abs(v - s.price) / s.price, inB: s.price >= b.lower_bound && s.price <= b.upper_bound, type: s.type });
    }
  }
  const sum = (sel: typeof res) => ({
    n: sel.length, mdape_vs_sale: r1(100 * median(sel.map((r) => r.ape))), within_10: r1((100 * sel.filter((r) => r.ape <= 0.1).length) / Math.max(1, sel.length)),
  });
  const names = ['Detached', 'Semi-Detached', 'Terraced', 'Flat'];
  return {
    sales_read: rowsRead, sales_used: sales.length, repeat_sales_in_year: repeats, valued: res.length, no_comparables: none,
    ...sum(res), within_20: r1((100 * res.filter((r) => r.ape <= 0.2).length) / Math.max(1, res.length)), in_bounds: r1((100 * res.filter((r) => r.inB).length) / Math.max(1, res.length)),
    by_type: Object.fromEntries(names.map((nm, t) => [nm, sum(res.filter((r) => r.type === t))])),
  } as BristolResult;
}

/** Weights of the home's own indexed sale against the comparables anchor that the High-rung backtest tries (1: the own sale alone). */
export const HIGH_WEIGHTS_TRIED = [0, 0.25, 0.5, 0.75, 1] as const;

export interface HighRungCell {
  n: number;
  /** Per weight tried. */
  mdape: number[];
  within_10: number[];
  /** The service's own answer (valueSale with SALE_MODEL, rounded as served), and how often the price is inside its ±10% bounds. */
  service: { mdape: number; within_10: number; in_bounds: number };
}
export interface HighRungResult {
  pairs: number;
  no_anchor: number;
  weights: readonly number[];
  segments: Record<string, HighRungCell>;
}

/**
 * The High rung on the sample's real repeat sales (issue 48): a home sold twice in 2024 is
 * valued at its second sale's month from its first sale grown by the HPI (the own figure) and
 * from the comparables anchor (the service's code, on the sales before that month), blended
 * with the own figure's weight w as the service blends (the outlier shrink included). Flats are
 * reported apart: the sample dropped SAON, so two flats of one building share an address key.
 */
export function bristolHighRung(raw: string): HighRungResult {
  const { sales, keys, hpi } = loadBristol(raw);
  const months = [...new Set(sales.map((s) => s.month))].sort((a, b) => a - b);
  const seg = new Map<string, { tried: number[][]; service: { ape: number; inB: boolean }[] }>();
  const push = (name: string, apes: number[], service: { ape: number; inB: boolean }) => {
    let cell = seg.get(name);
    if (!cell) seg.set(name, (cell = { tried: HIGH_WEIGHTS_TRIED.map(() => []), service: [] }));
    apes.forEach((a, k) => cell!.tried[k]!.push(a));
    cell.service.push(service);
  };
  // The HPI as the service's area index (one area, England), for valueSale itself.
  const start = Math.min(...hpi.keys());
  const level = Float64Array.from({ length: Math.max(...hpi.keys()) - start + 1 }, (_, t) => Math.log(hpi.get(start + t) ?? NaN));
  const areaIndex = { start, series: new Map([['country:England', level]]), enough: new Map([['country:England', new Uint8Array(level.length).fill(1)]]) };
  const path = { sector: null, outcode: null, district: null, country: 'England' };
  let pairs = 0;
  let noAnchor = 0;
  const names = ['Detached', 'Semi-Detached', 'Terraced', 'Flat'];
  for (const M of months.slice(1)) {
    const now = M - 1;
    const g = (m: number) => Math.log((hpi.get(now) ?? hpi.get(m)!) / hpi.get(m)!);
    const ev = evidenceBefore(sales, keys, M, g);
    const last = new Map<string, S>();
    for (const s of sales) if (s.month < M) last.set(s.key, s);
    for (const s of sales.filter((t) => t.month === M)) {
      const prev = last.get(s.key);
      if (!prev || s.cat !== 'A') continue;
      pairs++;
      const anchor = ev.compsEstimate(s.x, s.y, keys.get(s.key)!, s.type);
      if (!anchor) {
        noAnchor++;
        continue;
      }
      const own = Math.log(prev.price) + g(prev.month);
      const d = own - anchor.log;
      const shrink = Math.abs(d) > SALE_MODEL.highOutlierLog ? SALE_MODEL.highOutlierLog / Math.abs(d) : 1;
      const apes = HIGH_WEIGHTS_TRIED.map((w) => {
        const wt = w === 1 ? 1 : w * shrink;
        return Math.abs(Math.exp(anchor.log + wt * d) - s.price) / s.price;
      });
      const served = valueSale(
        { uprn: keys.get(s.key)!, x: s.x, y: s.y, type: s.type, areaSqft: null, age: UNKNOWN_TYPE, postcode: -1, path, lastSale: { price: prev.price, month: prev.month } },
        new IndexLookup(areaIndex, now),
        ev,
      );
      if (served.value === null) throw new Error('the service gave no value where the own sale and comparables exist');
      const b = saleBounds(served.value);
      const service = { ape: Math.abs(served.value - s.price) / s.price, inB: s.price >= b.lower_bound && s.price <= b.upper_bound };
      const house = s.type !== 3;
      push(house ? 'houses' : 'flats (address keys shared)', apes, service);
      push(names[s.type] ?? 'unknown type', apes, service);
      if (house) {
        push(s.month - prev.month < 6 ? 'houses, resold within 6 months' : 'houses, resold after 6 months or more', apes, service);
        if (prev.cat === 'B') push('houses, earlier sale category B', apes, service);
      }
    }
  }
  const segments: Record<string, HighRungCell> = {};
  const share = (n: number, of: number) => r1((100 * n) / Math.max(1, of));
  for (const [name, cell] of seg) {
    const sv = cell.service;
    segments[name] = {
      n: sv.length,
      mdape: cell.tried.map((a) => r1(100 * median(a))),
      within_10: cell.tried.map((a) => share(a.filter((x) => x <= 0.1).length, a.length)),
      service: { mdape: r1(100 * median(sv.map((x) => x.ape))), within_10: share(sv.filter((x) => x.ape <= 0.1).length, sv.length), in_bounds: share(sv.filter((x) => x.inB).length, sv.length) },
    };
  }
  return { pairs, no_anchor: noAnchor, weights: HIGH_WEIGHTS_TRIED, segments };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--raw');
  const raw = resolve(i >= 0 ? process.argv[i + 1]! : join(import.meta.dirname, '..', '..', 'shared', 'data', 'raw'));
  const out = {
    command: 'npx tsx bench/backtest-bristol.ts',
    rung: 'Low / comparables on every sale; High on the repeat sales within 2024',
    ...bristolBacktest(raw),
    high_rung: bristolHighRung(raw),
  };
  console.log(JSON.stringify(out, null, 1));
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'backtest-bristol-2024.json'), JSON.stringify(out, null, 1) + '\n');
}
