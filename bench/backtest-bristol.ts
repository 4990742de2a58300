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
import { SALE_MODEL, SaleEvidence, UNKNOWN_TYPE, roundValue, saleBounds } from '../service/domain/valuation-models/sale.ts';

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

export function bristolBacktest(raw: string): BristolResult {
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
  interface S { key: string; price: number; month: number; day: number; type: number; x: number; y: number; cat: string }
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
  const repeats = sales.length - keys.size;
  const months = [...new Set(sales.map((s) => s.month))].sort((a, b) => a - b);
  const res: { ape: number; inB: boolean; type: number }[] = [];
  let none = 0;
  for (const M of months.slice(1)) {
    const now = M - 1;
    const before = sales.filter((s) => s.month < M && s.cat === 'A');
    const latestIdx = new Map<number, number>();
    before.forEach((s, i) => latestIdx.set(keys.get(s.key)!, i));
    const n = before.length;
    const g = (m: number) => Math.log((hpi.get(now) ?? hpi.get(m)!) / hpi.get(m)!);
    const ev = new SaleEvidence({
      uprn: Float64Array.from(before, (s) => keys.get(s.key)!), x: Float64Array.from(before, (s) => s.x), y: Float64Array.from(before, (s) => s.y),
      type: Uint8Array.from(before, (s) => s.type), areaSqft: new Float64Array(n).fill(NaN), logValue: Float64Array.from(before, (s) => Math.log(s.price) + g(s.month)),
      ageMonths: Int32Array.from(before, (s) => now - s.month), group: new Int32Array(n), age: new Uint8Array(n).fill(UNKNOWN_TYPE),
      latest: Uint8Array.from(before, (s, i) => (latestIdx.get(keys.get(s.key)!) === i ? 1 : 0)), postcode: new Int32Array(n).fill(-1),
    }, SALE_MODEL);
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
    sales_read: rows.length - 1, sales_used: sales.length, repeat_sales_in_year: repeats, valued: res.length, no_comparables: none,
    ...sum(res), within_20: r1((100 * res.filter((r) => r.ape <= 0.2).length) / Math.max(1, res.length)), in_bounds: r1((100 * res.filter((r) => r.inB).length) / Math.max(1, res.length)),
    by_type: Object.fromEntries(names.map((nm, t) => [nm, sum(res.filter((r) => r.type === t))])),
  } as BristolResult;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--raw');
  const raw = resolve(i >= 0 ? process.argv[i + 1]! : join(import.meta.dirname, '..', '..', 'shared', 'data', 'raw'));
  const out = { command: 'npx tsx bench/backtest-bristol.ts', rung: 'Low / comparables (the only rung the sample supports)', ...bristolBacktest(raw) };
  console.log(JSON.stringify(out, null, 1));
  const dir = join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'backtest-bristol-2024.json'), JSON.stringify(out, null, 1) + '\n');
}
