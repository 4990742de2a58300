/**
 * Throughput of the Inside Airbnb readers on the real Bristol samples, beside the bare
 * CSV layer (`readCsvRecords`) on the same file so the readers' own per-row cost is visible.
 *
 *   npx tsx bench/airbnb-readers.ts [runs=3]
 *
 * Prints one line per case with the median of `runs` timings. Samples that are absent are
 * skipped with a note. Timings depend on machine load: compare cases within one run.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readAirbnbCalendar } from '../etl/sources/airbnb-calendar.ts';
import { readAirbnbListings } from '../etl/sources/airbnb-listings.ts';
import { readAirbnbReviews } from '../etl/sources/airbnb-reviews.ts';
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

async function timeOnce(read: Reader, path: string): Promise<{ rows: number; seconds: number; rejects: number }> {
  const rejects = new RejectLog();
  const t0 = process.hrtime.bigint();
  let rows = 0;
  for await (const _ of read(path, rejects)) rows++;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { rows, seconds, rejects: rejects.total };
}

console.log(`node ${process.version}, median of ${runs} run(s)`);
for (const [label, file, read] of CASES) {
  const path = `${RAW}/${file}`;
  if (!existsSync(path)) {
    console.log(`${label}: skipped, ${path} not found`);
    continue;
  }
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await timeOnce(read, path));
  results.sort((a, b) => a.seconds - b.seconds);
  const mid = results[Math.floor(results.length / 2)]!;
  const rate = Math.round(mid.rows / mid.seconds).toLocaleString('en-GB');
  console.log(
    `${label.padEnd(32)} ${String(mid.rows).padStart(9)} rows  ${mid.seconds.toFixed(2).padStart(6)} s  ${rate.padStart(9)} rows/s  rejects ${mid.rejects}`,
  );
}
