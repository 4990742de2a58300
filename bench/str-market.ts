/**
 * Latency of the market analysis (GET /str/market) with 100,000 listings, above all a 5 km
 * radius (the largest the API allows).
 *
 *   npx tsx bench/str-market.ts [--addresses 20000] [--listings 100000] [--requests 600] [--seed 42]
 *
 * The region generator places about 0.85% of addresses as listings, so 100,000 listings would
 * need a 12M-address region. Instead (as bench/str-estimate.ts): a region of N addresses is
 * generated and built (the real stages), and every listing of `str_listings` (all types, active
 * or not) is a template copied round robin onto random address points of the region, moved by
 * up to ±50 m, with its 24 rows of `str_listing_months` and 12 of `str_listing_prior_months` (the
 * year before, for year-on-year changes); so listings are dense where homes are.
 * Copies keep the template's sector and outcode (the grade benchmark is that of the region's
 * sectors). The scaled tables and the postcodes are published as a build.
 * 1. In process: the market set loaded as the service loads it (time, RSS), then the handler's
 *    work for a 5 km radius at random address points (R-tree search, distance check, filters,
 *    every section, JSON), timed per call.
 * 2. HTTP: a real server (real ledger, metering on) over that build in this process; requests
 *    one at a time on a keep-alive connection: 5 km radius with all sections, 5 km with a filter,
 *    and outcodes.
 * Writes bench/results/str-market-<L>.json.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { queryRows } from '../etl/pipeline/sql.ts';
import { rng } from '../etl/synth/prng.ts';
import { buildApp } from '../service/app.ts';
import { loadConfig } from '../service/config.ts';
import { SECTIONS, marketSections } from '../service/domain/str/market.ts';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { createLogger } from '../service/log.ts';
import { fileDataSource } from '../service/build/source.ts';
import { BuildResources } from '../service/build/resources.ts';
import { fixedBuild } from '../service/build/warmer.ts';
import { closeGracefully, createHttpServer, listen } from '../service/server.ts';
import { BuildStore } from '../service/store/store.ts';
import { StrMarketSet } from '../service/str/market-set.ts';
import { stagedContext } from '../test/support/region.ts';
import { tempDir } from '../test/support/tmp.ts';
import { pct, r2, summaryWithMax as summary } from './support/stats.ts';

const { values } = parseArgs({
  options: {
    addresses: { type: 'string', default: '20000' }, listings: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '600' }, seed: { type: 'string', default: '42' },
  },
});
const N = Number(values.addresses), L = Number(values.listings), R = Number(values.requests), SEED = Number(values.seed);
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const load0 = loadavg();

// 1. The region, built, and the STR tables scaled to L listings in a published build.
let t = performance.now();
const ctx = await stagedContext(N, SEED);
log(`region of ${N} addresses staged in ${Math.round((performance.now() - t) / 1000)} s`);
const { dir: dataDir, cleanup } = tempDir('pi-bench-strm-');
const buildId = '20251001T000000Z-b57e58';
const buildDir = join(dataDir, 'builds', buildId);
mkdirSync(buildDir, { recursive: true });
const c = ctx.conn;
await c.run(`CREATE OR REPLACE TEMP TABLE tpl AS SELECT row_number() OVER (ORDER BY id) - 1 AS tn, * FROM str_listings WHERE lat IS NOT NULL`);
await c.run(`CREATE OR REPLACE TEMP TABLE pts AS SELECT row_number() OVER (ORDER BY uprn) - 1 AS pn, lat, lng FROM addresses WHERE lat IS NOT NULL`);
const [{ templates, points } = {}] = await queryRows(c, `SELECT (SELECT count(*) FROM tpl) AS templates, (SELECT count(*) FROM pts) AS points`);
await c.run(`CREATE OR REPLACE TEMP TABLE copies AS
  SELECT k.range AS k, 'b' || k.range AS new_id, tpl.id AS tpl_id,
    pts.lat + ((hash(k.range, 1) % 1001) / 1000.0 - 0.5) * 0.0009 AS lat,
    pts.lng + ((hash(k.range, 2) % 1001) / 1000.0 - 0.5) * 0.0014 AS lng
  FROM range(${L}) k
  JOIN tpl ON tpl.tn = k.range % ${Number(templates)}
  JOIN pts ON pts.pn = hash(k.range, 3) % ${Number(points)}`);
const q = (p: string) => join(buildDir, p).replaceAll("'", "''");
await c.run(`COPY (
  SELECT tpl.* EXCLUDE (tn, id, lat, lng) , c.new_id AS id, c.lat, c.lng
  FROM copies c JOIN tpl ON tpl.id = c.tpl_id ORDER BY c.new_id) TO '${q('str_listings.parquet')}' (FORMAT parquet)`);
await c.run(`COPY (
  SELECT m.* EXCLUDE (id), c.new_id AS id
  FROM copies c JOIN str_listing_months m ON m.id = c.tpl_id ORDER BY c.new_id, m.month) TO '${q('str_listing_months.parquet')}' (FORMAT parquet)`);
await c.run(`COPY (
  SELECT m.* EXCLUDE (id), c.new_id AS id
  FROM copies c JOIN str_listing_prior_months m ON m.id = c.tpl_id ORDER BY c.new_id, m.month) TO '${q('str_listing_prior_months.parquet')}' (FORMAT parquet)`);
await c.run(`COPY (SELECT * FROM postcodes) TO '${q('postcodes.parquet')}' (FORMAT parquet)`);
writeFileSync(join(buildDir, 'manifest.json'), JSON.stringify({ build_id: buildId, created_at: new Date().toISOString(), schema_version: 1, sources: [], tables: {} }));
symlinkSync(join('builds', buildId), join(dataDir, 'current'));
const samplePoints = await queryRows(c, `SELECT lat, lng FROM addresses WHERE lat IS NOT NULL ORDER BY hash(uprn, ${SEED}) LIMIT ${R}`);
const outcodes = (await queryRows(c, `SELECT DISTINCT outcode FROM tpl WHERE outcode IS NOT NULL ORDER BY 1`)).map((x) => String(x.outcode));
log(`published ${L} listings from ${templates} templates on ${points} address points`);

// 2. In process: the set as the service loads it, then a 5 km analysis at random address points.
const store = await BuildStore.open(buildDir);
global.gc?.();
const rss0 = process.memoryUsage().rss;
t = performance.now();
const set = await StrMarketSet.load(store);
const loadMs = performance.now() - t;
const rssMb = Math.round((process.memoryUsage().rss - rss0) / 1048576);
log(`market set: ${set.listings.n} listings loaded in ${Math.round(loadMs)} ms (+${rssMb} MB RSS), benchmark of ${set.bench().areas.length} sectors`);
store.close();
const all = new Set(SECTIONS);
const inProc: number[] = [];
const within: number[] = [];
for (const p of samplePoints) {
  const t0 = performance.now();
  const idx = Int32Array.from(set.within(Number(p.lat), Number(p.lng), 5000)).sort();
  if (idx.length > 0) JSON.stringify(marketSections(set.listings, idx, all, set.bench()));
  inProc.push(performance.now() - t0);
  within.push(idx.length);
}
const wi = [...within].sort((a, b) => a - b);
log(`in process, 5 km: ${JSON.stringify(summary(inProc))}; listings within 5 km p50 ${pct(wi, 50)}, p95 ${pct(wi, 95)}, max ${wi[wi.length - 1]}`);

// 3. HTTP through the real service.
const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
const { koa } = buildApp({ config, ledger, clock: () => new Date(), builds: fixedBuild(new BuildResources(fileDataSource(dataDir).current()!)), logger: createLogger('silent') });
const server = createHttpServer(koa.callback(), config);
const port = await listen(server, 0, '127.0.0.1');
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(path: string): Promise<number> {
  return new Promise((res, rej) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: { authorization: `Bearer ${api_key}` } }, (resp) => {
      resp.resume();
      resp.on('end', () => res(resp.statusCode ?? 0));
    });
    req.on('error', rej);
    req.end();
  });
}
const at = (p: Record<string, unknown>) => `/v1/str/market?lat=${Number(p.lat)}&lng=${Number(p.lng)}&radius_m=5000`;
t = performance.now();
await get(at(samplePoints[0]!));
const firstMs = performance.now() - t;
const r = rng(SEED, 'bench-str-market');
const http: Record<string, number[]> = { radius_5km: [], radius_5km_filtered: [], outcode: [] };
const statuses = new Map<number, number>();
for (const [i, p] of samplePoints.entries()) {
  const form = (['radius_5km', 'radius_5km_filtered', 'outcode'] as const)[i % 3]!;
  const path = form === 'radius_5km' ? at(p)
    : form === 'radius_5km_filtered' ? `${at(p)}&listing_type=entire_home&min_bedrooms=${r.int(1, 3)}`
    : `/v1/str/market?outcode=${outcodes[r.int(0, outcodes.length - 1)]}`;
  const t0 = performance.now();
  const status = await get(path);
  http[form]!.push(performance.now() - t0);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
}
agent.destroy();
await closeGracefully(server, 1_000);
await ledger.close();
const httpSummary = Object.fromEntries(Object.entries(http).map(([k, v]) => [k, summary(v)]));
log(`http: first request (store open + set load) ${Math.round(firstMs)} ms; ${JSON.stringify(httpSummary)}; statuses ${JSON.stringify([...statuses])}`);

const out = {
  addresses: N, listings: L, templates: Number(templates), address_points: Number(points), seed: SEED,
  market_set: { listings: set.listings.n, load_ms: Math.round(loadMs), rss_mb: rssMb, benchmark_sectors: set.bench().areas.length },
  listings_within_5km: { p50: pct(wi, 50), p95: pct(wi, 95), max: wi[wi.length - 1] },
  in_process_5km: summary(inProc),
  http: { first_request_ms: Math.round(firstMs), ...httpSummary, statuses: Object.fromEntries(statuses) },
  load_average_before: load0.map(r2), load_average_after: loadavg().map(r2),
};
const dir = resolve(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, `str-market-${L}.json`), `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
cleanup();
process.exit(0);
