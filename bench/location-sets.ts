/**
 * The CPU a request of GET /crime and GET /listings costs with the crime and listings sets read
 * where they lie (the ETL's files, ADR 0015 step 6) against the same build's sets held in the
 * heap (the build as one published before the files), and the radius search alone over the
 * points files at three cell sizes, to choose the cell (lib/files/location-sets-files.ts).
 *
 *   node --import tsx bench/location-sets.ts [--addresses 1000000] [--runs 3] [--requests 400] [--seed 42]
 *
 * Each run calls each route's own handler (no HTTP: the resolver and the answer included) for
 * the same postcodes, the file path and the heap path alternated in a rotated order, and takes
 * the process's CPU time (user + system) per request; the medians over `--runs` are reported,
 * with file ÷ heap. Postcodes are drawn from the build's postcodes with addresses (a fixed LCG).
 * GET /sourcing/deals on fresh resources (each listing's evidence computed as the query selects
 * it) and then again (kept). The cell sizes: the 500 m file's rows rewritten keyed by 250 and 1,000 m cells into a temporary
 * folder, each searched for the same points and radii. Writes bench/results/location-sets-<N>.json.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BlockCache } from '../lib/files/block-file.ts';
import { CellPoints } from '../lib/files/cell-points.ts';
import { KeyedRowsFile, KeyedRowsWriter, type Value } from '../lib/files/keyed-rows-file.ts';
import { CELL_M, LOCATION_SET_FILES } from '../lib/files/location-sets-files.ts';
import { cellKeyOf } from '../lib/geo/grid-cells.ts';
import { Points } from '../lib/geo/points.ts';
import { CrimeQuerySchema } from '../schemas/api/crime.ts';
import { DealsQuerySchema, ListingsQuerySchema } from '../schemas/api/listings.ts';
import { BuildResources } from '../service/build/resources.ts';
import { fileDataSource, type BuildInfo } from '../service/build/source.ts';
import crimeRoute from '../service/routes/v1/crime.ts';
import listingsRoute from '../service/routes/v1/listings.ts';
import dealsRoute from '../service/routes/v1/sourcing-deals.ts';
import { BuildStore } from '../service/store/store.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const addresses = arg('addresses', 1_000_000);
const runs = arg('runs', 3);
const requests = arg('requests', 400);
const seed = arg('seed', 42);

const { dataDir } = await ensureBenchBuild(addresses, seed);
const build = fileDataSource(dataDir).current()!;
const artifacts = build.manifest.artifacts as Record<string, unknown>;
const heapBuild: BuildInfo = {
  ...build,
  manifest: { ...build.manifest, artifacts: Object.fromEntries(Object.entries(artifacts).filter(([k]) => !Object.values(LOCATION_SET_FILES).some((s) => s.artifact === k))) },
};
const files = new BuildResources(build);
const heap = new BuildResources(heapBuild);

// The postcodes asked about, and the sets and resolver warmed on both sides first.
const store = await BuildStore.open(build.dir);
const postcodes = await store.rows('postcode_homes_all');
store.close();
let x = 12345;
const pick = () => postcodes[(x = (x * 1103515245 + 12345) % 2147483648) % postcodes.length]!;
const asked = Array.from({ length: requests }, pick);
for (const r of [files, heap]) await Promise.all([r.crime.get(), r.listings.get(), r.lookups.get(), r.postcodePoints.get(), r.pointCountry.get()]);

type Handler = (args: { query: unknown; data: BuildResources; build: BuildInfo }) => Promise<unknown>;
const routes = {
  crime: { handler: crimeRoute.handler as unknown as Handler, query: (p: string) => CrimeQuerySchema.parse({ postcode: p }) },
  listings: { handler: listingsRoute.handler as unknown as Handler, query: (p: string) => ListingsQuerySchema.parse({ postcode: p, type: 'sale', sort: 'price_asc' }) },
};

/** CPU microseconds per request of `route` over every asked postcode (a 404 or a not-covered counts: the same work either side). */
async function cpuPerRequest(route: keyof typeof routes, data: BuildResources, b: BuildInfo): Promise<number> {
  const { handler, query } = routes[route];
  const qs = asked.map((p) => query(p.postcode));
  const t0 = process.cpuUsage();
  for (const q of qs) await handler({ query: q, data, build: b }).catch(() => undefined);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / qs.length;
}

const sides = [['files', files, build], ['heap', heap, heapBuild]] as const;
const samples: Record<string, Record<string, number[]>> = { crime: { files: [], heap: [] }, listings: { files: [], heap: [] } };
for (const route of ['crime', 'listings'] as const) await cpuPerRequest(route, files, build).then(() => cpuPerRequest(route, heap, heapBuild));
for (let run = 0; run < runs; run++) {
  for (const route of ['crime', 'listings'] as const) {
    const order = run % 2 === 0 ? sides : [...sides].reverse();
    for (const [name, data, b] of order) samples[route]![name]!.push(await cpuPerRequest(route, data, b));
  }
}

// Deals: a listing's evidence is computed when a query first selects it. The same requests on a
// fresh build's resources (every evidence computed) and again (every evidence kept).
const dealsQ = asked.map((p) => DealsQuerySchema.parse({ postcode: p.postcode }));
const deals: Record<string, number[]> = { first: [], again: [] };
for (let run = 0; run < runs; run++) {
  const fresh = new BuildResources(build);
  await Promise.all([fresh.deals.get(), fresh.lookups.get(), fresh.postcodePoints.get(), fresh.pointCountry.get()]);
  for (const label of ['first', 'again'] as const) {
    const t0 = process.cpuUsage();
    for (const q of dealsQ) await (dealsRoute.handler as unknown as Handler)({ query: q, data: fresh, build }).catch(() => undefined);
    const t = process.cpuUsage(t0);
    deals[label]!.push((t.user + t.system) / dealsQ.length);
  }
  await fresh.close();
}

// Cell sizes: the radius search alone over crime points (800 m, GET /crime's default) and listings (1,000 and 2,000 m).
const tmp = tempDir('pi-location-sets-bench-');
const pages = new BlockCache(64 * 1048576);
function rekeyed<R extends Record<string, Value>>(spec: (typeof LOCATION_SET_FILES)['crimePoints' | 'listingPoints'], m: number): KeyedRowsFile<R> {
  const src = KeyedRowsFile.open<R>(join(build.dir, spec.file), pages);
  if (m === CELL_M) return src;
  const rows = [...src.scan()].map((r, i) => ({ r, i, k: cellKeyOf(r.lat as number, r.lng as number, m) })).sort((a, b) => a.k - b.k || a.i - b.i);
  const path = join(tmp.dir, `${m}-${spec.file}`);
  const w = new KeyedRowsWriter(path, { key: spec.key, columns: [...spec.columns], unique: false });
  for (const { r, k } of rows) w.add(k, spec.columns.map((c) => r[c.name] ?? null));
  w.finish();
  src.close();
  return KeyedRowsFile.open<R>(path, pages);
}
const searches = [['crimePoints', 800], ['listingPoints', 1000], ['listingPoints', 2000]] as const;
const cells: Record<string, Record<string, number[]>> = {};
const heapPoints: Record<string, Points> = {};
for (const name of ['crimePoints', 'listingPoints'] as const) {
  const rows = [...KeyedRowsFile.open<{ lat: number; lng: number }>(join(build.dir, LOCATION_SET_FILES[name].file), pages).scan()];
  heapPoints[name] = new Points(Float64Array.from(rows, (r) => r.lat), Float64Array.from(rows, (r) => r.lng));
}
const byCell = new Map([250, 500, 1000].map((m) => [m, { crimePoints: new CellPoints(rekeyed(LOCATION_SET_FILES.crimePoints, m), m), listingPoints: new CellPoints(rekeyed(LOCATION_SET_FILES.listingPoints, m), m) }]));
for (let run = 0; run < runs; run++) {
  for (const [name, radius] of searches) {
    const key = `${name} ${radius} m`;
    cells[key] ??= {};
    const sidesC: Array<[string, (lat: number, lng: number) => number]> = [
      ['heap R-tree', (lat, lng) => { let n = 0; heapPoints[name]!.within(lat, lng, radius, () => n++); return n; }],
      ...[...byCell].map(([m, s]) => [`cells ${m} m`, (lat: number, lng: number) => { let n = 0; s[name].within(lat, lng, radius, () => n++); return n; }] as [string, (lat: number, lng: number) => number]),
    ];
    for (const [label, search] of run % 2 === 0 ? sidesC : [...sidesC].reverse()) {
      const t0 = process.cpuUsage();
      for (const p of asked) search(p.lat, p.lng);
      const t = process.cpuUsage(t0);
      (cells[key]![label] ??= []).push((t.user + t.system) / asked.length);
    }
  }
}
tmp.cleanup();

const med = (o: Record<string, number[]>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, r2(median(v))]));
const result = {
  bench: 'location-sets', addresses, runs, requests, commit: gitCommit(), machine: describeMachine(), load_average: loadAverage(),
  what: 'CPU µs per request (user + system, the route handler without HTTP), medians of runs; cells: CPU µs per radius search alone',
  cpu_us_per_request: Object.fromEntries(Object.entries(samples).map(([route, s]) => [route, { ...med(s), files_over_heap: r2(median(s.files!) / median(s.heap!)), samples: s }])),
  deals_cpu_us_per_request: { ...med(deals), what: 'GET /sourcing/deals (2,000 m): first on fresh resources (each listing valued), then again (evidence kept)', samples: deals },
  cell_search_cpu_us: Object.fromEntries(Object.entries(cells).map(([k, s]) => [k, { ...med(s), samples: s }])),
};
const out = join(ROOT, 'bench', 'results', `location-sets-${addresses}.json`);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ cpu_us_per_request: result.cpu_us_per_request, deals: result.deals_cpu_us_per_request, cell_search_cpu_us: result.cell_search_cpu_us }, (k, v) => (k === 'samples' ? undefined : v), 2));
console.log(`wrote ${out}`);
await files.close();
await heap.close();
