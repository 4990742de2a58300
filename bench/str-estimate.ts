/**
 * Latency of the STR estimate (POST /valuations/str-estimate) with 100,000 listings.
 *
 *   npx tsx bench/str-estimate.ts [--addresses 20000] [--listings 100000] [--requests 2000] [--seed 42]
 *
 * The region generator places about 0.85% of addresses as listings, so 100,000 listings would
 * need a 12M-address region. Instead: a region of N addresses is generated and built (the real
 * stages), and `str_listings` is scaled to L rows by copying its comparable-eligible whole-home
 * listings (round robin) onto random address points of the region, each moved by up to ±50 m,
 * so listings are dense where homes are (every one of the L is a possible comparable: the
 * hardest case). The scaled table, the seasonality, postcodes, properties and the property
 * records are published as a build.
 * 1. In process: the listing index loaded as the service loads it (time, RSS), then the estimate
 *    (radius search + model) at random address points, bedrooms 1-4, timed per call.
 * 2. HTTP: a real server (real ledger, metering on) over that build in this process; requests one
 *    at a time on a keep-alive connection from this process (lat/lng, postcode and uprn forms),
 *    timed at the client.
 * Writes bench/results/str-estimate-<L>.json.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { propertyRecordsStage } from '../etl/stages/30-serving/20-property-records/stage.ts';
import { queryRows } from '../etl/pipeline/sql.ts';
import { buildApp } from '../service/app.ts';
import { loadConfig } from '../service/config.ts';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { createLogger } from '../service/log.ts';
import { fileDataSource } from '../service/build/source.ts';
import { BuildResources } from '../service/build/resources.ts';
import { fixedBuild } from '../service/build/warmer.ts';
import { estimateAt } from '../service/str/estimator.ts';
import { closeGracefully, createHttpServer, listen } from '../service/server.ts';
import { BuildStore, storeSql } from '../service/store/store.ts';
import { StrListingIndex } from '../service/str/listing-index.ts';
import { stagedContext } from '../test/support/region.ts';
import { tempDir } from '../test/support/tmp.ts';
import { rng } from '../etl/synth/prng.ts';
import { pct, r2, summaryWithMax as summary } from './support/stats.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '20000' }, listings: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '2000' }, seed: { type: 'string', default: '42' },
  },
});
const N = Number(values.addresses), L = Number(values.listings), R = Number(values.requests), SEED = Number(values.seed);
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const load0 = loadavg();

// 1. The region, built, and str_listings scaled to L rows in a published build.
let t = performance.now();
const ctx = await stagedContext(N, SEED);
log(`region of ${N} addresses staged in ${Math.round((performance.now() - t) / 1000)} s`);
const { dir: dataDir, cleanup } = tempDir('pi-bench-str-');
const buildId = '20251001T000000Z-b57e57';
const buildDir = join(dataDir, 'builds', buildId);
mkdirSync(buildDir, { recursive: true });
const c = ctx.conn;
await c.run(`CREATE OR REPLACE TEMP TABLE tpl AS SELECT row_number() OVER (ORDER BY id) - 1 AS tn, * FROM str_listings
  WHERE id IN (SELECT id FROM (${storeSql('str_estimate_listings')}))`);
await c.run(`CREATE OR REPLACE TEMP TABLE pts AS SELECT row_number() OVER (ORDER BY uprn) - 1 AS pn, lat, lng FROM addresses WHERE lat IS NOT NULL`);
const [{ templates, points } = {}] = await queryRows(c, `SELECT (SELECT count(*) FROM tpl) AS templates, (SELECT count(*) FROM pts) AS points`);
const q = (p: string) => join(buildDir, p).replaceAll("'", "''");
await c.run(`COPY (
  SELECT tpl.* EXCLUDE (tn, id, lat, lng),
    'b' || k.range AS id,
    pts.lat + ((hash(k.range, 1) % 1001) / 1000.0 - 0.5) * 0.0009 AS lat,
    pts.lng + ((hash(k.range, 2) % 1001) / 1000.0 - 0.5) * 0.0014 AS lng
  FROM range(${L}) k
  JOIN tpl ON tpl.tn = k.range % ${Number(templates)}
  JOIN pts ON pts.pn = hash(k.range, 3) % ${Number(points)}
  ORDER BY id) TO '${q('str_listings.parquet')}' (FORMAT parquet)`);
for (const tbl of ['str_seasonality', 'postcodes', 'properties']) {
  await c.run(`COPY (SELECT * FROM ${tbl}) TO '${q(`${tbl}.parquet`)}' (FORMAT parquet)`);
}
await propertyRecordsStage.run({ ...ctx, buildDir, artifacts: {} });
writeFileSync(join(buildDir, 'manifest.json'), JSON.stringify({ build_id: buildId, created_at: new Date().toISOString(), schema_version: 1, sources: [], tables: {} }));
symlinkSync(join('builds', buildId), join(dataDir, 'current'));
const samplePoints = await queryRows(c, `SELECT a.lat, a.lng, a.postcode, a.uprn::VARCHAR AS uprn FROM addresses a JOIN properties p USING (uprn)
  WHERE a.lat IS NOT NULL AND p.bedrooms IS NOT NULL ORDER BY hash(a.uprn, ${SEED}) LIMIT ${R}`);
log(`published ${L} listings from ${templates} templates on ${points} address points`);


// 2. In process: the index as the service loads it, then the estimate.
const store = await BuildStore.open(buildDir);
const rss0 = process.memoryUsage().rss;
t = performance.now();
const index = await StrListingIndex.load(store);
const loadMs = performance.now() - t;
const rssMb = Math.round((process.memoryUsage().rss - rss0) / 1048576);
log(`index: ${index.size} listings loaded in ${Math.round(loadMs)} ms (+${rssMb} MB RSS)`);
const r = rng(SEED, 'bench-str');
const inProc: number[] = [];
/** CPU time of each call (this thread): what the call costs, whatever else the machine runs. */
const inProcCpu: number[] = [];
const candidates: number[] = [];
for (const p of samplePoints) {
  const beds = r.int(1, 4);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const e = estimateAt(index, { lat: Number(p.lat), lng: Number(p.lng) }, { bedrooms: beds, finish_quality: 'average', include_comparables: false });
  inProc.push(performance.now() - t0);
  const cu = process.cpuUsage(c0);
  inProcCpu.push((cu.user + cu.system) / 1000);
  candidates.push(e ? index.near(Number(p.lat), Number(p.lng), 2000).rows.length : 0);
}
const cand = [...candidates].sort((a, b) => a - b);
log(`in process: ${JSON.stringify(summary(inProc))}; cpu ${JSON.stringify(summary(inProcCpu))}; candidates within 2 km p50 ${pct(cand, 50)}, p95 ${pct(cand, 95)}, max ${cand[cand.length - 1]}`);
store.close();

// 3. HTTP through the real service.
const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
const { koa } = buildApp({ config, ledger, clock: () => new Date(), builds: fixedBuild(new BuildResources(fileDataSource(dataDir).current()!)), logger: createLogger('silent') });
const server = createHttpServer(koa.callback(), config);
const port = await listen(server, 0, '127.0.0.1');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function post(body: unknown, path = '/v1/valuations/str-estimate', method = 'POST'): Promise<number> {
  const data = method === 'POST' ? JSON.stringify(body) : '';
  return new Promise((res, rej) => {
    const headers = { authorization: `Bearer ${api_key}`, ...(method === 'POST' ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) };
    const req = request({ host: '127.0.0.1', port, path, method, agent, headers }, (resp) => {
      resp.resume();
      resp.on('end', () => res(resp.statusCode ?? 0));
    });
    req.on('error', rej);
    req.end(data);
  });
}
// Warm up: the first request opens the build's store and loads the index.
t = performance.now();
await post({ lat: Number(samplePoints[0]!.lat), lng: Number(samplePoints[0]!.lng), bedrooms: 2 });
const firstMs = performance.now() - t;
// Baseline: the property record (1 credit, metered the same way: auth, rate limit, ledger), the service's floor.
const http: Record<string, number[]> = { lat_lng: [], postcode: [], uprn: [], baseline_property_record: [] };
for (const p of samplePoints.slice(0, 500)) {
  const t0 = performance.now();
  await post(undefined, `/v1/properties/${p.uprn}`, 'GET');
  http.baseline_property_record!.push(performance.now() - t0);
}
const statuses = new Map<number, number>();
for (const [i, p] of samplePoints.entries()) {
  const form = (['lat_lng', 'postcode', 'uprn'] as const)[i % 3]!;
  const beds = r.int(1, 4);
  const body = form === 'lat_lng' ? { lat: Number(p.lat), lng: Number(p.lng), bedrooms: beds } : form === 'postcode' ? { postcode: p.postcode, bedrooms: beds } : { uprn: p.uprn };
  const t0 = performance.now();
  const status = await post(body);
  http[form]!.push(performance.now() - t0);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}
agent.destroy();
await closeGracefully(server, 1_000);
await ledger.close();
const httpSummary = Object.fromEntries(Object.entries(http).map(([k, v]) => [k, summary(v)]));
log(`http: first request (store open + index load) ${Math.round(firstMs)} ms; ${JSON.stringify(httpSummary)}; statuses ${JSON.stringify([...statuses])}`);

const out = {
  addresses: N, listings: L, templates: Number(templates), address_points: Number(points), seed: SEED,
  index: { listings: index.size, load_ms: Math.round(loadMs), rss_mb: rssMb },
  candidates_within_2km: { p50: pct(cand, 50), p95: pct(cand, 95), max: cand[cand.length - 1] },
  in_process: summary(inProc),
  in_process_cpu: summary(inProcCpu),
  http: { first_request_ms: Math.round(firstMs), ...httpSummary, statuses: Object.fromEntries(statuses) },
  load_average_before: load0.map(r2), load_average_after: loadavg().map(r2),
};
const dir = resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `str-estimate-${L}.json`), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
cleanup();
process.exit(0);
