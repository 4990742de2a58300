/**
 * Throughput of the Inside Airbnb readers on the real Bristol samples, beside the bare
 * CSV layer (`readCsvRecords`) on the same file so the readers' own per-row cost is visible.
 *
 *   npx tsx bench/airbnb-readers.ts [runs=3]
 *
 * Prints one line per case with the median of `runs` timings: wall-clock rows/s, and rows per
 * CPU-second (user + system, gunzip threads included), which moves far less when the machine is
 * shared. Samples that are absent are skipped with a note. Compare cases within one run.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readAirbnbCalendar } from '../etl/sources/airbnb_calendar/read.ts';
import { readAirbnbListings } from '../etl/sources/airbnb_listings/read.ts';
import { readAirbnbReviews } from '../etl/sources/airbnb_reviews/read.ts';
import { readCsvRecords } from '../etl/sources/csv.ts';
import { RejectLog } from '../etl/sources/rejects.ts';

const RAW = resolve(import.meta.dirname, '../../shared/data/raw/airbnb');
const runs = Math.max(1, Number(process.argv[2] ?? 3));

type Reader = (path: string, rejects: RejectLog) => AsyncIterable<unknown>;

const CASES: [label: string, file: string, read: Reader][] = [
  ['csv layer only: calendar', 'bristol_2025-09-26/calendar.csv.gz', readCsvRecords],
  ['readAirbnbCalendar', 'bristol_2025-09-26/calendar.csv.gz', readAirbnbCalendar],
  ['csv layer only: reviews', 'bristol_2020-05_reviews/reviews.csv.gz', readCsvRecords],
  ['readAirbnbReviews (summary)', 'bristol_2020-05_reviews/reviews.csv.gz', readAirbnbReviews],
  ['csv layer only: listings', 'bristol_2025-09-26/listings.csv.gz', readCsvRecords],
  ['readAirbnbListings (detailed)', 'bristol_2025-09-26/listings.csv.gz', readAirbnbListings],
  ['readAirbnbListings (summary)', 'bristol_2025-09-26/listings.csv', readAirbnbListings],
];

interface Timing {
  rows: number;
  seconds: number;
  cpuSeconds: number;
  rejects: number;
}

async function timeOnce(read: Reader, path: string): Promise<Timing> {
  const rejects = new RejectLog();
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  let rows = 0;
  for await (const _ of read(path, rejects)) rows++;
  const cpu = process.cpuUsage(c0);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rows, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, rejects: rejects.total };
}

const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const perSecond = (rows: number, s: number) => Math.round(rows / s).toLocaleString('en-GB').padStart(9);

console.log(`node ${process.version}, median of ${runs} run(s)`);
for (const [label, file, read] of CASES) {
  const path = `${RAW}/${file}`;
  if (!existsSync(path)) {
    console.log(`${label}: skipped, ${path} not found`);
    continue;
  }
  const results: Timing[] = [];
  for (let i = 0; i < runs; i++) results.push(await timeOnce(read, path));
  const { rows, rejects } = results[0]!;
  const wall = median(results.map((r) => r.seconds));
  const cpu = median(results.map((r) => r.cpuSeconds));
  console.log(
    `${label.padEnd(32)} ${String(rows).padStart(9)} rows  ${wall.toFixed(2).padStart(6)} s ${perSecond(rows, wall)} rows/s` +
      `  ${cpu.toFixed(2).padStart(6)} cpu-s ${perSecond(rows, cpu)} rows/cpu-s  rejects ${rejects}`,
  );
}
