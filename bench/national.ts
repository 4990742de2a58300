/**
 * Issue 46's one measurement: is a build of N addresses built and served within this machine?
 *
 *   npx tsx bench/national.ts [--addresses 30000000] [--seed 42] [--mix demo|national] [--zip] [--without-caches] [--reuse-build] [--runs 3]
 *       [--seconds 30] [--warmup 10] [--connections 10] [--share 0.25]
 *       [--swap-seconds 60] [--swap-at 10] [--swap-link] [--compare-with DIR] [--tag NAME] [--server-env NAME=VALUE …]
 *
 * 1. The ETL: the region (data/bench/region-N-S, generated when missing; `-national` and `-zip`
 *    appended for `--mix national` and `--zip`, the national region with its sources zipped as
 *    their publishers ship them), one build into a fresh DATA_DIR (data/bench/national-N-S, the
 *    same suffix) in a child process (bench/support/etl-build.ts): wall,
 *    CPU, peak RSS. `--reuse-build` skips it when that folder, or the bench build dd-N-S, holds
 *    an up-to-date build.
 * 2. Serving, `--runs` sessions (bench/support/national-serving.ts): the production server with
 *    WORKERS=2 and a PostgreSQL ledger, over that build: memory the serving needs (MemTotal −
 *    MemAvailable under the open-loop load, minus the same before the server started), cold
 *    start to the first 2xx of every endpoint and to "build warmed", flat out (closed loop), each
 *    endpoint's p95 at `--share` of flat out (open loop), and a data swap under that load.
 *    `--compare-with DIR`: each round also runs the server of another checkout (say a worktree
 *    of an older commit, with its node_modules) on the same build, the order flipped each round,
 *    so a p95 regression shows side by side in one run.
 * 3. bench/results/national-N[-national][-zip][-TAG].json, with the machine and its load averages (others may
 *    share it), every session whole (memory sampled every second included), and the medians.
 *
 * Medians are of the sessions: 3 by default up to 1M addresses, 1 above (a session at 30M
 * starts and warms two workers over the whole country).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openPgLedger } from '../service/ledger/index.ts';
import { startPostgres } from '../test/support/postgres.ts';
import { ensureRegion, missingFromBuild, regionSuffix } from './support/bench-build.ts';
import { buildInChild, serveChildBuild } from './support/etl-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { MIX } from './support/mix.ts';
import { servingSession, type SessionResult } from './support/national-serving.ts';
import { median, r2 } from './support/stats.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '30000000' }, seed: { type: 'string', default: '42' }, mix: { type: 'string', default: 'demo' }, zip: { type: 'boolean', default: false },
    'without-caches': { type: 'boolean', default: false },
    'reuse-build': { type: 'boolean', default: false }, runs: { type: 'string' }, seconds: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' }, connections: { type: 'string', default: '10' }, share: { type: 'string', default: '0.25' },
    'swap-seconds': { type: 'string', default: '60' }, 'swap-at': { type: 'string', default: '10' }, 'swap-link': { type: 'boolean', default: false },
    'compare-with': { type: 'string' }, tag: { type: 'string' }, 'server-env': { type: 'string', multiple: true, default: [] },
    // The ETL child (buildInChild runs this file with them).
    child: { type: 'string' }, data: { type: 'string' },
  },
});
await serveChildBuild(values);

const ROOT = resolve(import.meta.dirname, '..');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const num = (name: string, v: string | undefined) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number ≥ 0, got ${v}`);
  return n;
};
const N = num('addresses', values.addresses);
const SEED = num('seed', values.seed);
const RUNS = values.runs === undefined ? (N <= 1_000_000 ? 3 : 1) : num('runs', values.runs);
const OTHER = values['compare-with'] ? resolve(values['compare-with']) : undefined;
if (OTHER && !existsSync(join(OTHER, 'service', 'server.ts'))) throw new Error(`--compare-with ${OTHER}: no service/server.ts there (a checkout of this project?)`);
if (OTHER && !existsSync(join(OTHER, 'node_modules'))) throw new Error(`--compare-with ${OTHER}: no node_modules there (link this checkout's: ln -s ${ROOT}/node_modules ${OTHER}/node_modules)`);
// --server-env K=V (repeatable): more of the servers' environment (PAGE_CACHE_MB=256, say), both checkouts'.
const SERVER_ENV = Object.fromEntries((values['server-env'] ?? []).map((kv) => {
  const i = kv.indexOf('=');
  if (i < 1) throw new Error(`--server-env must be NAME=VALUE, got ${kv}`);
  return [kv.slice(0, i), kv.slice(i + 1)];
}));
const command = `npx tsx bench/national.ts ${process.argv.slice(2).join(' ')}`.trim();
const loadBefore = loadAverage();
const when = new Date().toISOString();
const commit = gitCommit(); // now: the checkout may move while a long run runs

// 1. The ETL.
if (values.mix !== 'demo' && values.mix !== 'national') throw new Error(`--mix must be demo or national, got ${values.mix}`);
const kind = { mix: values.mix, zip: values.zip } as const;
const region = await ensureRegion(N, SEED, log, kind);
const etlDir = join(ROOT, 'data', 'bench', `national-${N}-${SEED}${regionSuffix(kind)}`);
let etl: Record<string, unknown>;
let dataDirOfBuild = etlDir;
if (values['reuse-build']) {
  // The bench build dd-N-S is of the demo region in plain files.
  const benchBuild = join(ROOT, 'data', 'bench', `dd-${N}-${SEED}${regionSuffix(kind)}`);
  const upToDate = (d: string) => missingFromBuild(d)?.length === 0;
  if (!upToDate(etlDir)) {
    if (!upToDate(benchBuild)) throw new Error(`--reuse-build: neither ${etlDir} nor ${benchBuild} holds an up-to-date build; run without --reuse-build`);
    dataDirOfBuild = benchBuild;
  }
  const m = JSON.parse(readFileSync(join(dataDirOfBuild, 'current', 'manifest.json'), 'utf8')) as { build_id: string; created_at: string; stage_timings_ms: Record<string, number> };
  etl = { reused: dataDirOfBuild.replace(`${ROOT}/`, ''), build_id: m.build_id, created_at: m.created_at, stage_timings_ms: m.stage_timings_ms, note: 'not built in this run: the stage timings are those of the run that made it' };
  log(`reusing the build in ${dataDirOfBuild} (${m.build_id})`);
} else {
  rmSync(etlDir, { recursive: true, force: true });
  mkdirSync(etlDir, { recursive: true });
  log(`running the ETL on ${region} into ${etlDir} …`);
  // --without-caches: the build keeps none (ETL_CACHES=off, docs/etl.md): 0.9 GB per million addresses less on disk.
  const b = buildInChild('bench/national.ts', region, etlDir, values['without-caches'] ? { ...process.env, ETL_CACHES: 'off' } : process.env);
  etl = {
    data_dir: etlDir.replace(`${ROOT}/`, ''), build_id: b.manifest.build_id, wall_s: r2(b.wall), cpu_s: r2(b.cpu), peak_rss_mb: Math.round(b.maxRssKb / 1024),
    allocator: (b.manifest.quality.runtime as { allocator?: string } | undefined)?.allocator, stages_ms: b.manifest.stage_timings_ms, peak_rss_mb_after_stage: b.peakMbAfterStage, disk_peak_mb_by_stage: b.diskPeakMbByStage,
    caches: values['without-caches'] ? 'none (ETL_CACHES=off)' : 'kept', disk: b.disk, region_bytes: Number(execFileSync('du', ['-sb', region], { encoding: 'utf8' }).split('\t')[0]),
    target: { wall_s_max: 80 * 60, peak_rss_mb_max: 3072 },
  };
  log(`ETL: ${etl.wall_s} s, peak RSS ${etl.peak_rss_mb} MB`);
}
const buildDir = realpathSync(join(dataDirOfBuild, 'current'));
const buildBytes = Number(execFileSync('du', ['-sb', buildDir], { encoding: 'utf8' }).split('\t')[0]);
const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string; tables: Record<string, { rows: number }> };

// The requests, read from the build before any server starts (DuckDB's threads would compete with its warm-up).
const poolSize = Math.min(60_000, Math.max(5_000, Math.round(N / 20)));
const { endpointRequests, readEndpointInputs } = await import('../test/support/endpoint-requests.ts');
const candidates = endpointRequests(await readEndpointInputs(buildDir, poolSize), poolSize);

// 2. Serving: one PostgreSQL ledger for every session (WORKERS > 1 needs it), the load spread over one account per connection.
const pg = await startPostgres({ settings: { max_connections: 400 } });
const sessions: SessionResult[] = [];
let sessionDir: string | undefined;
try {
  const ledger = await openPgLedger({ url: pg.url });
  const connections = num('connections', values.connections);
  const keys: string[] = [];
  for (let a = 0; a < Math.max(1, connections); a++) {
    keys.push((await ledger.createAccount({ tier: 'enterprise', name: `bench-national-${a}`, rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date())).api_key);
  }
  await ledger.close();
  const servers = [{ label: 'this' }, ...(OTHER ? [{ label: 'other', root: OTHER }] : [])];
  for (let k = 1; k <= RUNS; k++) {
    for (const s of k % 2 === 1 ? servers : [...servers].reverse()) {
      // A DATA_DIR of the session's own, beside the build (so --swap-link can hard-link): `current` links to the build.
      sessionDir = join(ROOT, 'data', 'bench', `national-serve-${process.pid}`);
      rmSync(sessionDir, { recursive: true, force: true });
      mkdirSync(sessionDir, { recursive: true });
      symlinkSync(buildDir, join(sessionDir, 'current'));
      sessions.push(await servingSession({
        ...s, run: k, dataDir: sessionDir, buildDir, pgUrl: pg.url, keys, mix: MIX, candidates, connections,
        seconds: num('seconds', values.seconds), warmup: num('warmup', values.warmup), share: num('share', values.share), pacedInFlight: 64,
        swapSeconds: num('swap-seconds', values['swap-seconds']), swapAt: num('swap-at', values['swap-at']), swapLink: values['swap-link'], serverEnv: SERVER_ENV, tmp: sessionDir, log,
      }));
      rmSync(sessionDir, { recursive: true, force: true });
    }
  }
} finally {
  if (sessionDir) rmSync(sessionDir, { recursive: true, force: true });
  await pg.stop();
}

// 3. Medians per server, the issue's targets, and the side-by-side ratios.
const SEARCH = 'GET /v1/addresses/search';
const RECORD = 'GET /v1/properties/{uprn}';
function summarise(label: string) {
  const ss = sessions.filter((s) => s.label === label);
  const m = (f: (s: SessionResult) => number | null | undefined) => r2(median(ss.map((s) => f(s) ?? NaN)));
  const endpoints = Object.fromEntries(MIX.map(([name]) => [name, {
    server_p95_ms: m((s) => s.paced.endpoints[name]?.server.p95_ms),
    client_p95_ms: m((s) => s.paced.endpoints[name]?.client.p95_ms),
    failed_all_runs: ss.reduce((a, s) => {
      const e = s.paced.endpoints[name];
      return a + (e ? Object.values(e.non2xx).reduce((x, y) => x + y, 0) + Object.values(e.socket_errors).reduce((x, y) => x + y, 0) : 0);
    }, 0),
    driven: ss.every((s) => s.paced.endpoints[name] !== undefined),
  }]));
  const swaps = ss.map((s) => s.swap).filter((x): x is NonNullable<typeof x> => x !== null);
  const serving = m((s) => s.paced.memory.serving_needs_mb);
  const pss = m((s) => s.paced.memory.server_pss_sum_mb);
  const cold = m((s) => s.cold_start.first_2xx_every_endpoint_ms);
  const failed = ss.reduce((a, s) => a + s.paced.failed, 0);
  const swapFailed = swaps.reduce((a, s) => a + s.failed_requests, 0);
  return {
    runs: ss.length,
    serving_needs_mb: serving,
    serving_needs_without_generator_mb: m((s) => s.paced.memory.serving_needs_without_generator_mb),
    server_rss_sum_mb: m((s) => s.paced.memory.server_rss_sum_mb),
    serving_needs_against_after_stop_mb: m((s) => s.paced.memory.serving_needs_against_after_stop_mb),
    server_pss_sum_mb: pss,
    cold_start_first_2xx_every_endpoint_ms: cold,
    cold_start_build_warmed_ms: m((s) => Math.max(...s.cold_start.build_warmed_ms)),
    flat_out_rps_2xx: m((s) => s.flat_out.rps_2xx),
    paced_offered_rps: m((s) => s.paced.offered_rps),
    paced_failed_all_runs: failed,
    swap_failed_all_runs: swapFailed,
    swap_failed_by_kind_all_runs: swaps.reduce<Record<string, number>>((a, s) => {
      for (const [k, c] of Object.entries(s.failed_by_kind)) a[k] = (a[k] ?? 0) + c;
      return a;
    }, {}),
    swap_back_to_level_every_run: swaps.length > 0 && swaps.every((s) => s.back_to_level),
    endpoints,
    targets: {
      // On the larger of the machine's figure and the servers' own Pss: the machine's moves with
      // whatever else runs (on a shared machine it can even fall while the server runs).
      serving_needs_mb_le_8192: Math.max(serving, pss) <= 8192,
      cold_start_le_20s: cold <= 20_000,
      search_p95_lt_20ms: endpoints[SEARCH]!.server_p95_ms < 20,
      record_p95_lt_10ms: endpoints[RECORD]!.server_p95_ms < 10,
      every_endpoint_2xx_0_errors: failed === 0 && Object.values(endpoints).every((e) => e.driven),
      swap_0_failed_and_memory_back: swaps.length > 0 && swapFailed === 0 && swaps.every((s) => s.back_to_level),
    },
  };
}
const summary = { this: summarise('this'), ...(OTHER ? { other: summarise('other') } : {}) };
const ratios = OTHER
  ? Object.fromEntries(MIX.map(([name]) => [name, r2(summary.this.endpoints[name]!.server_p95_ms / summary.other!.endpoints[name]!.server_p95_ms)]))
  : undefined;
const otherCommit = OTHER ? gitCommit(OTHER) : undefined;

const result = {
  benchmark: 'national',
  command,
  when,
  git_commit: commit,
  ...(OTHER ? { compared_with: { dir: OTHER, git_commit: otherCommit } } : {}),
  server_env: SERVER_ENV,
  machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
  note: 'two cores shared by the server\'s workers, PostgreSQL, the load generator and this process, and by whatever else runs on the machine (see the load averages per session); memory "in use" is machine-wide, so another program growing meanwhile counts too: the servers\' RSS and Pss sums are their own',
  scale: { addresses: N, seed: SEED, properties: manifest.tables.properties?.rows ?? null, build_id: manifest.build_id, build_mb: Math.round(buildBytes / 2 ** 20) },
  etl,
  serving: { workers: 2, ledger: 'postgres', runs: RUNS, seconds: num('seconds', values.seconds), warmup_s: num('warmup', values.warmup), connections: num('connections', values.connections), share_of_flat_out: num('share', values.share), swap_seconds: num('swap-seconds', values['swap-seconds']), swap_at_s: num('swap-at', values['swap-at']) },
  summary,
  ...(ratios ? { server_p95_ratio_this_to_other: ratios } : {}),
  sessions,
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const file = join('bench', 'results', `national-${N}${regionSuffix(kind)}${values.tag ? `-${values.tag}` : ''}.json`);
writeFileSync(join(ROOT, file), `${JSON.stringify(result, null, 2)}\n`);

const line = (label: string, s: ReturnType<typeof summarise>) =>
  `${label}: serving needs ${s.serving_needs_mb} MB (servers' RSS ${s.server_rss_sum_mb}, Pss ${s.server_pss_sum_mb}); cold start ${s.cold_start_first_2xx_every_endpoint_ms} ms to every endpoint's first 2xx, ` +
  `${s.cold_start_build_warmed_ms} ms to "build warmed"; flat out ${s.flat_out_rps_2xx} 2xx/s; at ${s.paced_offered_rps}/s p95 search ${s.endpoints[SEARCH]!.server_p95_ms} ms, record ${s.endpoints[RECORD]!.server_p95_ms} ms (server), ` +
  `${s.paced_failed_all_runs} failed; swap ${s.swap_failed_all_runs} failed, memory back ${s.swap_back_to_level_every_run}`;
const etlLine = etl.reused ? `ETL: reused ${String(etl.reused)}` : `ETL: ${etl.wall_s} s, peak RSS ${etl.peak_rss_mb} MB`;
process.stdout.write(`${N} addresses, build ${result.scale.build_mb} MB. ${etlLine}\n${line('this', summary.this)}\n`);
if (summary.other) process.stdout.write(`${line(`other (${otherCommit})`, summary.other)}\nserver p95 this/other: search ${ratios![SEARCH]}, record ${ratios![RECORD]}\n`);
process.stdout.write(`targets: ${JSON.stringify(summary.this.targets)}\nwrote ${file}\n`);
process.exit(0);
