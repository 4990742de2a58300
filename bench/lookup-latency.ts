/**
 * The lookup endpoints' service time with the lookup tables read from the build's keyed-rows
 * files (paged, ADR 0015 step 2) against made in the heap as before, on the same build: the
 * production server (bench/support/server-process.ts) over the bench build, and over a view of
 * it whose manifest lists no lookup files (bench/support/lookups-in-heap.ts). Per run, each
 * mode's server is started, warmed, its RSS read, and sent each endpoint's requests one at a
 * time (as bench/service-time.ts; server-side ms from the access log); the modes alternate
 * (order swapped run to run) and the paged ÷ in-heap ratios are taken within each run.
 *
 *   node --import tsx bench/lookup-latency.ts [--addresses 1000000] [--runs 3] [--per-endpoint 300] [--page-cache-mb 64] [--tables areas]
 *
 * `--tables areas`: the per-area tables' files (ADR 0015 step 6) against those tables made in
 * the heap, the big keyed tables read from their files in both; the endpoints that read the
 * area tables. Writes bench/results/lookup-latency-<addresses>[-areas].json.
 */
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { endpointRequests, readEndpointInputs, type Req } from '../test/support/endpoint-requests.ts';
import { tempDir } from '../test/support/tmp.ts';
import { AREA_LOOKUP_FILES } from '../lib/files/lookup-tables-format.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { lookupsInHeapView } from './support/lookups-in-heap.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { memory } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, argStr, mb, median, summaryWithMax } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const N = arg('addresses', 1_000_000);
const RUNS = arg('runs', 3);
const PER = arg('per-endpoint', 300);
const PAGE_CACHE_MB = arg('page-cache-mb', 64);
const AREAS = argStr('tables', 'big') === 'areas';
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const command = `node --import tsx bench/lookup-latency.ts ${process.argv.slice(2).join(' ')}`.trim();

/** The endpoints that read the four tables (trends only with a property type: the monthly medians by type). */
const ENDPOINTS: Array<{ name: string; route: string; keep?: (r: Req) => boolean }> = [
  { name: 'GET /v1/properties/{uprn}/sales', route: 'GET /v1/properties/{uprn}/sales' },
  { name: 'GET /v1/properties/{uprn}/epc', route: 'GET /v1/properties/{uprn}/epc' },
  { name: 'GET /v1/postcodes/{postcode}', route: 'GET /v1/postcodes/{postcode}' },
  { name: 'GET /v1/prices/trends?property_type', route: 'GET /v1/prices/trends', keep: (r) => r.path.includes('property_type=') },
];
/** The endpoints that read the per-area tables (`--tables areas`). */
const AREA_ENDPOINTS: typeof ENDPOINTS = [
  { name: 'GET /v1/areas/{code}', route: 'GET /v1/areas/{code}' },
  { name: 'GET /v1/prices/trends', route: 'GET /v1/prices/trends', keep: (r) => !r.path.includes('property_type=') },
  { name: 'GET /v1/rents/long-term', route: 'GET /v1/rents/long-term' },
  { name: 'GET /v1/rents/hmo', route: 'GET /v1/rents/hmo' },
  { name: 'GET /v1/yields', route: 'GET /v1/yields' },
];
const MEASURED = AREAS ? AREA_ENDPOINTS : ENDPOINTS;
type Mode = 'paged' | 'in_heap';

function send(url: string, headers: Record<string, string>, r: Req): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const req = request({ hostname, port, path: r.path, method: 'GET', headers }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

const bb = await ensureBenchBuild(N, 42, log);
const buildDir = realpathSync(bb.buildDir);
const tmp = tempDir('pi-lookup-latency-');
const dataDirs: Record<Mode, string> = { paged: join(tmp.dir, 'paged'), in_heap: join(tmp.dir, 'in-heap') };
const builds: Record<Mode, string> = { paged: buildDir, in_heap: AREAS ? lookupsInHeapView(buildDir, join(tmp.dir, 'in-heap-build'), AREA_LOOKUP_FILES) : lookupsInHeapView(buildDir, join(tmp.dir, 'in-heap-build')) };
const keys: Partial<Record<Mode, string>> = {};
for (const mode of ['paged', 'in_heap'] as const) {
  mkdirSync(dataDirs[mode], { recursive: true });
  symlinkSync(builds[mode], join(dataDirs[mode], 'current'));
  const ledger = await openFileLedger({ dir: ledgerDir(dataDirs[mode]) });
  keys[mode] = (await ledger.createAccount({ tier: 'enterprise', name: 'bench-lookup-latency', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date())).api_key;
  await ledger.close();
}
const inputs = await readEndpointInputs(buildDir, Math.max(PER * 10, 3_000));
const cands = endpointRequests(inputs, Math.max(PER * 10, 3_000));
const requests = MEASURED.map((e) => ({ ...e, reqs: (cands.get(e.route) ?? []).filter(e.keep ?? (() => true)).slice(0, PER + 10) }));
for (const e of requests) if (e.reqs.length < PER + 10) throw new Error(`${e.name}: ${e.reqs.length} requests generated, want ${PER + 10}`);

interface Sample { mode: Mode; run: number; rss_warmed_mb: number; warm_ms: number; load_average: number[]; endpoints: Record<string, { statuses: Record<string, number>; server_2xx: ReturnType<typeof summaryWithMax> }> }

async function measure(mode: Mode, run: number): Promise<Sample> {
  const load = loadAverage();
  const server = await startServerProcess({ dataDir: dataDirs[mode], env: { PAGE_CACHE_MB: String(PAGE_CACHE_MB) } });
  try {
    const access: { route: string; status: number; ms: number }[] = [];
    server.onLog((l) => l.msg === 'request' && access.push({ route: String(l.route), status: Number(l.status), ms: Number(l.ms) }));
    const warmed = await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
    await new Promise((r) => setTimeout(r, 5000));
    const rss = memory(server.pid).rss;
    const headers = { authorization: `Bearer ${keys[mode]}` };
    const endpoints: Sample['endpoints'] = {};
    for (const e of requests) {
      // Untimed: the code path's JIT and first pages.
      for (const r of e.reqs.slice(PER)) await send(server.url, headers, r);
      await new Promise((r) => setTimeout(r, 100));
      access.length = 0;
      const statuses: Record<string, number> = {};
      for (const r of e.reqs.slice(0, PER)) {
        const s = await send(server.url, headers, r);
        statuses[s] = (statuses[s] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, 200));
      endpoints[e.name] = { statuses, server_2xx: summaryWithMax(access.filter((a) => a.route === e.route && a.status < 300).map((a) => a.ms)) };
    }
    const sample: Sample = { mode, run, rss_warmed_mb: mb(rss), warm_ms: Number(warmed.ms), load_average: load, endpoints };
    log(`run ${run} ${mode}: RSS ${sample.rss_warmed_mb} MB, ${Object.entries(endpoints).map(([k, v]) => `${k} p50 ${v.server_2xx.p50_ms} p95 ${v.server_2xx.p95_ms}`).join('; ')}`);
    return sample;
  } finally {
    await server.stop();
  }
}

const when = new Date().toISOString();
const loadStart = loadAverage();
const samples: Sample[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const order: Mode[] = run % 2 === 1 ? ['paged', 'in_heap'] : ['in_heap', 'paged'];
    for (const mode of order) samples.push(await measure(mode, run));
  }
} finally {
  tmp.cleanup();
}
const r2 = (x: number) => Math.round(x * 100) / 100;
const of = (mode: Mode) => samples.filter((s) => s.mode === mode);
const ratioPerRun = (f: (s: Sample) => number) => Array.from({ length: RUNS }, (_, i) => {
  const run = samples.filter((s) => s.run === i + 1);
  return r2(f(run.find((s) => s.mode === 'paged')!) / f(run.find((s) => s.mode === 'in_heap')!));
});
const endpoints = Object.fromEntries(MEASURED.map((e) => {
  const stat = (mode: Mode, k: 'p50_ms' | 'p95_ms' | 'p99_ms') => median(of(mode).map((s) => s.endpoints[e.name]!.server_2xx[k]));
  return [e.name, {
    paged: { p50_ms: stat('paged', 'p50_ms'), p95_ms: stat('paged', 'p95_ms'), p99_ms: stat('paged', 'p99_ms') },
    in_heap: { p50_ms: stat('in_heap', 'p50_ms'), p95_ms: stat('in_heap', 'p95_ms'), p99_ms: stat('in_heap', 'p99_ms') },
    p50_ratio_paged_over_in_heap: median(ratioPerRun((s) => s.endpoints[e.name]!.server_2xx.p50_ms)),
    p95_ratio_paged_over_in_heap: median(ratioPerRun((s) => s.endpoints[e.name]!.server_2xx.p95_ms)),
    statuses: Object.fromEntries((['paged', 'in_heap'] as const).map((m) => [m, of(m)[0]!.endpoints[e.name]!.statuses])),
  }];
}));
const result = {
  bench: 'lookup-latency', command, when, finished: new Date().toISOString(), commit: gitCommit(), machine: describeMachine(),
  load_average_start: loadStart, load_average_end: loadAverage(),
  addresses: N, build_id: JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')).build_id, runs: RUNS, per_endpoint: PER, page_cache_mb: PAGE_CACHE_MB,
  tables: AREAS ? 'per-area (ADR 0015 step 6)' : 'the four big keyed tables (ADR 0015 step 2)',
  method: `the production server over the bench build (paged: its lookup files) and over a view of it whose manifest lists ${AREAS ? 'no per-area lookup file (in_heap: those tables made in the store and the heap, as before step 6)' : 'none (in_heap: the tables made in the heap, as before)'}; per run each mode started, warmed, RSS read 5 s after "build warmed", each endpoint sent 10 untimed then per_endpoint requests one at a time; server-side ms from the access log; modes alternated, order swapped run to run; medians over runs, ratios within each run`,
  rss_warmed_mb: { paged: median(of('paged').map((s) => s.rss_warmed_mb)), in_heap: median(of('in_heap').map((s) => s.rss_warmed_mb)), saved_mb_within_run: median(Array.from({ length: RUNS }, (_, i) => {
    const run = samples.filter((s) => s.run === i + 1);
    return run.find((s) => s.mode === 'in_heap')!.rss_warmed_mb - run.find((s) => s.mode === 'paged')!.rss_warmed_mb;
  })) },
  warm_ms: { paged: median(of('paged').map((s) => s.warm_ms)), in_heap: median(of('in_heap').map((s) => s.warm_ms)) },
  endpoints,
  samples,
};
const out = join(ROOT, 'bench', 'results', `lookup-latency-${N}${AREAS ? '-areas' : ''}.json`);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${out}: ${JSON.stringify({ rss: result.rss_warmed_mb, endpoints })}`);
process.exit(0);
