/**
 * Rental valuation backtest (issue 18 item 1; docs/valuation-rental-hmo.md, "Rental valuation").
 *
 *   npx tsx bench/backtest-rental.ts [--addresses N --seed S]   (default 100,000 addresses, seed 42)
 *   npx tsx bench/backtest-rental.ts --data-dir DIR --sources DIR [--out FILE]
 *   (npm run backtest runs it after the sale backtest, on the same build.)
 *
 * Leave-one-out over the build's whole-property lets of known homes: each let is valued with
 * the service's model (service/domain/valuation-models/rental.ts) from every other let of the build,
 * as of the let's own date (a comparable's age is the months between the two lets, either
 * side), the subject's bedrooms and kind taken from the build's properties table as the
 * service takes them from the property record. Scored against the agreed rent; the oracle
 * (the generator's true rent of that home in that month, truth/rentals.csv, as the estimate)
 * gives the noise floor: the agreed rents scatter around the truth by design.
 * Writes bench/results/backtest-rental-<addresses>.json unless --out says otherwise; with
 * RENTAL_ROWS=FILE also every valued let (confidence, rents, and the signals a confidence rule could
 * read: RentalSignals) for studying the rules (bench/rental-confidence.ts).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { createReadStream, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { RENTAL_MODEL, RENTAL_RADII, rentGrowthPerDay, valueRental, type RentalModelParams, type RentComparable, type RentalConfidence, type RentalSubject } from '../service/domain/valuation-models/rental.ts';
import { Points } from '../lib/geo/points.ts';
import { ensureBenchBuild } from './support/bench-build.ts';

interface Scored {
  ev?: Record<string, number>;
  confidence: RentalConfidence;
  rent: number;
  trueRent: number;
  estimate: number;
}

export interface RentalMetrics {
  n: number;
  mdape: number;
  within_10: number;
  within_20: number;
  mdape_vs_true: number;
  oracle: { mdape: number; within_10: number; within_20: number };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
function medianOf(v: number[]): number {
  if (!v.length) return NaN;
  const s = [...v].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

export function rentalMetrics(rows: readonly Scored[]): RentalMetrics {
  const ape = (est: number, ref: number) => Math.abs(est - ref) / ref;
  const share = (f: (r: Scored) => boolean) => r1((100 * rows.filter(f).length) / Math.max(1, rows.length));
  return {
    n: rows.length,
    mdape: r1(100 * medianOf(rows.map((r) => ape(r.estimate, r.rent)))),
    within_10: share((r) => ape(r.estimate, r.rent) <= 0.1),
    within_20: share((r) => ape(r.estimate, r.rent) <= 0.2),
    mdape_vs_true: r1(100 * medianOf(rows.map((r) => ape(r.estimate, r.trueRent)))),
    oracle: {
      mdape: r1(100 * medianOf(rows.map((r) => ape(r.trueRent, r.rent)))),
      within_10: share((r) => ape(r.trueRent, r.rent) <= 0.1),
      within_20: share((r) => ape(r.trueRent, r.rent) <= 0.2),
    },
  };
}

async function readTruth(sources: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const lines = createInterface({ input: createReadStream(join(sources, 'truth', 'rentals.csv')) });
  let header: string[] | undefined;
  for await (const line of lines) {
    const cells = line.split(',');
    if (!header) header = cells;
    else out.set(cells[header.indexOf('evidence_id')]!, Number(cells[header.indexOf('true_rent_pcm')]));
  }
  return out;
}

export async function backtestRental(dataDir: string, sources: string, params: RentalModelParams = RENTAL_MODEL) {
  const cur = join(dataDir, 'current');
  const buildDir = existsSync(cur) ? realpathSync(cur) : resolve(dataDir);
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const c = await db.connect();
  const pq = (t: string) => `read_parquet('${join(buildDir, `${t}.parquet`).replaceAll("'", "''")}')`;
  const lets = (await c.runAndReadAll(`
    SELECT l.evidence_id, l.sector, l.uprn::DOUBLE AS uprn, l.lat, l.lng, l.bedrooms, l.property_type, l.rent_pcm,
           (l.let_date - DATE '1970-01-01')::INTEGER AS day, p.bedrooms AS subject_bedrooms, p.property_type AS subject_type, p.floor_area_sqft
    FROM ${pq('rent_lets')} l LEFT JOIN ${pq('properties')} p USING (uprn)
    WHERE l.let_type = 'whole' AND l.lat IS NOT NULL`)).getRowObjectsJS() as Record<string, unknown>[];
  c.closeSync();
  db.closeSync();
  const truth = await readTruth(sources);
  const n = lets.length;
  const lat = Float64Array.from(lets, (r) => Number(r.lat));
  const lng = Float64Array.from(lets, (r) => Number(r.lng));
  const grid = new Points(lat, lng);
  // Growth measured once on every let, as the service measures it on the build's lets.
  const growth = 30.44 * rentGrowthPerDay(lets.map((l) => ({ group: `${l.sector}|${Math.min(4, Number(l.bedrooms))}|${l.property_type}`, rent_pcm: Number(l.rent_pcm), day: Number(l.day) })));
  const rows: Scored[] = [];
  let notFound = 0, skipped = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = lets[i]!;
    const trueRent = truth.get(String(s.evidence_id));
    if (s.uprn === null || s.subject_bedrooms === null || trueRent === undefined) {
      skipped++;
      continue;
    }
    const comps: RentComparable[] = [];
    grid.within(lat[i]!, lng[i]!, RENTAL_RADII[RENTAL_RADII.length - 1]!, (j, d) => {
      if (j === i) return;
      const o = lets[j]!;
      comps.push({ same_home: o.uprn === s.uprn, floor_area_sqft: o.floor_area_sqft === null ? null : Number(o.floor_area_sqft), rent_pcm: Number(o.rent_pcm), bedrooms: Number(o.bedrooms), flat: o.property_type === 'flat', distance_m: d, age_months: (Number(s.day) - Number(o.day)) / 30.44 });
    });
    const subject: RentalSubject = { bedrooms: Number(s.subject_bedrooms), flat: s.subject_type === 'Flat', floor_area_sqft: s.floor_area_sqft === null ? null : Number(s.floor_area_sqft) };
    const r = valueRental(subject, comps, growth, params);
    if (r.kind === 'not_found') notFound++;
    else {
      rows.push({ ev: { ...r.signals }, confidence: r.estimate.confidence, rent: Number(s.rent_pcm), trueRent, estimate: r.estimate.monthly_rent });
    }
  }
  const by_confidence: Record<string, RentalMetrics> = {};
  for (const k of ['High', 'Medium', 'Low'] as const) by_confidence[k] = rentalMetrics(rows.filter((r) => r.confidence === k));
  if (process.env.RENTAL_ROWS) writeFileSync(process.env.RENTAL_ROWS, JSON.stringify(rows));
  return { build: buildDir, params, rent_growth_pct_a_year: r1(100 * (Math.exp(12 * growth) - 1)), lets: n, skipped_unknown_home_or_truth: skipped, not_found: notFound, overall: rentalMetrics(rows), by_confidence, seconds: r1((performance.now() - t0) / 1000) };
}

export async function runRentalBacktest(dataDir: string, sources: string, outFile: string | undefined, command: string, params: RentalModelParams = RENTAL_MODEL) {
  const res = await backtestRental(dataDir, sources, params);
  const manifest = JSON.parse(readFileSync(join(sources, 'manifest.json'), 'utf8')) as { addresses: number; seed: number };
  const out = { command, region: { addresses: manifest.addresses, seed: manifest.seed }, ...res, build: undefined };
  console.log(JSON.stringify(out, null, 1));
  const file = outFile ?? join(import.meta.dirname, 'results', `backtest-rental-${manifest.addresses}.json`);
  if (file !== '-') {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
  }
  return res;
}

async function main() {
  const args = process.argv.slice(2);
  const get = (k: string) => {
    const i = args.indexOf(`--${k}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  let dataDir = get('data-dir');
  let sources = get('sources');
  if (!dataDir !== !sources) {
    console.error('usage: npx tsx bench/backtest-rental.ts [--addresses N] [--seed S] | [--data-dir DIR --sources DIR] [--out FILE]');
    process.exit(2);
  }
  if (!dataDir || !sources) {
    const made = await ensureBenchBuild(Number(get('addresses') ?? 100_000), Number(get('seed') ?? 42));
    dataDir = made.dataDir;
    sources = made.region;
  }
  const params: RentalModelParams = { ...RENTAL_MODEL };
  args.forEach((a, i) => {
    if (a !== '--param') return;
    const [k, v] = args[i + 1]!.split('=');
    (params as unknown as Record<string, unknown>)[k!] = JSON.parse(v!);
  });
  await runRentalBacktest(dataDir, sources, get('out'), `npx tsx bench/backtest-rental.ts ${args.join(' ')}`, params);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
