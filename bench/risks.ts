/**
 * GET /v1/risks/{uprn} on a published build (default: the lead's 1,000,000-address build).
 *
 *   npx tsx bench/risks.ts [--data-dir data/bench/dd-1000000-42] [--seconds 15] [--connections 10] [--runs 3]
 *
 * 0. Links the build's files into a temp DATA_DIR and writes its property record file afresh
 *    with the current stage (the published build may predate it or its flag columns).
 * 1. Opens the endpoint's data as the service does (the property record file and the
 *    in-memory designation index): open time and RSS.
 * 2. In process, no HTTP: the handler (two binary searches, assembly), 3,000 random UPRNs.
 * 3. A real server (real ledger, metering on) in this process on a temp DATA_DIR whose
 *    `current` points at the build (nothing is written into the build's folder); autocannon in
 *    a second process drives /v1/risks/{uprn} over random UPRNs of the build, then over UPRNs
 *    inside at least one designation (longer answers). Server-side latency is taken in the
 *    server from request to response finish; throughput from the load generator. Each load is
 *    run `--runs` times; the medians are reported with every run.
 * Writes bench/results/risks-<addresses>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileDataSource } from '../service/build/source.ts';
import risksRoute from '../service/routes/v1/risks.ts';
import { BuildResources } from '../service/build/resources.ts';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { propertyRecordsStage } from '../etl/stages/30-serving/20-property-records/stage.ts';
import { PROPERTY_RECORDS_FILE } from '../lib/files/record-file-format.ts';
import { tempDir } from '../test/support/tmp.ts';
import { runAutocannon } from './support/autocannon-load.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { arg, argStr, mb, median, r2, summary } from './support/stats.ts';
import { startTimedServer } from './support/timed-server.ts';

/** Seeded shuffle, so every run asks for the same UPRNs in the same order. */
function shuffled<T>(xs: T[], seed = 42): T[] {
  const a = [...xs];
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

async function main(): Promise<void> {
  // --data-dir: a published DATA_DIR; default, the bench build at --addresses (1M), made when missing.
  const source = process.argv.includes('--data-dir') ? resolve(argStr('data-dir', '')) : (await ensureBenchBuild(arg('addresses', 1_000_000), arg('seed', 42))).dataDir;
  const SECONDS = arg('seconds', 15);
  const CONNECTIONS = arg('connections', 10);
  const RUNS = arg('runs', 3);
  const buildDir = realpathSync(join(source, 'current'));
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string; tables: Record<string, { rows: number }> };
  const N = manifest.tables.properties!.rows;
  const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
  const { dir: dataDir, cleanup } = tempDir('pi-bench-risks-');
  // A copy of the build (links to its files) with the property record file written afresh by
  // the current ETL stage: the published build may predate the file or its flag columns.
  const copyDir = join(dataDir, 'builds', manifest.build_id);
  mkdirSync(copyDir, { recursive: true });
  for (const f of readdirSync(buildDir)) if (f !== PROPERTY_RECORDS_FILE) symlinkSync(join(buildDir, f), join(copyDir, f));
  let t = performance.now();
  {
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const conn = await db.connect();
    await conn.run(`CREATE VIEW properties AS SELECT * FROM read_parquet('${buildDir}/properties.parquet')`);
    const ctx = { db, conn, buildDir: copyDir, artifacts: {}, log: { info: () => undefined, warn: () => undefined, error: () => undefined } } as unknown as BuildContext;
    await propertyRecordsStage.run(ctx);
    conn.closeSync();
    db.closeSync();
  }
  const recordsWriteMs = performance.now() - t;
  symlinkSync(join('builds', manifest.build_id), join(dataDir, 'current'));
  const build = fileDataSource(dataDir).current()!;
  log(`property records written in ${Math.round(recordsWriteMs)} ms`);

  // UPRNs to ask for: random ones of the build, and ones inside a designation.
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  const uprnsOf = async (q: string) => (await conn.runAndReadAll(q)).getRowObjectsJS().map((r) => String(r.uprn));
  const all = shuffled(await uprnsOf(`SELECT uprn FROM read_parquet('${buildDir}/properties.parquet') USING SAMPLE 60000 ROWS (reservoir, 42) ORDER BY uprn`));
  const designated = shuffled(await uprnsOf(`SELECT DISTINCT uprn FROM read_parquet('${buildDir}/uprn_designations.parquet') ORDER BY uprn`)).slice(0, 60_000);
  const designatedShare = (await conn.runAndReadAll(`SELECT count(DISTINCT uprn)::DOUBLE / ${N} AS s FROM read_parquet('${buildDir}/uprn_designations.parquet')`)).getRowObjectsJS()[0]!.s as number;
  conn.closeSync();
  db.closeSync();

  // 1. The endpoint's data as the service opens it: the record file and the designation index.
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  t = performance.now();
  const res = new BuildResources(build);
  if (!(await res.risks.get())) throw new Error('the build cannot serve /risks (no uprn_designations.parquet?)');
  const openMs = performance.now() - t;
  global.gc?.();
  const rssOpen = process.memoryUsage().rss;
  log(`risk data opened in ${Math.round(openMs)} ms (RSS ${mb(rss0)} → ${mb(rssOpen)} MB)`);

  // 2. In process: the handler alone (record lookup, designation lookup, assembly), sequential.
  const handlerMs: number[] = [];
  const input = (uprn: string) => ({ params: { uprn: Number(uprn) }, data: res, build }) as unknown as Parameters<typeof risksRoute.handler>[0];
  for (let i = 0; i < 3_000; i++) {
    const t0 = performance.now();
    await risksRoute.handler(input(all[i % all.length]!));
    handlerMs.push(performance.now() - t0);
  }
  log(`handler in process ${JSON.stringify(summary(handlerMs))}`);

  // 3. The server and the load generator.
  let serverMs: number[] = [];
  const statuses: Record<string, number> = {};
  const server = await startTimedServer(dataDir, res, (_req, ms, status) => {
    serverMs.push(ms);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const { url, headers } = server;

  const load: Record<string, unknown> = {};
  for (const [name, uprns] of [['random', all], ['designated', designated]] as const) {
    const paths = uprns.map((u) => `/v1/risks/${u}`);
    const runs: Record<string, unknown>[] = [];
    for (let k = 0; k < RUNS; k++) {
      serverMs = [];
      const client = await runAutocannon({ url, paths, headers, connections: CONNECTIONS, seconds: SECONDS }, dataDir, `${name}-${k}`);
      runs.push({ server: summary(serverMs), ...client, load_average: loadavg().map(r2) });
      log(`${name} run ${k + 1}: ${JSON.stringify(runs.at(-1))}`);
    }
    const srv = (key: 'p50_ms' | 'p95_ms' | 'p99_ms') => median(runs.map((r) => (r.server as Record<string, number>)[key]!));
    load[name] = {
      median: { server_p50_ms: srv('p50_ms'), server_p95_ms: srv('p95_ms'), server_p99_ms: srv('p99_ms'), rps: median(runs.map((r) => r.rps as number)) },
      runs,
    };
  }

  const result = {
    benchmark: 'risks',
    command: `npx tsx bench/risks.ts --data-dir ${source} --seconds ${SECONDS} --connections ${CONNECTIONS} --runs ${RUNS}`,
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    build_id: manifest.build_id,
    addresses: N,
    designation_rows: manifest.tables.uprn_designations?.rows ?? null,
    share_of_uprns_designated: r2(designatedShare * 100) / 100,
    property_records_write_ms: Math.round(recordsWriteMs),
    open_ms: Math.round(openMs),
    rss_before_open_mb: mb(rss0),
    rss_after_open_mb: mb(rssOpen),
    handler_in_process: summary(handlerMs),
    load: { connections: CONNECTIONS, seconds: SECONDS, runs: RUNS, ...load },
    statuses,
    load_average_at_end: loadavg().map(r2),
  };
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `risks-${N}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await server.close();
  cleanup();
  process.exit(0);
}

await main();
