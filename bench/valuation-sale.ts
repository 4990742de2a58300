/**
 * GET /v1/valuations/{uprn}/sale at scale, on a published build (default the 1M-address one).
 *
 *   npx tsx bench/valuation-sale.ts [--data-dir data/bench/dd-1000000-42] [--seconds 15] [--connections 10] [--rate-share 0.5] [--runs 3]
 *
 * 1. Opens the build's store and the sale valuer as the service does: open time and memory (RSS).
 * 2. In process: time of one valuation (no HTTP) over 100,000 random UPRNs, and the rung mix.
 * 3. A real server (real ledger in a temporary DATA_DIR whose `current` points at the build,
 *    so nothing is written into the build's folder; metering on) in this process; autocannon
 *    in a second process drives random UPRNs, flat out, then at rate-share × the flat-out
 *    throughput, `--runs` times each. Server-side latency is taken in the server from request
 *    to response finish; throughput from the load generator. Medians over the runs are reported.
 * Writes bench/results/valuation-sale-<addresses>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os, { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import { fileDataSource, type BuildInfo } from '../service/build/source.ts';
import { BuildResources } from '../service/build/resources.ts';
import { monthText } from '../schemas/months.ts';
import { tempDir } from '../test/support/tmp.ts';
import { runAutocannon } from './support/autocannon-load.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { arg, argStr, mb, median, r2, summary } from './support/stats.ts';
import { startTimedServer } from './support/timed-server.ts';

const argv = process.argv;
async function main(): Promise<void> {
  const SECONDS = arg('seconds', 15);
  const CONNECTIONS = arg('connections', 10);
  const RATE_SHARE = arg('rate-share', 0.5);
  const RUNS = arg('runs', 3);
  // --data-dir: a published DATA_DIR; default, the bench build at --addresses (1M), made when missing.
  const source = process.argv.includes('--data-dir') ? resolve(argStr('data-dir', '')) : (await ensureBenchBuild(arg('addresses', 1_000_000), arg('seed', 42))).dataDir;
  const buildDir = realpathSync(join(source, 'current'));
  const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
  // A DATA_DIR of our own (ledger, accounts) whose `current` is the build: nothing written into the source.
  const { dir: dataDir, cleanup } = tempDir('pi-bench-sale-');
  symlinkSync(buildDir, join(dataDir, 'current'));
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id?: string };
  const build: BuildInfo = { id: manifest.build_id ?? 'bench', dir: buildDir, manifest: manifest as never };

  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const uprnRows = (await conn.runAndReadAll(`SELECT uprn::DOUBLE AS u FROM read_parquet('${join(buildDir, 'properties.parquet')}') ORDER BY hash(uprn) LIMIT 100000`)).getColumnsObjectJS();
  const uprns = (uprnRows.u as number[]).map(Number);
  const [{ n: addresses }] = (await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(buildDir, 'properties.parquet')}')`)).getRowObjectsJS() as [{ n: number }];
  conn.closeSync();
  db.closeSync();

  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let t = performance.now();
  const res = new BuildResources(build);
  await res.store.get();
  const storeOpenMs = performance.now() - t;
  const rssStore = process.memoryUsage().rss;
  t = performance.now();
  const valuer = await res.saleValuer.get();
  const valuerOpenMs = performance.now() - t;
  const rssValuer = process.memoryUsage().rss;
  log(`store ${Math.round(storeOpenMs)} ms, valuer ${Math.round(valuerOpenMs)} ms (RSS ${mb(rss0)} → ${mb(rssStore)} → ${mb(rssValuer)} MB), ${valuer.evidence.size} evidence sales, as of ${monthText(valuer.asOfMonth)}`);

  const inProc: number[] = [];
  const rungs: Record<string, number> = {};
  for (const u of uprns) {
    const t0 = performance.now();
    const r = valuer.value(u);
    inProc.push(performance.now() - t0);
    const k = !r ? 'unknown' : r.estimate.value === null ? 'no_evidence' : r.estimate.confidence;
    rungs[k] = (rungs[k] ?? 0) + 1;
  }
  log(`in process ${JSON.stringify(summary(inProc))} rungs ${JSON.stringify(rungs)}`);

  let serverMs: number[] = [];
  const statuses: Record<string, number> = {};
  const server = await startTimedServer(dataDir, res, (_req, ms, status) => {
    serverMs.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const { url, headers } = server;
  const paths = uprns.map((u) => `/v1/valuations/${u}/sale`);
  // Warm up (first request opens the build in the app's own per-build caches if needed).
  await runAutocannon({ url, paths: paths.slice(0, 200), headers, connections: 2, seconds: 2 }, dataDir, 'warm');

  const runs: Record<string, unknown>[] = [];
  for (let k = 0; k < RUNS; k++) {
    serverMs = [];
    const flat = await runAutocannon({ url, paths: paths.slice((k * 20_000) % 60_000), headers, connections: CONNECTIONS, seconds: SECONDS }, dataDir, `flat-${k}`);
    const flatServer = summary(serverMs);
    log(`run ${k + 1} flat out: ${JSON.stringify({ server: flatServer, ...flat })} load ${os.loadavg().map(r2)}`);
    const rate = Math.max(1, Math.round(flat.rps! * RATE_SHARE));
    serverMs = [];
    const fixed = await runAutocannon({ url, paths: paths.slice(50_000), headers, connections: CONNECTIONS, seconds: SECONDS, rate }, dataDir, `rate-${k}`);
    const fixedServer = summary(serverMs);
    log(`run ${k + 1} at ${rate} req/s: ${JSON.stringify({ server: fixedServer, ...fixed })}`);
    runs.push({ flat: { server: flatServer, ...flat }, at_rate: { rate_rps: rate, server: fixedServer, ...fixed }, load_average: os.loadavg().map(r2) });
  }
  const pick = (f: (r: any) => number) => median(runs.map(f));
  const result = {
    benchmark: 'valuation-sale',
    command: `npx tsx bench/valuation-sale.ts ${argv.slice(2).join(' ')}`.trim(),
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    build: buildDir,
    addresses,
    as_of_month: monthText(valuer.asOfMonth),
    evidence_sales: valuer.evidence.size,
    store_open_ms: Math.round(storeOpenMs),
    valuer_open_ms: Math.round(valuerOpenMs),
    rss_mb: { before: mb(rss0), after_store: mb(rssStore), after_valuer: mb(rssValuer) },
    in_process: { ...summary(inProc), rungs },
    medians_over_runs: {
      flat_out: { rps: pick((r) => r.flat.rps), server_p50_ms: pick((r) => r.flat.server.p50_ms), server_p95_ms: pick((r) => r.flat.server.p95_ms), server_p99_ms: pick((r) => r.flat.server.p99_ms) },
      at_rate: { rps: pick((r) => r.at_rate.rate_rps), server_p50_ms: pick((r) => r.at_rate.server.p50_ms), server_p95_ms: pick((r) => r.at_rate.server.p95_ms), server_p99_ms: pick((r) => r.at_rate.server.p99_ms) },
    },
    runs,
    load: { connections: CONNECTIONS, seconds: SECONDS, rate_share: RATE_SHARE },
    statuses,
    load_average_end: os.loadavg().map(r2),
  };
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `valuation-sale-${addresses}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.medians_over_runs, null, 2));
  await server.close();
  cleanup();
  process.exit(0);
}

await main();
