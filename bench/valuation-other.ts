/**
 * HMO valuation, development GDV and long-term rents on a published build (default the
 * 1,000,000-address synthetic build), through the real Koa app with metering on.
 *
 *   npx tsx bench/valuation-other.ts [--data-dir data/bench/dd-1000000-42] [--sources data/bench/region-1000000-42]
 *                                    [--seconds 10] [--connections 10] [--runs 3]
 *
 * 1. Serves a copy of the build (its Parquet files linked into a temp DATA_DIR). A build
 *    published before the valuation_evidence stage lacks rent_lets, sqft_sales and
 *    hmo_yields_area: they are made here by that stage's own SQL over the build's Parquet
 *    and the region's rental evidence (read with the ETL's reader), with the build's date.
 * 2. HMO accuracy against the generator's truth (truth/properties.csv: every HMO's true room
 *    rent and rooms), beside the noise floor of one observed room let (truth/rentals.csv).
 * 3. Per endpoint, `--runs` runs of `--seconds` with autocannon in a second process;
 *    server-side p50/p95/p99 from request to response finish, throughput from the client.
 * Writes bench/results/valuation-other-<N>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { join, resolve } from 'node:path';
import { PUBLISHED_TABLES } from '../schemas/tables/index.ts';
import { stageSql } from '../etl/pipeline/sql.ts';
import { RejectLog } from '../etl/sources/rejects.ts';
import { appendRows, createTable } from '../etl/pipeline/load-rows.ts';
import { rentalEvidence } from '../etl/sources/rental_evidence/source.ts';
import { MIN_HMO_YIELD_SALES } from '../schemas/tables/valuation.ts';
import { fileDataSource, type BuildInfo } from '../service/build/source.ts';
import { BuildResources } from '../service/build/resources.ts';
import { propertyRecordsStage } from '../etl/stages/30-serving/20-property-records/stage.ts';
import { PROPERTY_RECORDS_FILE } from '../lib/files/record-file-format.ts';
import type { BuildContext } from '../etl/pipeline/context.ts';
import { tempDir } from '../test/support/tmp.ts';
import hmoRoute from '../service/routes/v1/valuation-hmo.ts';
import rentsRoute from '../service/routes/v1/rents-long-term.ts';
import gdvRoute from '../service/routes/v1/valuation-development-gdv.ts';
import type { RouteDef } from '../service/routes/types.ts';
import { runAutocannon } from './support/autocannon-load.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { arg, argStr, median, pct, r2, summary } from './support/stats.ts';
import { startTimedServer } from './support/timed-server.ts';

const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const VALUATION_TABLES = ['rent_lets', 'sqft_sales', 'hmo_yields_area'];

/** Links the build into `dataDir` and makes the valuation tables it lacks (see the header). */
async function prepareBuild(srcBuild: string, sourcesDir: string, dataDir: string): Promise<{ dir: string; made: string[]; ms: number }> {
  const manifest = JSON.parse(readFileSync(join(srcBuild, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const dir = join(dataDir, 'builds', String(manifest.build_id));
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(srcBuild)) if (f !== 'manifest.json') symlinkSync(join(srcBuild, f), join(dir, f));
  copyFileSync(join(srcBuild, 'manifest.json'), join(dir, 'manifest.json'));
  symlinkSync(join('builds', String(manifest.build_id)), join(dataDir, 'current'));
  const missing = VALUATION_TABLES.filter((t) => !existsSync(join(srcBuild, `${t}.parquet`)));
  const t0 = performance.now();
  if (!existsSync(join(srcBuild, PROPERTY_RECORDS_FILE))) {
    // A build from before the property-records stage: write its record file with that stage.
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const conn = await db.connect();
    await conn.run(`CREATE VIEW properties AS SELECT * FROM read_parquet('${join(srcBuild, 'properties.parquet')}')`);
    rmSync(join(dir, PROPERTY_RECORDS_FILE), { force: true });
    const ctx = { db, conn, buildDir: dir, artifacts: {}, log: { info: () => undefined, warn: () => undefined, error: () => undefined } } as unknown as BuildContext;
    await propertyRecordsStage.run(ctx);
    missing.push(PROPERTY_RECORDS_FILE);
    conn.closeSync();
    db.closeSync();
  }
  if (missing.some((m) => VALUATION_TABLES.includes(m))) {
    const today = String(manifest.created_at).slice(0, 10);
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const conn = await db.connect();
    for (const t of ['properties', 'postcodes', 'sales', 'price_index_monthly', 'rents_rooms']) {
      await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(srcBuild, `${t}.parquet`)}')`);
    }
    const columns = [...rentalEvidence.columns, { name: '_file_no', type: 'INTEGER' as const, get: () => 1 }];
    await createTable(conn, rentalEvidence.table, columns);
    await appendRows(conn, rentalEvidence.table, columns, rentalEvidence.read(join(sourcesDir, 'rents', 'rental-evidence.csv'), new RejectLog()));
    await stageSql('40-marts/60-valuation-evidence').run(conn, 'valuation_rent_lets', { today });
    await stageSql('40-marts/60-valuation-evidence').run(conn, 'valuation_sqft_sales', { today });
    await stageSql('40-marts/60-valuation-evidence').run(conn, 'valuation_hmo_yields', { min_sales: MIN_HMO_YIELD_SALES });
    for (const name of missing.filter((m) => VALUATION_TABLES.includes(m))) {
      const t = PUBLISHED_TABLES.find((x) => x.name === name)!;
      await conn.run(`COPY (SELECT * FROM ${name} ORDER BY ${t.sortKey.join(', ')}) TO '${join(dir, `${name}.parquet`)}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000)`);
    }
    conn.closeSync();
    db.closeSync();
  }
  return { dir, made: missing, ms: Math.round(performance.now() - t0) };
}

async function* csvRows(path: string): AsyncGenerator<Record<string, string>> {
  let header: string[] | undefined;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    const cells = line.split(',');
    if (!header) header = cells;
    else yield Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  }
}

/** HMO rent model against the truth: every true HMO valued with the default options. */
async function hmoAccuracy(res: BuildResources, sourcesDir: string) {
  const valuer = (await res.hmoValuer.get())!;
  const truth: { uprn: string; room: number; rooms: number; value: number }[] = [];
  for await (const r of csvRows(join(sourcesDir, 'truth', 'properties.csv'))) {
    if (r.hmo === '1' && r.true_room_rent_pcm) truth.push({ uprn: r.uprn!, room: Number(r.true_room_rent_pcm), rooms: Number(r.rooms), value: Number(r.true_value_today) });
  }
  const roomErr: number[] = [], roomSigned: number[] = [], totalErr: number[] = [], roomsExact: number[] = [], valueRatio: number[] = [];
  const byConfidence: Record<string, number[]> = {};
  const ms: number[] = [];
  for (const t of truth) {
    const t0 = performance.now();
    const r = valuer.value(Number(t.uprn), { finish_quality: 'average', living_room: true, parking: true, outside_space: true });
    if (r.kind === 'not_found') continue;
    ms.push(performance.now() - t0);
    const v = r.valuation;
    const e = Math.abs(v.gross_rent_pcm.per_room_avg / t.room - 1);
    roomErr.push(e);
    roomSigned.push(v.gross_rent_pcm.per_room_avg / t.room - 1);
    totalErr.push(Math.abs(v.gross_rent_pcm.total / (t.room * t.rooms) - 1));
    roomsExact.push(v.gross_rent_pcm.rooms === t.rooms ? 1 : 0);
    valueRatio.push(v.hmo_sale_value.point / t.value);
    (byConfidence[v.hmo_sale_value.confidence] ??= []).push(e);
  }
  // Noise floor: one observed room let against its own true rent.
  const floor: number[] = [];
  for await (const r of csvRows(join(sourcesDir, 'truth', 'rentals.csv'))) {
    if (r.let_type === 'room') floor.push(Math.abs(Number(r.observed_rent_pcm) / Number(r.true_rent_pcm) - 1));
  }
  const within = (v: number[], x: number) => r2((100 * v.filter((e) => e <= x).length) / v.length);
  return {
    hmos_in_truth: truth.length,
    valuer_in_process: summary(ms),
    valued: roomErr.length,
    room_rent_mdape_pct: r2(100 * median(roomErr)),
    room_rent_bias_pct: r2(100 * median(roomSigned)),
    room_rent_within_10_pct: within(roomErr, 0.1),
    room_rent_within_20_pct: within(roomErr, 0.2),
    total_rent_mdape_pct: r2(100 * median(totalErr)),
    rooms_equal_truth_pct: r2((100 * roomsExact.reduce((a, b) => a + b, 0)) / roomsExact.length),
    room_rent_mdape_by_confidence_pct: Object.fromEntries(Object.entries(byConfidence).map(([k, v]) => [k, { n: v.length, mdape_pct: r2(100 * median(v)) }])),
    hmo_value_over_true_house_value_median: r2(median(valueRatio)),
    noise_floor_one_room_let_mdape_pct: r2(100 * median(floor)),
    noise_floor_lets: floor.length,
  };
}

async function main(): Promise<void> {
  const SECONDS = arg('seconds', 10);
  const CONNECTIONS = arg('connections', 10);
  const RUNS = arg('runs', 3);
  // --data-dir and --sources: a published DATA_DIR and its synthetic region; default, the
  // bench build at --addresses (1M), made when missing.
  const made = process.argv.includes('--data-dir') ? undefined : await ensureBenchBuild(arg('addresses', 1_000_000), arg('seed', 42));
  const srcData = made?.dataDir ?? resolve(argStr('data-dir', ''));
  const sourcesDir = made?.region ?? resolve(argStr('sources', ''));
  const srcBuild = realpathSync(join(srcData, 'current'));
  const { dir: dataDir, cleanup } = tempDir('pi-bench-valuation-');
  const load0 = loadavg();
  const prep = await prepareBuild(srcBuild, sourcesDir, dataDir);
  log(`build ${prep.dir}: made ${prep.made.join(', ') || 'nothing'} in ${prep.ms} ms`);
  const manifest = JSON.parse(readFileSync(join(prep.dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const build: BuildInfo = { id: String(manifest.build_id), dir: prep.dir, manifest };
  const addresses = Number((manifest.tables as Record<string, { rows: number }>).properties?.rows ?? 0);

  const res = new BuildResources(build);
  let t = performance.now();
  const store = await res.store.get();
  const storeOpenMs = Math.round(performance.now() - t);
  t = performance.now();
  const accuracy = await hmoAccuracy(res, sourcesDir);
  log(`HMO accuracy (${Math.round(performance.now() - t)} ms): ${JSON.stringify(accuracy)}`);

  // Inputs: random homes, sectors, outcodes, points and sites from the build itself.
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  const uprns = (await q(`SELECT uprn FROM read_parquet('${join(prep.dir, 'properties.parquet')}') USING SAMPLE reservoir(50000 ROWS) REPEATABLE (42)`)).map((r) => String(r.uprn));
  const postcodes = await q(`SELECT postcode, sector, outcode, lat, lng, country FROM read_parquet('${join(prep.dir, 'postcodes.parquet')}') WHERE lat IS NOT NULL AND NOT terminated AND address_count > 0 USING SAMPLE reservoir(20000 ROWS) REPEATABLE (42)`);
  conn.closeSync();
  db.closeSync();
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const choice = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)]!;
  const finishes = ['below_average', 'average', 'above_average', 'very_high'];
  const hmoPaths = uprns.map((u) => {
    const opts = rand() < 0.5 ? '' : `?finish_quality=${choice(finishes)}&living_room=${rand() < 0.7}&parking=${rand() < 0.6}&outside_space=${rand() < 0.7}`;
    return `/v1/valuations/${u}/hmo${opts}`;
  });
  const rentPaths = postcodes.map((p) => {
    const k = rand();
    const filt = rand() < 0.3 ? `&bedrooms=${Math.floor(rand() * 5)}` : rand() < 0.3 ? `&property_type=${rand() < 0.5 ? 'house' : 'flat'}` : '';
    if (k < 0.35) return `/v1/rents/long-term?postcode=${encodeURIComponent(String(p.postcode))}${filt}`;
    if (k < 0.5) return `/v1/rents/long-term?postcode=${encodeURIComponent(String(p.sector))}${filt}`;
    if (k < 0.7) return `/v1/rents/long-term?outcode=${p.outcode}${filt}`;
    return `/v1/rents/long-term?lat=${p.lat}&lng=${p.lng}&radius_m=${choice([500, 1000, 2000])}${filt}`;
  });
  const gdvBodies = postcodes.filter((p) => p.country !== 'Scotland').map((p) =>
    JSON.stringify({
      postcode: p.postcode,
      units: [
        { property_type: 'flat', bedrooms: 1, floor_area_sqft: 500 + Math.floor(rand() * 100), count: 1 + Math.floor(rand() * 20) },
        { property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 },
        ...(rand() < 0.6 ? [{ property_type: 'house', bedrooms: 3, floor_area_sqft: 1000, count: 1 + Math.floor(rand() * 8) }] : []),
      ],
      finish_quality: choice(finishes),
    }));

  // Handler only, in process (no HTTP, auth or metering): what the endpoint itself costs.
  const handlerOnly = async (route: RouteDef, inputs: { params?: unknown; query?: unknown; body?: unknown }[]) => {
    const ms: number[] = [];
    for (const inp of inputs) {
      const t0 = performance.now();
      try {
        await route.handler({ params: inp.params, query: inp.query, body: inp.body, build } as never);
      } catch {
        /* 404s count too */
      }
      ms.push(performance.now() - t0);
    }
    return summary(ms.slice(50));
  };
  const qs = (path: string) => Object.fromEntries(new URL(path, 'http://x').searchParams);
  const inProcess = {
    hmo: await handlerOnly(hmoRoute, hmoPaths.slice(0, 2000).map((p) => ({ params: { uprn: p.split('/')[3] }, query: hmoRoute.query!.parse(qs(p)) }))),
    rents_long_term: await handlerOnly(rentsRoute, rentPaths.slice(0, 2000).map((p) => ({ query: rentsRoute.query!.parse(qs(p)) }))),
    development_gdv: await handlerOnly(gdvRoute, gdvBodies.slice(0, 1000).map((b) => ({ body: gdvRoute.body!.parse(JSON.parse(b)) }))),
  };
  log(`handler only, in process: ${JSON.stringify(inProcess)}`);

  let serverMs: number[] = [];
  const statuses: Record<string, Record<string, number>> = {};
  let current = 'warmup';
  const server = await startTimedServer(dataDir, res, (_req, ms, status) => {
    serverMs.push(ms);
    const s = (statuses[current] ??= {});
    s[status] = (s[status] ?? 0) + 1;
  });
  const url = server.url;
  const headers = { ...server.headers, 'content-type': 'application/json' };
  // Warm the per-build caches (area tables, premiums) outside the timed runs.
  for (const [method, path, body] of [['GET', hmoPaths[0]!, undefined], ['POST', '/v1/valuations/development-gdv', gdvBodies[0]], ['GET', rentPaths[0]!, undefined]] as const) {
    await fetch(url + path, { method, headers, ...(body ? { body } : {}) });
  }

  const endpoints = [
    // The floor of the chain (auth, rate limit, metering, ledger) on this machine: the property record.
    { name: 'baseline_property_record', spec: { method: 'GET' as const, paths: uprns.map((u) => `/v1/properties/${u}`) } },
    { name: 'hmo', spec: { method: 'GET' as const, paths: hmoPaths } },
    { name: 'rents_long_term', spec: { method: 'GET' as const, paths: rentPaths } },
    { name: 'development_gdv', spec: { method: 'POST' as const, paths: ['/v1/valuations/development-gdv'], bodies: gdvBodies } },
  ];
  const results: Record<string, unknown> = {};
  for (const e of endpoints) {
    const runs: Record<string, unknown>[] = [];
    // One awaited call (per-build loads: the property record also opens the sale valuer), then
    // an untimed 3-second burst: lazy loads and JIT warm-up are not measured.
    current = `${e.name}-warmup`;
    await fetch(url + e.spec.paths[0], { method: e.spec.method, headers, ...('bodies' in e.spec && e.spec.bodies ? { body: e.spec.bodies[0] } : {}) });
    await runAutocannon({ url, headers, connections: CONNECTIONS, seconds: 3, ...e.spec }, dataDir, `${e.name}-warmup`);
    for (let i = 0; i < RUNS; i++) {
      current = e.name;
      serverMs = [];
      const client = await runAutocannon({ url, headers, connections: CONNECTIONS, seconds: SECONDS, ...e.spec }, dataDir, `${e.name}-${i}`);
      runs.push({ server: summary(serverMs), ...client, loadavg_1m: r2(loadavg()[0]!) });
      log(`${e.name} run ${i + 1}: ${JSON.stringify(runs.at(-1))}`);
    }
    const m = (f: (r: Record<string, any>) => number) => r2(median(runs.map(f)));
    results[e.name] = {
      median_of_runs: { p50_ms: m((r) => r.server.p50_ms), p95_ms: m((r) => r.server.p95_ms), p99_ms: m((r) => r.server.p99_ms), rps: m((r) => r.rps) },
      runs,
      statuses: statuses[e.name],
    };
  }

  const result = {
    benchmark: 'valuation-other',
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    build: build.id,
    addresses,
    tables_made_for_bench: prep.made,
    tables_made_ms: prep.ms,
    store_open_ms: storeOpenMs,
    loadavg_at_start: load0.map(r2),
    loadavg_at_end: loadavg().map(r2),
    note: 'shared 2-core machine; other agents run builds and tests at the same time',
    hmo_accuracy: accuracy,
    handler_only_in_process: inProcess,
    load: { connections: CONNECTIONS, seconds: SECONDS, runs: RUNS, ...results },
    service_rss_mb: Math.round(process.memoryUsage().rss / 1048576),
  };
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `valuation-other-${addresses}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  await server.close();
  cleanup();
  process.exit(0);
}

await main();
