/**
 * The rental valuation's lets read one radius at a time (rentalLetsNear) against every let
 * within 1,300 m (rentComparablesNear, as the valuer read them before), on one build:
 *
 *   npx tsx bench/rental-radii.ts [--data DATA_DIR] [--addresses 1000000] [--queries 3000] [--runs 3] [--tag NAME]
 *
 * `--data`: a DATA_DIR whose `current` is the build (say data/bench/national-30000000-42-national-zip);
 * else the bench build of `--addresses` (bench/support/bench-build.ts). Homes with a position
 * and bedrooms, drawn evenly through the build by a hash of their UPRN, valued with their
 * recorded bedrooms from the build's files on its 64 MB page cache: CPU per valuation each way
 * (alternated, the order swapped run to run; medians of `--runs`), the lets made into objects,
 * which radius answered; and that both ways give the same answer for every home (else it stops).
 * Writes bench/results/rental-radii-<addresses or tag>.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { BuildResources } from '../service/build/resources.ts';
import { fileDataSource } from '../service/build/source.ts';
import { valueRental, type RentalResult } from '../service/domain/valuation-models/rental.ts';
import { rentalLetsNear, rentComparablesNear, type RentLetsIndex } from '../service/valuers/evidence.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { arg, argStr, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADDRESSES = arg('addresses', 1_000_000);
const QUERIES = arg('queries', 3000);
const RUNS = arg('runs', 3);
const DATA = argStr('data', '');
const TAG = argStr('tag', '');
const command = `npx tsx bench/rental-radii.ts ${process.argv.slice(2).join(' ')}`.trim();
const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

const dataDir = DATA ? resolve(DATA) : (await ensureBenchBuild(ADDRESSES, 42, log)).dataDir;
const build = fileDataSource(dataDir).current();
if (!build) throw new Error(`${dataDir} has no published build (no current/manifest.json)`);
const loadStart = loadAverage();

const duck = await DuckDBInstance.create(':memory:');
const conn = await duck.connect();
const homes = (await conn.runAndReadAll(
  `SELECT uprn::DOUBLE AS uprn FROM read_parquet('${join(build.dir, 'properties.parquet')}') WHERE lat IS NOT NULL AND bedrooms IS NOT NULL ORDER BY hash(uprn) LIMIT ${QUERIES}`,
)).getRowObjectsJS().map((r) => r.uprn as number);
conn.closeSync();
duck.closeSync();

const res = new BuildResources(build);
const [records, lets] = [await res.records.get(), await res.rentLets.get()];
/** Each home as the valuer sees it: position, recorded bedrooms, kind and floor area. */
const subjects = homes.map((uprn) => {
  const p = records.get(uprn)!;
  return { uprn, lat: p.lat!, lng: p.lng!, subject: { bedrooms: p.bedrooms!, flat: p.property_type === 'Flat', floor_area_sqft: p.floor_area_sqft } };
});

/** A let index that counts the lets its searches visit. */
function counting(idx: RentLetsIndex): RentLetsIndex & { visited: number } {
  const c = {
    visited: 0, asOf: idx.asOf, growthPerMonth: idx.growthPerMonth, inArea: idx.inArea.bind(idx),
    within: (lat: number, lng: number, r: number, visit: Parameters<RentLetsIndex['within']>[3]) => idx.within(lat, lng, r, (l, d) => {
      c.visited++;
      visit(l, d);
    }),
  };
  return c;
}

const ways = {
  widest: (s: (typeof subjects)[number], idx: RentLetsIndex) => valueRental(s.subject, rentComparablesNear(idx, s.lat, s.lng, s.uprn), idx.growthPerMonth),
  radius_at_a_time: (s: (typeof subjects)[number], idx: RentLetsIndex) => valueRental(s.subject, rentalLetsNear(idx, s.lat, s.lng, s.uprn, s.subject.bedrooms), idx.growthPerMonth),
};
type Way = keyof typeof ways;

// Same answers, and what each way reads.
const visited: Record<Way, number> = { widest: 0, radius_at_a_time: 0 };
const answeredAt: Record<string, number> = {};
for (const s of subjects) {
  const got = {} as Record<Way, RentalResult>;
  for (const w of Object.keys(ways) as Way[]) {
    const idx = counting(lets);
    got[w] = ways[w](s, idx);
    visited[w] += idx.visited;
  }
  if (!isDeepStrictEqual(got.widest, got.radius_at_a_time)) throw new Error(`UPRN ${s.uprn}: the two ways differ: ${JSON.stringify(got)}`);
  const at = got.widest.kind === 'ok' ? String(got.widest.estimate.search_radius_m) : 'none';
  answeredAt[at] = (answeredAt[at] ?? 0) + 1;
}
log(`same answers for ${subjects.length} homes; answered at ${JSON.stringify(answeredAt)}`);

const cpu: Record<Way, number[]> = { widest: [], radius_at_a_time: [] };
for (let run = 0; run < RUNS; run++) {
  for (const w of (run % 2 ? ['radius_at_a_time', 'widest'] : ['widest', 'radius_at_a_time']) as Way[]) {
    for (const s of subjects.slice(0, 200)) ways[w](s, lets); // the JIT and the page cache
    const c0 = process.cpuUsage();
    for (const s of subjects) ways[w](s, lets);
    const c = process.cpuUsage(c0);
    cpu[w].push((c.user + c.system) / subjects.length);
    log(`run ${run + 1} ${w}: ${r2(cpu[w].at(-1)!)} µs a valuation`);
  }
}
await res.close();

const m = { widest: r2(median(cpu.widest)), radius_at_a_time: r2(median(cpu.radius_at_a_time)) };
const out = {
  bench: 'rental-radii', command, build: build.id, data_dir: dataDir.replace(`${ROOT}/`, ''), homes: subjects.length, runs: RUNS,
  when: new Date().toISOString(), commit: gitCommit(ROOT), machine: describeMachine(), load_average_start: loadStart, load_average_end: loadAverage(),
  same_answers: true, answered_at_radius: answeredAt,
  lets_visited_per_valuation: { widest: r2(visited.widest / subjects.length), radius_at_a_time: r2(visited.radius_at_a_time / subjects.length) },
  cpu_us_per_valuation: { ...m, radius_at_a_time_over_widest: r2(m.radius_at_a_time / m.widest) },
  raw: cpu,
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const file = join(ROOT, 'bench', 'results', `rental-radii-${TAG || ADDRESSES}.json`);
writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`${JSON.stringify({ answered_at_radius: answeredAt, lets_visited_per_valuation: out.lets_visited_per_valuation, cpu_us_per_valuation: out.cpu_us_per_valuation }, null, 2)}\n`);
log(`wrote ${file.replace(`${ROOT}/`, '')}`);
