/**
 * GET /str/market's work per request with the market set read from its files (str-market*.rows,
 * ADR 0015 step 6) against the set in the heap, side by side on one bench build (the heap's
 * from a view of it whose manifest lists no STR files: bench/support/str-in-heap.ts).
 *
 *   node --import tsx bench/str-market-files.ts [--addresses 1000000] [--seed 42] [--runs 3]
 *
 * The requests: a full postcode's 1 km circle around every 5th listing's point, every sector and
 * every outcode of the build, all sections. Each is answered as the route answers it (locate,
 * select, filter, every section, JSON) by both paths, which must give the same text. Per run,
 * the CPU time (process.cpuUsage) of one pass over every request, files then heap alternated
 * (the order swapped each run); medians over `--runs`. Also: opening each path (the heap's
 * load, the files' open) and the files' first grade benchmark (a pass over the sectors, made on
 * the first request that grades). Writes bench/results/str-market-files-<N>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BuildResources } from '../service/build/resources.ts';
import { SECTIONS, marketSections } from '../service/domain/str/market.ts';
import type { StrMarket } from '../service/str/market-set.ts';
import { POSTCODE_RADIUS_M } from '../service/str/locate.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, median, r2 } from './support/stats.ts';
import { strInHeapView } from './support/str-in-heap.ts';

const ROOT = resolve(import.meta.dirname, '..');
const N = arg('addresses', 1_000_000);
const SEED = arg('seed', 42);
const RUNS = arg('runs', 3);
const log = (m: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

const { dataDir } = await ensureBenchBuild(N, SEED, log);
const published = realpathSync(join(dataDir, 'current'));
const views = tempDir('pi-str-files-');
const heapDir = strInHeapView(published, join(views.dir, 'heap'));

// The places, from the published listings.
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const rows = (await conn.runAndReadAll(`SELECT lat::DOUBLE AS lat, lng::DOUBLE AS lng, sector, outcode FROM read_parquet('${join(published, 'str_listings.parquet')}')
  WHERE lat IS NOT NULL AND lng IS NOT NULL ORDER BY id`)).getRowObjectsJS() as Array<{ lat: number; lng: number; sector: string | null; outcode: string | null }>;
conn.closeSync();
db.closeSync();
type Req = { kind: 'radius'; lat: number; lng: number } | { kind: 'sector' | 'outcode'; code: string };
const reqs: Req[] = [
  ...rows.filter((_, i) => i % 5 === 0).map((r) => ({ kind: 'radius' as const, lat: r.lat, lng: r.lng })),
  ...[...new Set(rows.map((r) => r.sector).filter((x): x is string => !!x))].map((code) => ({ kind: 'sector' as const, code })),
  ...[...new Set(rows.map((r) => r.outcode).filter((x): x is string => !!x))].map((code) => ({ kind: 'outcode' as const, code })),
];

async function open(dir: string): Promise<{ res: BuildResources; set: StrMarket; open_ms: number; first_bench_ms: number }> {
  const res = new BuildResources({ id: 'bench', dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> });
  let t = performance.now();
  const set = await res.strMarket.get();
  const open_ms = performance.now() - t;
  t = performance.now();
  await set.bench();
  return { res, set, open_ms, first_bench_ms: performance.now() - t };
}

/** The route's work for one request (service/routes/v1/str-market.ts), as JSON text. */
async function answer(set: StrMarket, res: BuildResources, q: Req): Promise<string> {
  const located = q.kind === 'radius' ? set.within(q.lat, q.lng, POSTCODE_RADIUS_M) : q.kind === 'sector' ? set.sector(q.code) : set.outcode(q.code);
  const { s, at } = set.select(located);
  const idx = Int32Array.from(at).sort();
  if (idx.length === 0) return '';
  return JSON.stringify(marketSections(s, idx, new Set(SECTIONS), await set.bench(), set.ltm(s, (x) => res.caches.strListingLtm(x))));
}

async function pass(set: StrMarket, res: BuildResources): Promise<{ cpu_ms: number; out: string[] }> {
  const out: string[] = [];
  const c0 = process.cpuUsage();
  for (const q of reqs) out.push(await answer(set, res, q));
  const c = process.cpuUsage(c0);
  return { cpu_ms: (c.user + c.system) / 1000, out };
}

const loadStart = loadAverage();
const files = await open(published);
const heap = await open(heapDir);
if (files.set.constructor === heap.set.constructor) throw new Error('both paths opened the same kind of set');
const cpu: { files: number[]; heap: number[] } = { files: [], heap: [] };
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? (['files', 'heap'] as const) : (['heap', 'files'] as const);
  const outs: Record<string, string[]> = {};
  for (const k of order) {
    const p = k === 'files' ? files : heap;
    const r = await pass(p.set, p.res);
    cpu[k].push(r.cpu_ms);
    outs[k] = r.out;
  }
  const diff = reqs.findIndex((_, i) => outs.files![i] !== outs.heap![i]);
  if (diff >= 0) throw new Error(`request ${JSON.stringify(reqs[diff])}: the files and the heap answer differently`);
  log(`run ${run + 1}/${RUNS}: files ${cpu.files[run]!.toFixed(0)} ms CPU, heap ${cpu.heap[run]!.toFixed(0)} ms CPU over ${reqs.length} requests`);
}
const result = {
  bench: 'str-market-files',
  command: `node --import tsx bench/str-market-files.ts --addresses ${N} --seed ${SEED} --runs ${RUNS}`,
  commit: gitCommit(),
  machine: describeMachine(),
  load_average: { start: loadStart, end: loadAverage() },
  addresses: N,
  listings: rows.length,
  requests: { total: reqs.length, radius_1km: reqs.filter((r) => r.kind === 'radius').length, sectors: reqs.filter((r) => r.kind === 'sector').length, outcodes: reqs.filter((r) => r.kind === 'outcode').length },
  open_ms: { files: r2(files.open_ms), heap: r2(heap.open_ms) },
  first_benchmark_ms: { files: r2(files.first_bench_ms), heap: r2(heap.first_bench_ms) },
  pass_cpu_ms: { files: cpu.files.map(r2), heap: cpu.heap.map(r2), median_files: r2(median(cpu.files)), median_heap: r2(median(cpu.heap)) },
  per_request_cpu_ms: { files: r2(median(cpu.files) / reqs.length), heap: r2(median(cpu.heap) / reqs.length) },
  files_over_heap: r2(median(cpu.files) / median(cpu.heap)),
};
await files.res.close();
await heap.res.close();
views.cleanup();
const file = join(ROOT, 'bench', 'results', `str-market-files-${N}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${file}`);
