/**
 * The rent lets, sqft sales and postcode points read where they lie (issue 46, ADR 0015 step 6):
 *
 *   node --import tsx bench/evidence-files.ts [--addresses 1000000] [--runs 3] [--queries 2000] [--cells 250,500,1000]
 *
 * 1. Cell size: the files written again from the bench build's tables at each size (the specs'
 *    SQL with its size replaced), each searched as the service searches it: the lets within
 *    1,300 m (a rental valuation) and 1,500 m (GET /rents/long-term by radius), the sales within
 *    1,000 m (the GDV's usual rung), the nearest postcode within 2 km (a bare point's country),
 *    around homes drawn evenly from the build; CPU per search and block-cache misses per search
 *    on a 64 MB cache (the build's default).
 * 2. File against heap: the same build's resources opened from its files and from a view of it
 *    without them (a build published before them), alternated within each run (the order swapped
 *    run to run): CPU per rental valuation (RentalValuer.value), per GET /rents/long-term answer
 *    by radius (1,500 m) and by sector (letsIn and summariseLets, the route's work without its memo).
 *
 * Medians of `--runs`. Writes bench/results/evidence-files-<addresses>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BlockCache } from '../lib/files/block-file.ts';
import { CellPoints } from '../lib/files/cell-points.ts';
import { EVIDENCE_FILES } from '../lib/files/evidence-files.ts';
import { KeyedRowsFile, KeyedRowsWriter, type Value } from '../lib/files/keyed-rows-file.ts';
import { lookupSql, type LookupFileSpec } from '../lib/files/lookup-tables-format.ts';
import { BuildResources } from '../service/build/resources.ts';
import { summariseLets, type RentArea } from '../service/domain/rents.ts';
import { letsIn } from '../service/valuers/evidence.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADDRESSES = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
const QUERIES = arg('queries', 2000);
const CELLS = argStr('cells', '250,500,1000').split(',').map(Number);
const command = `node --import tsx bench/evidence-files.ts ${process.argv.slice(2).join(' ')}`.trim();
const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

const bench = await ensureBenchBuild(ADDRESSES, 42, log);
const buildDir = readFileSync(join(bench.dataDir, 'current', 'manifest.json')) && join(bench.dataDir, 'current');
const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string; artifacts: Record<string, unknown> };
const tmp = mkdtempSync(join(tmpdir(), 'evidence-files-'));
const loadStart = loadAverage();

// Homes to search around, evenly through the build.
const duck = await DuckDBInstance.create(':memory:');
const conn = await duck.connect();
for (const t of ['rent_lets', 'properties', 'sqft_sales', 'postcodes']) await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(buildDir, `${t}.parquet`)}')`);
const homeRows = (await conn.runAndReadAll(`SELECT uprn::DOUBLE AS uprn, lat, lng FROM properties WHERE lat IS NOT NULL AND bedrooms IS NOT NULL ORDER BY hash(uprn) LIMIT ${QUERIES}`)).getRowObjectsJS() as Array<{ uprn: number; lat: number; lng: number }>;
const sectors = (await conn.runAndReadAll(`SELECT DISTINCT sector FROM rent_lets ORDER BY hash(sector) LIMIT ${Math.min(QUERIES, 500)}`)).getRowObjectsJS().map((r) => r.sector as string);

/** A spec's file written again at cell size `m` (its SQL's size replaced), as the ETL writes it. */
async function writeAt(spec: LookupFileSpec & { cell: { m: number } }, m: number): Promise<string> {
  const path = join(tmp, `${m}-${spec.file}`);
  await conn.run(lookupSql('cell_key_macro'));
  const sql = lookupSql(spec.query).replace(new RegExp(`(cell_key\\([^)]*,\\s*)${spec.cell.m}\\)`), `$1${m})`);
  const writer = new KeyedRowsWriter(path, { key: spec.key, columns: [...spec.columns], unique: false, extra: { cell: { ...spec.cell, m } } });
  for (const row of (await conn.runAndReadAll(sql)).getRowObjectsJS()) {
    const r = row as Record<string, unknown>;
    if (r.cell === null) continue;
    writer.add(Number(r.cell), spec.columns.map((c) => (typeof r[c.name] === 'bigint' ? Number(r[c.name]) : (r[c.name] as Value))));
  }
  writer.finish();
  return path;
}

type Pt = { lat: number; lng: number };
/** CPU µs and cache misses per search, `search` run once per home. */
function timeSearches(cache: BlockCache, search: (p: Pt) => number): { cpu_us: number; misses: number; rows: number } {
  const m0 = cache.stats.misses;
  const c0 = process.cpuUsage();
  let rows = 0;
  for (const h of homeRows) rows += search(h);
  const c = process.cpuUsage(c0);
  return { cpu_us: r2((c.user + c.system) / homeRows.length), misses: r2((cache.stats.misses - m0) / homeRows.length), rows: r2(rows / homeRows.length) };
}

// 1. Cell sizes.
const cellRuns: Record<string, Array<Record<string, unknown>>> = {};
const cellFiles: Record<number, { lets: string; sales: string; postcodes: string }> = {};
for (const m of CELLS) {
  log(`writing the point files at ${m} m …`);
  cellFiles[m] = { lets: await writeAt(EVIDENCE_FILES.rentLets, m), sales: await writeAt(EVIDENCE_FILES.sqftSales, m), postcodes: await writeAt(EVIDENCE_FILES.postcodePoints, m) };
}
for (let run = 0; run < RUNS; run++) {
  for (const m of run % 2 ? [...CELLS].reverse() : CELLS) {
    const cache = new BlockCache(64 << 20);
    const open = (p: string) => new CellPoints(KeyedRowsFile.open<{ lat: number; lng: number }>(p, cache), m);
    const [lets, sales, pcs] = [open(cellFiles[m]!.lets), open(cellFiles[m]!.sales), open(cellFiles[m]!.postcodes)];
    const within = (cp: CellPoints<{ lat: number; lng: number }>, r: number) => (p: Pt) => {
      let n = 0;
      cp.within(p.lat, p.lng, r, () => n++);
      return n;
    };
    within(lets, 1_300)(homeRows[0]!); // open the pages' first use outside the timing
    const row = {
      cell_m: m,
      lets_1300: timeSearches(cache, within(lets, 1_300)),
      lets_1500: timeSearches(cache, within(lets, 1_500)),
      sales_1000: timeSearches(cache, within(sales, 1_000)),
      postcode_nearest: timeSearches(cache, (p) => pcs.nearest(p.lat, p.lng, 8, 2_000).length),
    };
    (cellRuns[m] ??= []).push(row);
    for (const cp of [lets, sales, pcs]) cp.file.close();
    log(`run ${run + 1} cell ${m} m: ${JSON.stringify(row)}`);
  }
}
const med = (rows: Array<Record<string, unknown>>, k: string) => {
  const xs = rows.map((r) => r[k] as { cpu_us: number; misses: number; rows: number });
  return { cpu_us: r2(median(xs.map((x) => x.cpu_us))), misses: r2(median(xs.map((x) => x.misses))), rows: xs[0]!.rows };
};
const cells = CELLS.map((m) => ({ cell_m: m, ...Object.fromEntries(['lets_1300', 'lets_1500', 'sales_1000', 'postcode_nearest'].map((k) => [k, med(cellRuns[m]!, k)])) }));

// 2. File against heap, on the build and on a view of it without the files.
const view = join(tmp, 'heap-view');
mkdirSync(view);
const evidence = new Set<string>(Object.values(EVIDENCE_FILES).map((s) => s.file));
for (const f of readdirSync(buildDir)) if (f !== 'manifest.json' && !evidence.has(f)) symlinkSync(join(buildDir, f), join(view, f));
const heapManifest = structuredClone(manifest);
for (const s of Object.values(EVIDENCE_FILES)) delete heapManifest.artifacts[s.artifact];
writeFileSync(join(view, 'manifest.json'), JSON.stringify(heapManifest));
const ways = {
  file: new BuildResources({ id: manifest.build_id, dir: buildDir, manifest }),
  heap: new BuildResources({ id: manifest.build_id, dir: view, manifest: heapManifest }),
};
const loadMs: Record<string, number> = {};
for (const [name, res] of Object.entries(ways)) {
  const t0 = performance.now();
  await res.rentLets.get();
  loadMs[name] = Math.round(performance.now() - t0);
  await res.rentalValuer.get();
}
const perRequest: Record<string, Record<string, number[]>> = { file: {}, heap: {} };
const cpuPer = (n: number, f: () => void) => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
};
for (let run = 0; run < RUNS; run++) {
  for (const name of (run % 2 ? ['heap', 'file'] : ['file', 'heap']) as Array<'file' | 'heap'>) {
    const res = ways[name];
    const [valuer, lets] = [(await res.rentalValuer.get())!, await res.rentLets.get()];
    for (const h of homeRows.slice(0, 100)) valuer.value(h.uprn, undefined); // warm the JIT and the cache
    const out = perRequest[name]!;
    (out.rental_valuation_us ??= []).push(cpuPer(homeRows.length, () => {
      for (const h of homeRows) valuer.value(h.uprn, undefined);
    }));
    (out.rents_radius_1500_us ??= []).push(cpuPer(homeRows.length, () => {
      for (const h of homeRows) summariseLets(letsIn(lets, { level: 'radius', lat: h.lat, lng: h.lng, radius_m: 1_500, label: '' } as RentArea, null, null));
    }));
    (out.rents_sector_us ??= []).push(cpuPer(sectors.length, () => {
      for (const s of sectors) summariseLets(letsIn(lets, { level: 'sector', code: s, label: s } as RentArea, null, null));
    }));
    log(`run ${run + 1} ${name}: ${JSON.stringify(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, r2(v.at(-1)!)])))}`);
  }
}
for (const res of Object.values(ways)) await res.close();
const per = (name: 'file' | 'heap') => Object.fromEntries(Object.entries(perRequest[name]!).map(([k, v]) => [k, r2(median(v))]));
const [file, heap] = [per('file'), per('heap')];
const out = {
  bench: 'evidence-files', command, addresses: ADDRESSES, runs: RUNS, queries: homeRows.length, sectors: sectors.length,
  when: new Date().toISOString(), commit: gitCommit(ROOT), machine: describeMachine(), load_average_start: loadStart, load_average_end: loadAverage(),
  file_bytes: Object.fromEntries(Object.values(EVIDENCE_FILES).map((s) => [s.file, readFileSync(join(buildDir, s.file)).length])),
  cells,
  per_request_cpu_us: { file, heap, file_over_heap: Object.fromEntries(Object.keys(file).map((k) => [k, r2(file[k]! / heap[k]!)])) },
  rent_lets_open_ms: loadMs,
  raw: { cells: cellRuns, per_request: perRequest },
};
conn.closeSync();
duck.closeSync();
rmSync(tmp, { recursive: true, force: true });
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'results', `evidence-files-${ADDRESSES}.json`), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify({ cells, per_request_cpu_us: out.per_request_cpu_us, rent_lets_open_ms: loadMs }, null, 2)}\n`);
