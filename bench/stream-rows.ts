/**
 * Reading a query's rows into JS: `streamRows` (etl/pipeline/sql.ts: chunks converted column
 * by column, the next chunk fetched ahead) against the result's own `yieldRowObjectJson`, on
 * rows of the address matcher's shape (two BIGINTs, six texts, some NULL).
 *   npx tsx bench/stream-rows.ts [--rows N] [--runs R]
 * Alternates the two R times in one process; prints each run and the medians, checks both
 * read the same rows, and writes bench/results/stream-rows.json.
 */
import { DuckDBInstance, type DuckDBInstance as Db } from '@duckdb/node-api';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { streamRows } from '../etl/pipeline/sql.ts';
import { arg, median, r2 } from './support/stats.ts';

const rows = arg('rows', 1_500_000);
const runs = arg('runs', 5);
const QUERY = 'SELECT * FROM t ORDER BY g, uprn'; // a total order, so both read the rows in one order

const db = await DuckDBInstance.create(':memory:', { threads: '2' });
const conn = await db.connect();
await conn.run(`CREATE TABLE t AS SELECT (i // 50)::BIGINT AS g, (100000000 + i)::BIGINT AS uprn,
  'BS' || (i % 97) || ' ' || (i % 9) || 'AB' AS postcode, 'BRISTOL' AS post_town,
  CASE WHEN i % 3 = 0 THEN 'FLAT ' || (i % 7) END AS sub_building, NULL::VARCHAR AS building_name,
  (i % 200)::VARCHAR AS building_number, 'STREET ' || (i % 500) AS street_name FROM range(${rows}) r(i)`);

/** Every row's values folded into one text hash, so both readers are shown to read the same. */
function fold(h: number, r: Record<string, unknown>): number {
  for (const v of Object.values(r)) {
    const s = v === null ? '\u0000' : String(v);
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  }
  return h;
}

async function* ownReader(d: Db, sql: string) {
  const c = await d.connect();
  try {
    for await (const chunk of (await c.stream(sql)).yieldRowObjectJson()) yield* chunk;
  } finally {
    c.closeSync();
  }
}

async function time(read: AsyncIterable<Record<string, unknown>>): Promise<{ s: number; n: number; h: number }> {
  const t = performance.now();
  let n = 0;
  let h = 0;
  for await (const r of read) {
    n++;
    h = fold(h, r);
  }
  return { s: (performance.now() - t) / 1000, n, h };
}

const ours: number[] = [];
const theirs: number[] = [];
for (let run = 1; run <= runs; run++) {
  const a = await time(streamRows(db, QUERY));
  const b = await time(ownReader(db, QUERY));
  if (a.n !== rows || b.n !== rows || a.h !== b.h) throw new Error(`the two readers disagree: ${a.n}/${b.n} rows, hash ${a.h}/${b.h}`);
  ours.push(a.s);
  theirs.push(b.s);
  console.log(`run ${run}: streamRows ${a.s.toFixed(2)} s, yieldRowObjectJson ${b.s.toFixed(2)} s`);
}
const result = {
  rows, runs, when: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model, load_avg_1m: r2(loadavg()[0]!) },
  stream_rows_median_s: r2(median(ours)), yield_row_object_json_median_s: r2(median(theirs)),
  ratio: r2(median(theirs) / median(ours)),
};
console.log(JSON.stringify(result));
writeFileSync(join(import.meta.dirname, 'results', 'stream-rows.json'), JSON.stringify(result, null, 1) + '\n');
conn.closeSync();
