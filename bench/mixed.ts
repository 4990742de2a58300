/**
 * The whole system under a realistic mix of every endpoint: the production server in its own
 * process over a synthetic region's build, driven by a load generator in a second process.
 *
 *   npx tsx bench/mixed.ts [--addresses 1000000] [--seed 42] [--connections 10] [--seconds 30] [--runs 3]
 *                          [--warmup 10] [--probe-total 20000] [--fresh-etl] [--no-history]
 *                          [--workers 1,2]   (replicas: see bench/support/mixed-workers.ts)
 *                          [--accounts N]    (with --workers: the load spread over N accounts; default one per connection)
 *                          [--paced 0.25]    (then the open-loop runs at that share of flat out; 0: none)
 *                          [--node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]   (the server's node flags)
 *                          [--keep-store-open]  (the server with KEEP_STORE_OPEN=1: the DuckDB store kept after the warm-up)
 *                          [--tag NAME]      (results to mixed-N-NAME.json/.md, beside rather than over mixed-N.json)
 *
 * 1. The build: the bench build of that scale (bench/support/bench-build.ts: data/bench/dd-N-S,
 *    made once and reused), or with --fresh-etl a new ETL run of the same region (in a child
 *    process, into a temp DATA_DIR) that is timed now and then served. The ETL's time per stage
 *    is the served build's manifest `stage_timings_ms` (so, without --fresh-etl, the time of the
 *    run that made the bench build, with its build id and date).
 * 2. A temp DATA_DIR whose `current` links to the build folder and whose ledger is new, with one
 *    enterprise account (unlimited credits, a rate limit of 10^9 per 10 s so nothing throttles),
 *    made with the ledger API before the server starts.
 * 3. The server as production runs it (bench/support/server-process.ts): `node --import tsx
 *    service/server.ts`, NODE_ENV=production, LOG_LEVEL=info, no extra node flags. The bench
 *    waits for its "build warmed" line, then reads its access log (route, status, ms per request)
 *    for the server-side latency, its /proc for CPU time and RSS (sampled every 500 ms).
 * 4. Requests made from the build's own rows (DuckDB over its Parquet): sampled UPRNs, live
 *    postcodes with their sectors and outcodes, points near them, short-term-let locations, and
 *    address searches typed as users type them (test/support/search-relevance.ts). A pre-flight
 *    pass (also the warm-up) sends a share of each endpoint's requests: an endpoint that answers
 *    every one 2xx is driven with all its generated requests; one that answers some 404 (a home
 *    without valuation evidence, an area without lets or listings: documented outcomes, not
 *    faults) is driven with the requests that answered 2xx only; one that answers every request
 *    503 data_unavailable is not served by the build yet and is still driven, and reported as
 *    such. Any other non-2xx in the pre-flight (a 400 is a bug of this bench, a 5xx one of the
 *    server) is printed with its body and kept in the results.
 * 5. `--warmup` seconds of the mix untimed, then `--runs` runs of `--seconds` with
 *    `--connections` connections each. Per endpoint: client-side p50/p95/p99 (from request
 *    written to response end, in the load generator), server-side p50/p95/p99 (the access log's
 *    `ms`: from the request id middleware's start to the handler chain's end, so without
 *    Node's HTTP parsing and the socket write), throughput, non-2xx by status and code, socket
 *    errors. Server CPU (user+sys seconds over wall) and RSS (peak and end) per run, and its
 *    GC pauses by kind over the run (from its /metrics: bench/support/gc-scrape.ts).
 *
 * The mix, in requests per 1,000 (MIX, bench/support/mix.ts): a customer types an address (several typeahead
 * searches per lookup) and opens the record, then values it; area analysis, short-term lets
 * and development appraisals are rarer and dearer; the free account calls and the status page
 * are occasional.
 *   search 225 · property record 180 · sales 40 · EPC 30 · postcode 40 · risks 40
 *   valuations: sale 90, rental 50, HMO 30, development GDV 10, STR estimate 20
 *   area: comparables 30, trends 20, long-term rents 30, HMO rents 10, yields 15, areas 15,
 *         crime 15, schools 15, flood risk 15, planning 10, HMO licences 5
 *   listings 20 · sourcing deals 10 · STR market 10 · STR listings 10
 *   account 5 · account usage 5 · status 5 (unmetered, outside the 28)
 *
 * Writes bench/results/mixed-<N>.json and .md, and appends one line (the medians of the runs)
 * to bench/results/mixed-history.jsonl (not with --no-history); the Markdown shows the last ten
 * lines of the same scale and connections.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EtlLogger } from '../etl/pipeline/context.ts';
import type { Req } from '../test/support/endpoint-requests.ts';
import { tempDir } from '../test/support/tmp.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { cpuMeter, memory, rssSampler } from './support/proc.ts';
import { startServerProcess, type LogLine } from './support/server-process.ts';
import { gcSpan, scrapeGc } from './support/gc-scrape.ts';
import { etlSection, markdown, unexpected, type EndpointRun } from './support/mixed-report.ts';
import { runLoad, scheduleOf, type EndpointSpec, type LoadSpec } from './support/mixed-load.ts';
import { arg, argStr, mb, median, r2, summaryWithMax } from './support/stats.ts';
import { MIX } from './support/mix.ts';

const ROOT = resolve(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'bench', 'results');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

// ---------------------------------------------------------------------------------------------
// The ETL in a child process (--fresh-etl), so its peak RSS is its own.
// ---------------------------------------------------------------------------------------------

async function etlChild(region: string, dataDir: string, out: string): Promise<void> {
  const { runBuild } = await import('../etl/pipeline/run.ts');
  const quiet: EtlLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const t0 = performance.now();
  const { manifest } = await runBuild({ dataDir, sourcesDir: region, log: quiet });
  const ru = process.resourceUsage();
  writeFileSync(out, JSON.stringify({ wall_s: r2((performance.now() - t0) / 1000), cpu_s: r2((ru.userCPUTime + ru.systemCPUTime) / 1e6), peak_rss_mb: Math.round(ru.maxRSS / 1024), build_id: manifest.build_id }));
}

function runEtl(region: string, dataDir: string, dir: string): Promise<{ wall_s: number; cpu_s: number; peak_rss_mb: number; build_id: string }> {
  const out = join(dir, 'etl.out.json');
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--max-old-space-size=14000', '--import', 'tsx', import.meta.filename, '--etl-child', region, dataDir, out], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code, signal) => (code === 0 ? res(JSON.parse(readFileSync(out, 'utf8'))) : rej(new Error(`ETL exited ${code ?? signal}`))));
  });
}

// ---------------------------------------------------------------------------------------------
// The bench.
// ---------------------------------------------------------------------------------------------


async function main(): Promise<void> {
  const ADDRESSES = arg('addresses', 1_000_000);
  const SEED = arg('seed', 42);
  const CONNECTIONS = arg('connections', 10);
  const SECONDS = arg('seconds', 30);
  const RUNS = arg('runs', 3);
  const WARMUP = arg('warmup', 10);
  const PROBE_TOTAL = arg('probe-total', 20_000);
  const PACED_SHARE = Number(argStr('paced', '0.25'));
  const PACED_IN_FLIGHT = 64;
  // Node flags for the server (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): none by default, as production runs it.
  const NODE_ARGS = argStr('node-args', '').split(' ').filter(Boolean);
  const FRESH = process.argv.includes('--fresh-etl');
  const HISTORY = !process.argv.includes('--no-history');
  const SERVER_ENV: Record<string, string> = process.argv.includes('--keep-store-open') ? { KEEP_STORE_OPEN: '1' } : {};
  const TAG = argStr('tag', '');
  const command = `npx tsx bench/mixed.ts ${process.argv.slice(2).join(' ')}`.trim();
  const machine = describeMachine();
  const loadBefore = loadAverage();
  const commit = gitCommit();
  const { ensureBenchBuild, ensureRegion } = await import('./support/bench-build.ts');
  const { ledgerDir, openFileLedger } = await import('../service/ledger/index.ts');
  // The mix must name every endpoint the service declares (a new one needs a weight and requests).
  const { V1_ROUTES } = await import('../service/routes/v1/index.ts');
  const unweighted = V1_ROUTES.map((r) => `${r.method} /v1${r.path}`).filter((d) => !MIX.some(([name]) => name === d));
  if (unweighted.length > 0) throw new Error(`the mix has no weight for ${unweighted.join(', ')}`);
  const { dir: tmp, cleanup } = tempDir('pi-bench-mixed-');
  // On any way out (a failure included): no server left running, no temp DATA_DIR left behind.
  let serverPid: number | undefined;
  process.on('exit', () => {
    if (serverPid !== undefined) {
      try {
        process.kill(serverPid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    cleanup();
  });
  const dataDir = join(tmp, 'data');
  mkdirSync(dataDir);

  // 1-2. The build and the DATA_DIR that serves it.
  let etlNow: Awaited<ReturnType<typeof runEtl>> | undefined;
  let buildDir: string;
  if (FRESH) {
    const region = await ensureRegion(ADDRESSES, SEED, log);
    log(`running the ETL on ${region} into ${dataDir} …`);
    etlNow = await runEtl(region, dataDir, tmp);
    log(`ETL: ${JSON.stringify(etlNow)}`);
    buildDir = realpathSync(join(dataDir, 'current'));
  } else {
    const bb = await ensureBenchBuild(ADDRESSES, SEED, log);
    buildDir = realpathSync(bb.buildDir);
    symlinkSync(buildDir, join(dataDir, 'current'));
  }
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as {
    build_id: string; created_at: string; tables: Record<string, { rows: number }>; stage_timings_ms: Record<string, number>;
  };
  log(`build ${manifest.build_id} (${manifest.created_at}), ${manifest.tables.properties?.rows} properties`);
  const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
  const rateLimit = { limit: 1_000_000_000, windowMs: 10_000 };
  const { api_key, account } = await ledger.createAccount({ tier: 'enterprise', name: 'bench-mixed', rateLimit }, new Date());
  await ledger.close();

  // 4. Inputs (before the server starts: DuckDB's threads would compete with its warm-up).
  let t = performance.now();
  const poolSize = Math.min(60_000, Math.max(5_000, Math.round(ADDRESSES / 20)));
  // Imported here, not at the top: the load generator (this file too) has no use for DuckDB.
  const { endpointRequests, readEndpointInputs } = await import('../test/support/endpoint-requests.ts');
  const inputs = await readEndpointInputs(buildDir, poolSize);
  const cands = endpointRequests(inputs, poolSize);
  log(`inputs read in ${Math.round(performance.now() - t)} ms: ${inputs.uprns.length} UPRNs, ${inputs.postcodes.length} postcodes, ${inputs.str.length} STR locations, ${inputs.queries.length} searches`);

  // --workers 1,2: the same mix against servers with that many cluster workers sharing a
  // PostgreSQL ledger, alternating in one run (bench/support/mixed-workers.ts).
  const workersList = argStr('workers', '');
  if (workersList) {
    const { compareWorkers } = await import('./support/mixed-workers.ts');
    await compareWorkers({
      workers: workersList.split(',').map(Number), dataDir, tmp, mix: MIX, candidates: cands, connections: CONNECTIONS,
      accounts: arg('accounts', CONNECTIONS), seconds: SECONDS, runs: RUNS, warmup: WARMUP, addresses: ADDRESSES, results: RESULTS, command, log,
    });
    process.exit(0);
  }

  // 3. The server.
  t = performance.now();
  const server = await startServerProcess({ dataDir, nodeArgs: NODE_ARGS, env: SERVER_ENV });
  serverPid = server.pid;
  const startMs = Math.round(performance.now() - t);
  const accessLog: { route: string; status: number; ms: number }[] = [];
  let collecting = false;
  // Warnings and errors the server logs: counted by message (and problem code); the first few
  // of each kept whole, except the per-request "request refused" lines (their code says enough).
  const serverWarnings: Record<string, number> = {};
  const serverWarningSamples: LogLine[] = [];
  server.onLog((l) => {
    if (l.msg === 'request') {
      if (collecting) accessLog.push({ route: String(l.route), status: Number(l.status), ms: Number(l.ms) });
    } else if (Number(l.level) >= 40) {
      const key = `${Number(l.level) >= 50 ? 'error' : 'warn'} ${l.msg ?? l.text ?? ''}${l.code ? ` (${String(l.code)})` : ''}`;
      serverWarnings[key] = (serverWarnings[key] ?? 0) + 1;
      if (l.msg !== 'request refused' && serverWarningSamples.length < 20) serverWarningSamples.push(l);
    }
  });
  const sessionRss = rssSampler(server.pid);
  const warmed = await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
  const warmMs = Number(warmed.ms);
  const rssWarmed = memory(server.pid).rss;
  log(`server pid ${server.pid} on ${server.url}: listening after ${startMs} ms, build warmed in ${warmMs} ms, RSS ${mb(rssWarmed)} MB`);

  // 4-5. Pre-flight: which requests each endpoint answers 2xx.
  const headers = { authorization: `Bearer ${api_key}` };
  const base = { url: server.url, headers, connections: CONNECTIONS };
  const specs: EndpointSpec[] = MIX.map(([name]) => {
    const requests = cands.get(name);
    if (!requests?.length) throw new Error(`no requests for ${name}`);
    return { name, method: name.startsWith('POST') ? 'POST' : 'GET', requests, start: 0 };
  });
  const probes = MIX.map(([, w], e) => Math.min(specs[e]!.requests.length, Math.max(300, Math.round((w / 1000) * PROBE_TOTAL))));
  t = performance.now();
  const pre = await runLoad({ ...base, mode: 'preflight', seconds: 0, endpoints: specs, schedule: probes }, tmp, 'preflight');
  log(`pre-flight: ${probes.reduce((a, b) => a + b, 0)} requests in ${Math.round(performance.now() - t)} ms`);
  const preflight: Record<string, unknown> = {};
  const served: Record<string, boolean> = {};
  const problems: string[] = [];
  const driven: EndpointSpec[] = specs.map((s, e) => {
    const r = pre.endpoints[e]!;
    const probed = probes[e]!;
    const ok = r.ok_index!.length;
    const keys = Object.keys(r.outcomes);
    const notServed = ok === 0 && keys.length === 1 && keys[0] === '503 data_unavailable';
    served[s.name] = !notServed;
    let requests: Req[];
    let use: string;
    if (ok === probed) {
      // Every probed request answered 2xx: drive all of them, the unprobed first.
      requests = s.requests;
      use = `all ${s.requests.length} generated`;
    } else if (notServed) {
      requests = s.requests;
      use = `all ${s.requests.length} generated (503 data_unavailable: not served by this build)`;
    } else if (ok > 0) {
      requests = r.ok_index!.sort((a, b) => a - b).map((i) => s.requests[i]!);
      use = `the ${ok} that answered 2xx`;
    } else {
      requests = s.requests;
      use = `all ${s.requests.length} generated (none answered 2xx)`;
    }
    for (const [k, c] of Object.entries(r.outcomes)) {
      if (/^2/.test(k) || (notServed && k === '503 data_unavailable') || k === '404 not_found') continue;
      problems.push(`${s.name}: ${c} × ${k}; e.g. ${JSON.stringify(r.samples.filter((x) => x.key === k).slice(0, 2))}`);
    }
    if (r.outcomes['404 not_found']) log(`pre-flight ${s.name}: ${r.outcomes['404 not_found']} of ${probed} answered 404 (e.g. ${r.samples.find((x) => x.key === '404 not_found')?.response?.slice(0, 160)})`);
    preflight[s.name] = { probed, answered_2xx: ok, outcomes: r.outcomes, driven_with: use, client_p50_ms: r.client.p50_ms };
    return { ...s, requests, start: ok === probed ? probed % requests.length : 0 };
  });
  for (const p of problems) log(`PRE-FLIGHT NON-2xx ${p}`);

  // Runs: warm-up (untimed), then the timed runs, each starting further into each endpoint's requests.
  const weights = MIX.map(([, w]) => w);
  const schedule = scheduleOf(weights);
  const runSpec = (k: number, seconds: number) => ({
    ...base, mode: 'timed' as const, seconds, schedule,
    endpoints: driven.map((d) => ({ ...d, start: d.start + Math.floor((k * d.requests.length) / (RUNS + 1)) })),
  });
  if (WARMUP > 0) {
    const w = await runLoad(runSpec(0, WARMUP), tmp, 'warmup');
    log(`warm-up ${WARMUP} s: ${w.total.rps} req/s, p95 ${w.total.p95_ms} ms`);
  }
  // One measured run: the access log collected over exactly the generator's sending, the
  // server's CPU and RSS metered over the same span; per endpoint client and server latency.
  let rssEnd = NaN;
  const measure = async (k: number, spec: Omit<LoadSpec, 'out'>, label: string) => {
    accessLog.length = 0;
    collecting = true;
    const la0 = loadAverage();
    const gc0 = await scrapeGc(server.metricsUrl);
    let cpu: ReturnType<typeof cpuMeter> | undefined;
    let rss: ReturnType<typeof rssSampler> | undefined;
    let serverCpu: ReturnType<ReturnType<typeof cpuMeter>['stop']> | undefined;
    let mem: ReturnType<ReturnType<typeof rssSampler>['stop']> | undefined;
    const res = await runLoad(spec, tmp, `${label}-${k}`, {
      start: () => ((cpu = cpuMeter(server.pid)), (rss = rssSampler(server.pid))),
      end: () => ((serverCpu = cpu!.stop()), (mem = rss!.stop())),
    });
    if (!serverCpu || !mem) throw new Error('the load generator did not report its start and end');
    rssEnd = mem.end;
    const gc = gcSpan(gc0, await scrapeGc(server.metricsUrl));
    // The access log line is written before the response: give the pipe a moment to drain.
    await new Promise((r) => setTimeout(r, 300));
    collecting = false;
    const byRoute = new Map<string, number[]>();
    for (const a of accessLog) (byRoute.get(a.route) ?? byRoute.set(a.route, []).get(a.route)!).push(a.ms);
    const endpoints: Record<string, EndpointRun> = {};
    for (const ep of res.endpoints) {
      const non2xx: Record<string, number> = {};
      const socket: Record<string, number> = {};
      let ok = 0;
      for (const [key, c] of Object.entries(ep.outcomes)) {
        if (/^2\d\d$/.test(key)) ok += c;
        else if (key.startsWith('socket ')) socket[key.slice(7)] = c;
        else non2xx[key] = c;
      }
      endpoints[ep.name] = { client: ep.client, server: summaryWithMax(byRoute.get(ep.name) ?? []), rps: ep.rps, ok, non2xx, socket_errors: socket };
      for (const s of ep.samples) if (!(s.key === '503 data_unavailable' && !served[ep.name])) log(`${label} ${k} NON-2xx ${ep.name} ${s.key}: ${s.method} ${s.path} ${s.body ?? ''} → ${s.response ?? ''}`);
    }
    const okTotal = Object.values(endpoints).reduce((a, e) => a + e.ok, 0);
    const run = {
      run: k,
      elapsed_s: res.elapsed_s,
      total: { ...res.total, rps_2xx: r2(okTotal / res.elapsed_s), unexpected_non2xx: unexpected(endpoints, served) },
      ...(res.offered_rps !== undefined ? { offered_rps: r2(res.offered_rps), dropped: res.dropped } : {}),
      server_process: { ...serverCpu, rss_peak_mb: mb(mem.peak), rss_end_mb: mb(mem.end), rss_samples: mem.samples },
      load_generator_cpu_s: res.generator_cpu_s,
      server_gc: gc,
      load_average_before: la0,
      load_average_after: loadAverage(),
      endpoints,
    };
    log(`${label} ${k}: ${res.total.rps} req/s (2xx ${run.total.rps_2xx})${res.offered_rps !== undefined ? ` of ${r2(res.offered_rps)} offered, ${res.dropped} dropped` : ''}, ` +
      `p50 ${res.total.p50_ms} p95 ${res.total.p95_ms} p99 ${res.total.p99_ms} ms, server ${serverCpu.cores_busy} cores busy, RSS peak ${mb(mem.peak)} MB, GC ${Object.entries(gc).filter(([, g]) => g.pauses > 0).map(([kind, g]) => `${kind} ${g.pauses}×/${g.total_ms} ms (>10 ms: ${g.over_10ms}, >100 ms: ${g.over_100ms})`).join(', ')}, unexpected non-2xx ${run.total.unexpected_non2xx}`);
    return { endpoints, run };
  };
  const runs: Record<string, unknown>[] = [];
  const perRun: Record<string, EndpointRun>[] = [];
  for (let k = 1; k <= RUNS; k++) {
    const { endpoints, run } = await measure(k, runSpec(k, SECONDS), 'run');
    perRun.push(endpoints);
    runs.push(run);
  }

  // Paced: the same mix in an open loop at a share of the flat-out rate just measured (the
  // median of the closed-loop runs), where latency is what a customer sees at a sustainable
  // load; issue 17 and 18's line: each endpoint's server p95 under 20 ms at 25% of flat out.
  const pacedRuns: Record<string, unknown>[] = [];
  const pacedPerRun: Record<string, EndpointRun>[] = [];
  const flatOut = median(runs.map((r: Record<string, any>) => r.total.rps as number));
  const pacedRate = PACED_SHARE * flatOut;
  if (PACED_SHARE > 0) {
    for (let k = 1; k <= RUNS; k++) {
      const spec = { ...runSpec(k + RUNS, SECONDS), mode: 'paced' as const, rate: pacedRate, connections: PACED_IN_FLIGHT };
      const { endpoints, run } = await measure(k, spec, 'paced');
      pacedPerRun.push(endpoints);
      pacedRuns.push(run);
    }
  }

  const hwm = memory(server.pid).hwm;
  const session = sessionRss.stop();
  const exit = await server.stop();
  serverPid = undefined;
  const loadAfter = loadAverage();

  // Medians over runs.
  const med = (f: (r: Record<string, EndpointRun>) => number) => r2(median(perRun.map(f)));
  const sumOver = (f: (e: EndpointRun) => Record<string, number>, name: string) => {
    const out: Record<string, number> = {};
    for (const r of perRun) for (const [k, c] of Object.entries(f(r[name]!))) out[k] = (out[k] ?? 0) + c;
    return out;
  };
  const table = MIX.map(([name, weight]) => ({
    endpoint: name,
    weight_per_1000: weight,
    served: served[name]!,
    rps: med((r) => r[name]!.rps),
    client: { p50_ms: med((r) => r[name]!.client.p50_ms), p95_ms: med((r) => r[name]!.client.p95_ms), p99_ms: med((r) => r[name]!.client.p99_ms) },
    server: { p50_ms: med((r) => r[name]!.server.p50_ms), p95_ms: med((r) => r[name]!.server.p95_ms), p99_ms: med((r) => r[name]!.server.p99_ms) },
    requests_all_runs: perRun.reduce((a, r) => a + r[name]!.client.n, 0),
    ok_all_runs: perRun.reduce((a, r) => a + r[name]!.ok, 0),
    non2xx_all_runs: sumOver((e) => e.non2xx, name),
    socket_errors_all_runs: sumOver((e) => e.socket_errors, name),
  }));
  const tot = (f: (r: Record<string, any>) => number) => r2(median(runs.map(f)));
  const totals = {
    rps: tot((r) => r.total.rps),
    rps_2xx: tot((r) => r.total.rps_2xx),
    client_p50_ms: tot((r) => r.total.p50_ms),
    client_p95_ms: tot((r) => r.total.p95_ms),
    client_p99_ms: tot((r) => r.total.p99_ms),
    unexpected_non2xx_all_runs: runs.reduce((a, r: Record<string, any>) => a + (r.total.unexpected_non2xx as number), 0),
    not_served_503_all_runs: table.filter((e) => !e.served).reduce((a, e) => a + (e.non2xx_all_runs['503 data_unavailable'] ?? 0), 0),
    server_cores_busy: tot((r) => r.server_process.cores_busy),
    server_rss_peak_mb: Math.max(...runs.map((r: Record<string, any>) => r.server_process.rss_peak_mb as number)),
    server_rss_end_mb: mb(rssEnd),
  };

  const pmed = (name: string, f: (e: EndpointRun) => number) => r2(median(pacedPerRun.map((r) => f(r[name]!))));
  const paced = PACED_SHARE > 0
    ? {
      share_of_flat_out: PACED_SHARE,
      flat_out_rps: r2(flatOut),
      offered_rps: r2(pacedRate),
      max_in_flight: PACED_IN_FLIGHT,
      target_server_p95_ms: 20,
      note: 'open loop (Poisson arrivals) at this share of the closed-loop runs\' median req/s; server latency from the access log; medians of the runs',
      runs: pacedRuns,
      endpoints: MIX.map(([name]) => ({
        endpoint: name,
        served: served[name]!,
        rps: pmed(name, (e) => e.rps),
        server: { p50_ms: pmed(name, (e) => e.server.p50_ms), p95_ms: pmed(name, (e) => e.server.p95_ms), p99_ms: pmed(name, (e) => e.server.p99_ms) },
        client: { p50_ms: pmed(name, (e) => e.client.p50_ms), p95_ms: pmed(name, (e) => e.client.p95_ms) },
        requests_all_runs: pacedPerRun.reduce((a, r) => a + r[name]!.client.n, 0),
        non2xx_all_runs: Object.fromEntries(pacedPerRun.flatMap((r) => Object.entries(r[name]!.non2xx)).reduce((m, [k, c]) => m.set(k, (m.get(k) ?? 0) + c), new Map<string, number>())),
        under_target: pmed(name, (e) => e.server.p95_ms) < 20,
      })),
    }
    : null;

  const result = {
    benchmark: 'mixed',
    command,
    when: new Date().toISOString(),
    git_commit: commit,
    machine: { ...machine, load_average_before: loadBefore, load_average_after: loadAfter },
    note: `${machine.cores} cores shared by the server, the load generator and this process (and whatever else runs on the machine: see the load averages)`,
    scale: { addresses: ADDRESSES, seed: SEED, properties: manifest.tables.properties?.rows ?? null },
    build: { id: manifest.build_id, created_at: manifest.created_at, fresh: FRESH, dir: FRESH ? '(temp, deleted)' : buildDir.replace(`${ROOT}/`, '') },
    load: { connections: CONNECTIONS, seconds: SECONDS, runs: RUNS, warmup_s: WARMUP, closed_loop: true },
    account: { tier: 'enterprise', account_id: account.account_id, rate_limit: rateLimit },
    server: {
      command: server.command,
      exit: exit,
      listening_after_ms: startMs,
      build_warmed_ms: warmMs,
      rss_after_warm_mb: mb(rssWarmed),
      rss_peak_mb_whole_session: mb(Math.max(session.peak, hwm)),
      rss_end_mb: mb(rssEnd),
      warnings_and_errors_logged: serverWarnings,
      warning_and_error_samples: serverWarningSamples,
    },
    mix: Object.fromEntries(MIX),
    totals,
    endpoints: table,
    paced,
    preflight,
    preflight_problems: problems,
    etl: etlSection(manifest, etlNow),
    runs,
  };
  mkdirSync(RESULTS, { recursive: true });
  const historyFile = join(RESULTS, 'mixed-history.jsonl');
  if (HISTORY) {
    const line = {
      date: result.when, commit, addresses: ADDRESSES, build_id: manifest.build_id, connections: CONNECTIONS, seconds: SECONDS, runs: RUNS,
      total_rps: totals.rps, rps_2xx: totals.rps_2xx, p50_ms: totals.client_p50_ms, p95_ms: totals.client_p95_ms, p99_ms: totals.client_p99_ms,
      errors: totals.unexpected_non2xx_all_runs, not_served_503: totals.not_served_503_all_runs,
      server_cores_busy: totals.server_cores_busy, server_rss_peak_mb: totals.server_rss_peak_mb,
      endpoints: Object.fromEntries(table.map((e) => [e.endpoint, {
        p50: e.client.p50_ms, p95: e.client.p95_ms, p99: e.client.p99_ms, rps: e.rps,
        errors: Object.entries(e.non2xx_all_runs).filter(([k]) => e.served || k !== '503 data_unavailable').reduce((a, [, c]) => a + c, 0) + Object.values(e.socket_errors_all_runs).reduce((a, c) => a + c, 0),
        ...(e.served ? {} : { not_served: true }),
      }])),
    };
    appendFileSync(historyFile, `${JSON.stringify(line)}\n`);
  }
  const history = existsSync(historyFile)
    ? readFileSync(historyFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
      .filter((h) => h.addresses === ADDRESSES && h.connections === CONNECTIONS).slice(-10)
    : [];
  const stem = TAG ? `mixed-${ADDRESSES}-${TAG}` : `mixed-${ADDRESSES}`;
  writeFileSync(join(RESULTS, `${stem}.json`), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(RESULTS, `${stem}.md`), markdown(result, history));
  log(`wrote bench/results/${stem}.json and .md`);
  console.log(readFileSync(join(RESULTS, `${stem}.md`), 'utf8'));
  process.exit(0);
}

/** Non-2xx other than the 503 data_unavailable of endpoints the build does not serve yet, plus socket errors. */
if (process.argv.includes('--etl-child')) {
  const i = process.argv.indexOf('--etl-child');
  await etlChild(process.argv[i + 1]!, process.argv[i + 2]!, process.argv[i + 3]!);
} else await main();
