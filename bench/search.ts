/**
 * Address search and property record at national scale, on addresses-only synthetic data
 * (bench/sql/bench_*.sql: the region generator is too slow for 10M addresses).
 *
 *   npx tsx bench/search.ts --addresses 1000000 [--seconds 15] [--connections 10] [--rate-shares 0.5] [--vocabulary calibrated|uniform] [--fresh]
 *
 * 1. Generates N addresses and their property rows in DuckDB, runs the real ETL stages
 *    (search index, property records) into a build folder: build time and index size. The
 *    build is kept in data/bench/search-<N>-<vocabulary> and reused by later runs (its
 *    timings with it); --fresh makes it again.
 * 2. Loads the index and the property store as the service does: load time, memory (RSS).
 * 3. In process: engine time per query (no HTTP) and top-1/top-5 on typed queries at scale.
 * 4. A real server (real ledger, metering on) in this process; a load generator in a second
 *    process drives /v1/addresses/search (distinct typed queries) and /v1/properties/{uprn}
 *    (random UPRNs), first flat out (autocannon, 10 connections), then with open-loop
 *    Poisson arrivals (bench/support/open-loop.ts) at each of rate-shares (comma-separated, e.g.
 *    0.1,0.25,0.5: a latency-load curve) × the flat-out throughput. Server-side latency is taken in the server from request to response
 *    finish; throughput from the load generator.
 * Writes bench/results/search-<N>.json.
 */
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os, { cpus } from 'node:os';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { accuracy, relevanceQueries } from '../test/support/search-relevance.ts';
import { searchIndexStage } from '../etl/stages/30-serving/10-search-index/stage.ts';
import { propertyRecordsStage } from '../etl/stages/30-serving/20-property-records/stage.ts';
import { PROPERTY_RECORDS_FILE } from '../lib/files/record-file-format.ts';
import { STREET_STEMS, STREET_TYPES } from '../etl/synth/names.ts';
import { fileDataSource, type BuildInfo } from '../service/build/source.ts';
import { SearchIndex } from '../service/search/engine.ts';
import { SEARCH_INDEX_FILE } from '../lib/files/search-index-format.ts';
import { BuildResources } from '../service/build/resources.ts';
import { tempDir } from '../test/support/tmp.ts';
import { runAutocannon, type AutocannonSpec } from './support/autocannon-load.ts';
import { openLoopInChild } from './support/open-loop.ts';
import { arg, argStr, mb, r2, summary } from './support/stats.ts';
import { startTimedServer } from './support/timed-server.ts';

const sql = (name: string) => readFileSync(join(import.meta.dirname, 'sql', `${name}.sql`), 'utf8');

/** With `rate`, open-loop Poisson arrivals at that mean rate (bench/support/open-loop.ts); flat out (autocannon, closed loop) without. */
type LoadSpec = AutocannonSpec;

/** A load's client-side figures: throughput, counts, client latency (and, open loop, error codes). */
type LoadResult = { rps: number } & Record<string, unknown>;

async function runLoad(spec: LoadSpec, dir: string, name: string): Promise<LoadResult> {
  if (spec.rate) {
    // A fixed rate: open-loop Poisson arrivals (bench/support/open-loop.ts), not autocannon's bursts.
    const r = await openLoopInChild({ url: spec.url, paths: spec.paths, headers: spec.headers, rate: spec.rate, seconds: spec.seconds }, dir, name);
    return { ...r, rps: Math.round(r.sent / spec.seconds), total: r.sent };
  }
  return { ...(await runAutocannon(spec, dir, name)) };
}

interface MadeBuild {
  buildId: string;
  buildDir: string;
  truth: Parameters<typeof relevanceQueries>[0];
  /** When and how long the data and the index took to make (kept with the build). */
  made: { at: string; generate_ms: number; index_build_ms: number; index_bytes: number; records_build_ms: number; records_bytes: number };
  reused: boolean;
}

/**
 * The bench's N addresses (addresses-only synthetic data, DuckDB) and their build: the real
 * search-index and property-records stages, properties.parquet for the store. Made once per
 * scale and vocabulary in data/bench/search-<N>-<vocabulary> and reused unless `fresh`.
 */
async function benchSearchBuild(N: number, vocabulary: string, fresh: boolean, log: (m: string) => void): Promise<MadeBuild> {
  const home = resolve(import.meta.dirname, '..', 'data', 'bench', `search-${N}-${vocabulary}`);
  const buildId = '20260101T000000Z-be0c40';
  const buildDir = join(home, 'builds', buildId);
  const madeFile = join(home, 'made.json');
  if (!fresh && existsSync(madeFile)) {
    const kept = JSON.parse(readFileSync(madeFile, 'utf8')) as Omit<MadeBuild, 'buildDir' | 'reused'>;
    log(`reusing the build made ${kept.made.at} in ${home} (--fresh to make it again)`);
    return { ...kept, buildDir, reused: true };
  }
  rmSync(home, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  let t = performance.now();
  const db = await DuckDBInstance.create(':memory:', { threads: '2', temp_directory: join(home, '.spill') });
  const conn = await db.connect();
  const syllables = ['ASH', 'BRAD', 'CAR', 'DAL', 'ELM', 'FAR', 'GLEN', 'HAL', 'IVY', 'KEN', 'LAN', 'MAR', 'NEW', 'OAK', 'PEN', 'RAD', 'SAL', 'THORN', 'UP', 'WAL', 'WEST', 'YAR', 'BUR', 'CROM', 'DUN', 'FEN', 'HOL', 'LYN', 'MOS', 'STAN'];
  await conn.run(sql('bench_addresses'), {
    n: N, stems: listValue(STREET_STEMS), types: listValue(STREET_TYPES.map(([long]) => long)), syllables: listValue(syllables),
    calibrated: vocabulary === 'calibrated', names: 10_000,
  });
  await conn.run(sql('bench_properties'));
  const generateMs = performance.now() - t;
  log(`generated ${N} addresses in ${Math.round(generateMs)} ms`);
  t = performance.now();
  const ctx = { db, conn, buildDir, buildId, artifacts: {}, log: { info: () => undefined, warn: () => undefined, error: () => undefined } } as unknown as BuildContext;
  await searchIndexStage.run(ctx);
  const indexBuildMs = performance.now() - t;
  const indexBytes = statSync(join(buildDir, SEARCH_INDEX_FILE)).size;
  log(`index built in ${Math.round(indexBuildMs)} ms, ${mb(indexBytes)} MB`);
  t = performance.now();
  await propertyRecordsStage.run(ctx);
  const recordsBuildMs = performance.now() - t;
  const recordsBytes = statSync(join(buildDir, PROPERTY_RECORDS_FILE)).size;
  log(`record file built in ${Math.round(recordsBuildMs)} ms, ${mb(recordsBytes)} MB`);
  await conn.run(`COPY (SELECT * FROM properties ORDER BY uprn) TO '${join(buildDir, 'properties.parquet')}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`);
  const truthRows = (await conn.runAndReadAll(sql('bench_truth_sample'), { k: 40_000, seed: 42 })).getRowObjectsJson();
  const truth = truthRows.map((r) => ({ ...(r as never as MadeBuild['truth'][number]), uprn: Number(r.uprn) }));
  conn.closeSync();
  db.closeSync();
  rmSync(join(home, '.spill'), { recursive: true, force: true });
  writeFileSync(join(buildDir, 'manifest.json'), JSON.stringify({ build_id: buildId, created_at: new Date().toISOString(), schema_version: 1, sources: [], tables: {} }));
  const made = {
    at: new Date().toISOString(), generate_ms: Math.round(generateMs), index_build_ms: Math.round(indexBuildMs), index_bytes: indexBytes,
    records_build_ms: Math.round(recordsBuildMs), records_bytes: recordsBytes,
  };
  // Written last: a build interrupted before this point is made again next time.
  writeFileSync(madeFile, JSON.stringify({ buildId, truth, made }));
  return { buildId, buildDir, truth, made, reused: false };
}

async function main(): Promise<void> {
  const N = arg('addresses', 1_000_000);
  const SECONDS = arg('seconds', 15);
  const CONNECTIONS = arg('connections', 10);
  // Street names: 'calibrated' to national Price Paid (default), or 'uniform' (the earlier worst case).
  const VOCABULARY = argStr('vocabulary', 'calibrated');
  if (VOCABULARY !== 'calibrated' && VOCABULARY !== 'uniform') throw new Error('--vocabulary must be calibrated or uniform');
  const RATE_SHARES = argStr('rate-shares', '0.5').split(',').map(Number).filter((x) => x > 0 && x <= 1);
  const { dir: dataDir, cleanup } = tempDir('pi-bench-search-');
  const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
  // The generated data and its build are kept in data/bench/search-<N>-<vocabulary> and
  // reused (at 10M they take about 10 minutes); --fresh makes them again.
  const made = await benchSearchBuild(N, VOCABULARY, process.argv.includes('--fresh'), log);
  const { buildId, buildDir, truth } = made;
  symlinkSync(buildDir, join(dataDir, 'current'));

  // 2. Load as the service does.
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  const build: BuildInfo = { id: buildId, dir: buildDir, manifest: {} };
  const res = new BuildResources(build);
  let t = performance.now();
  const index = await res.searchIndex.get();
  const indexLoadMs = performance.now() - t;
  const rssIndex = process.memoryUsage().rss;
  t = performance.now();
  await res.store.get();
  const storeOpenMs = performance.now() - t;
  const rssStore = process.memoryUsage().rss;
  t = performance.now();
  const records = await res.records.get();
  const recordsLoadMs = performance.now() - t;
  const rssRecords = process.memoryUsage().rss;
  log(`index loaded in ${Math.round(indexLoadMs)} ms (RSS ${mb(rss0)} → ${mb(rssIndex)} MB), store opened in ${Math.round(storeOpenMs)} ms`);

  // 3. In process: engine time and accuracy at scale, on queries the load will not repeat.
  const accSet = relevanceQueries(truth.slice(0, 20_000), 5_000, 8);
  const engineMs: number[] = [];
  const kindOf = new Map(accSet.map((q) => [q.q, q.kind]));
  const engineByKind: Record<string, number[]> = {};
  const acc = accuracy(accSet, (q) => {
    const t0 = performance.now();
    const r = index.search(q, 5).map((m) => m.uprn);
    const ms = performance.now() - t0;
    engineMs.push(ms);
    (engineByKind[kindOf.get(q) ?? '?'] ??= []).push(ms);
    return r;
  });
  log(`engine ${JSON.stringify(summary(engineMs))}; top1 ${acc.top1} top5 ${acc.top5}`);
  for (const [k, ms] of Object.entries(engineByKind)) log(`  ${k} ${JSON.stringify(summary(ms))}`);

  const store = await res.store.get();
  const storeMs: number[] = [];
  for (let i = 0; i < 3_000; i++) {
    const t0 = performance.now();
    await store.rows('property_by_uprn', [BigInt(100000000000 + ((i * 7919) % N))]);
    storeMs.push(performance.now() - t0);
  }
  log(`store lookup (sequential, in process) ${JSON.stringify(summary(storeMs))}`);
  const recordMs: number[] = [];
  for (let i = 0; i < 100_000; i++) {
    const t0 = performance.now();
    records.get(100000000000 + ((i * 7919) % N));
    recordMs.push(performance.now() - t0);
  }
  log(`record file lookup (in process) ${JSON.stringify(summary(recordMs))}`);

  // 4. The server and the load generator.
  const serverMs: Record<string, number[]> = { search: [], property: [] };
  const statuses: Record<string, number> = {};
  // The engine's own time inside the served searches (the rest of the server's time is
  // HTTP, metering with its fsync, GC and waiting): SearchIndex.search timed in place.
  const engineInServer: number[] = [];
  const search = SearchIndex.prototype.search;
  SearchIndex.prototype.search = function timed(this: SearchIndex, q: string, limit: number) {
    const t0 = performance.now();
    try {
      return search.call(this, q, limit);
    } finally {
      engineInServer.push(performance.now() - t0);
    }
  };
  // GC pauses of the server's process (this one), and each request's span, to tell how much
  // of the tail the collector makes: the slow requests (over the phase's p95) that overlapped
  // a pause.
  const gcPauses: Array<{ start: number; ms: number; major: boolean }> = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcPauses.push({ start: e.startTime, ms: e.duration, major: (e as unknown as { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const spans: Array<[number, number]> = [];
  /** Starts a load phase of `kind`; the function it returns gives the phase's server-side figures. */
  const phase = (kind: 'search' | 'property') => {
    serverMs[kind] = [];
    engineInServer.length = 0;
    spans.length = 0;
    const from = performance.now();
    return () => {
      const server = summary(serverMs[kind]!);
      const pauses = gcPauses.filter((g) => g.start >= from);
      const slow = spans.filter(([a, b]) => b - a > server.p95_ms);
      const gc = {
        pauses: pauses.length, major: pauses.filter((g) => g.major).length, total_ms: r2(pauses.reduce((t, g) => t + g.ms, 0)),
        max_ms: r2(Math.max(0, ...pauses.map((g) => g.ms))), slow_requests: slow.length,
        slow_overlapping_gc: slow.filter(([a, b]) => pauses.some((g) => g.start < b && g.start + g.ms > a)).length,
      };
      return { server, ...(kind === 'search' ? { engine_in_server: summary(engineInServer) } : {}), gc };
    };
  };
  const server = await startTimedServer(dataDir, res, (req, ms, status) => {
    const kind = req.url?.startsWith('/v1/addresses') ? 'search' : 'property';
    serverMs[kind]!.push(ms);
    spans.push([performance.now() - ms, performance.now()]);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const { url, headers } = server;

  const loadSet = relevanceQueries(truth.slice(20_000), 60_000, 9);
  const searchPaths = loadSet.map((q) => `/v1/addresses/search?q=${encodeURIComponent(q.q)}`);
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const propertyPaths = Array.from({ length: 60_000 }, () => `/v1/properties/${100000000000 + Math.floor(rand() * N)}`);

  // Flat out (autocannon, CONNECTIONS always busy: throughput, and latency that is mostly
  // queueing), then open-loop Poisson arrivals at RATE_SHARE of that throughput (latency as
  // customers see it at a sustainable load).
  const load: Record<string, unknown> = {};
  for (const [name, paths] of [['search', searchPaths], ['property', propertyPaths]] as const) {
    const flatOut = phase(name);
    const client = await runLoad({ url, paths, headers, connections: CONNECTIONS, seconds: SECONDS }, dataDir, name);
    load[name] = { ...flatOut(), ...client };
    log(`${name} flat out: ${JSON.stringify(load[name])}`);
    // Each fixed rate gets its own slice of the second half of the requests: a query already
    // asked at an earlier rate would be answered from the result cache.
    const slice = Math.floor(paths.length / 2 / RATE_SHARES.length);
    for (const [k, share] of RATE_SHARES.entries()) {
      const rate = Math.max(1, Math.round(client.rps * share));
      const atRate = phase(name);
      const fixed = await runLoad({ url, paths: paths.slice(paths.length / 2 + k * slice, paths.length / 2 + (k + 1) * slice), headers, connections: CONNECTIONS, seconds: SECONDS, rate }, dataDir, `${name}-rate`);
      const key = `${name}_at_${Math.round(share * 100)}pct`;
      load[key] = { rate_rps: rate, ...atRate(), ...fixed };
      log(`${name} at ${rate} req/s: ${JSON.stringify(load[key])}`);
    }
  }
  const rssEnd = process.memoryUsage().rss;

  const result = {
    benchmark: 'search',
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    addresses: N,
    vocabulary: VOCABULARY,
    // Made by this run, or reused from data/bench (made_at says when it was made and timed).
    build_reused: made.reused,
    made_at: made.made.at,
    generate_ms: made.made.generate_ms,
    index: { build_ms: made.made.index_build_ms, bytes: made.made.index_bytes, mb: mb(made.made.index_bytes), words: index.vocabularySize, load_ms: Math.round(indexLoadMs), rss_before_mb: mb(rss0), rss_after_mb: mb(rssIndex) },
    store_open_ms: Math.round(storeOpenMs),
    store_lookup_in_process: summary(storeMs),
    record_file: { build_ms: made.made.records_build_ms, bytes: made.made.records_bytes, mb: mb(made.made.records_bytes), load_ms: Math.round(recordsLoadMs), rss_delta_mb: mb(rssRecords - rssStore), lookup_in_process: summary(recordMs) },
    uv_threadpool_size: process.env.UV_THREADPOOL_SIZE ?? '4 (default)',
    engine_in_process: {
      queries: accSet.length, ...summary(engineMs), top1: acc.top1, top5: acc.top5,
      by_kind: Object.fromEntries(Object.entries(acc.byKind).map(([k, v]) => [k, { ...v, ...summary(engineByKind[k] ?? []) }])),
    },
    load_average: os.loadavg().map(r2),
    load: { connections: CONNECTIONS, seconds: SECONDS, ...load },
    statuses,
    service_rss_mb: mb(rssEnd),
  };
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  // A latency-load curve (several rate shares) goes beside the standard result, not over it.
  writeFileSync(join(out, `search-${N}${VOCABULARY === 'uniform' ? '-uniform' : ''}${RATE_SHARES.length > 1 ? '-load-curve' : ''}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  gcObserver.disconnect();
  await server.close();
  cleanup();
  process.exit(0);
}

await main();
