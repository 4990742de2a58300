/**
 * The evidence files' sorting queries at a national build's size, streamed in one ORDER BY
 * (`streamChunks`) against by way of a table (`streamSorted`, etl/pipeline/sql.ts), under the
 * ETL's memory limit. A 30M build failed in evidence-files with DuckDB out of memory
 * (bench/results/national-30000000-national-zip-failed.txt); this reproduces it without the
 * 100 minutes before it:
 *   npx tsx bench/sorted-stream.ts [--addresses 100000] [--copies 300] [--limit 1GB]
 * Stages a region of --addresses, copies the tables the queries read --copies times over
 * (UPRNs, evidence ids and postcodes made distinct per copy, each copy 0.01° further north:
 * 100k × 300 is the 30M build's 30M properties and about 8.4M lets), then runs each query each
 * way in a process of its own (its peak RSS its own). Writes bench/results/sorted-stream.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { streamChunks, streamSorted } from '../etl/pipeline/sql.ts';
import { lookupSql } from '../lib/files/lookup-tables-format.ts';
import { stagedContext } from '../test/support/region.ts';
import { describeMachine, gitCommit } from './support/machine.ts';
import { arg, argStr, mb } from './support/stats.ts';

const QUERIES = ['rents_lets_all', 'rent_lets_cell_rows', 'rent_lets_area_rows', 'sqft_sales_cell_rows', 'postcode_point_cell_rows'];
const MODES = ['streamed', 'table'] as const;

if (process.argv[2] === '--child') {
  const [, , , file, query, mode, limit] = process.argv;
  console.log(JSON.stringify(await child(file!, query!, mode as (typeof MODES)[number], limit!)));
} else {
  await main();
}

async function main(): Promise<void> {
  const addresses = arg('addresses', 100_000);
  const copies = arg('copies', 300);
  const limit = argStr('limit', '1GB');
  const dir = join(import.meta.dirname, '..', 'data', 'bench', `sorted-stream-${addresses}x${copies}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'w.duckdb');
  try {
    const t0 = performance.now();
    const ctx = await stagedContext(addresses, 7);
    await ctx.conn.run(`ATTACH '${join(dir, 'region.duckdb')}' AS r`);
    for (const t of ['rent_lets', 'properties', 'sqft_sales', 'postcodes']) await ctx.conn.run(`CREATE TABLE r.${t} AS FROM ${t}`);
    await ctx.conn.run(`DETACH r`);
    ctx.conn.closeSync();
    ctx.db.closeSync();
    const counts = await copyTables(join(dir, 'region.duckdb'), file, copies);
    console.log(`staged ${addresses} and copied ${copies}× in ${Math.round((performance.now() - t0) / 1000)} s:`, counts);
    const runs: Record<string, unknown>[] = [];
    for (const query of QUERIES) {
      for (const mode of MODES) {
        const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--child', file, query, mode, limit], { encoding: 'utf8' });
        const line = r.stdout.trim().split('\n').pop() ?? '';
        const out = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : { query, mode, ok: false, error: `exit ${r.status}: ${r.stderr.slice(-300)}` };
        console.log(out);
        runs.push(out);
      }
    }
    const result = { bench: 'sorted-stream', commit: gitCommit(), machine: describeMachine(), addresses, copies, memory_limit: limit, rows: counts, runs };
    writeFileSync(join(import.meta.dirname, 'results', 'sorted-stream.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The four tables `copies` times over, in a file database of their own. */
async function copyTables(from: string, to: string, copies: number): Promise<Record<string, number>> {
  const db = await DuckDBInstance.create(to, { threads: '2', memory_limit: '1GB', temp_directory: `${to}.spill` });
  const c = await db.connect();
  await c.run(`ATTACH '${from}' AS s (READ_ONLY)`);
  const columns = async (t: string) => (await c.runAndReadAll(`DESCRIBE s.${t}`)).getRowObjectsJson().map((r) => String(r.column_name));
  const distinct: Record<string, string> = {
    uprn: 'l.uprn + j * 100000000 AS uprn', evidence_id: `l.evidence_id || '-' || j AS evidence_id`, lat: 'l.lat + j * 0.01 AS lat', postcode: `l.postcode || '-' || j AS postcode`,
  };
  await c.run(`CREATE TABLE properties AS SELECT l.uprn + j * 100000000 AS uprn, l.floor_area_sqft FROM s.properties l, range(${copies}) r(j)`);
  for (const t of ['rent_lets', 'sqft_sales', 'postcodes']) {
    const select = (await columns(t)).map((n) => distinct[n] ?? `l.${n}`).join(', ');
    await c.run(`CREATE TABLE ${t} AS SELECT ${select} FROM s.${t} l, range(${copies}) r(j)`);
  }
  const counts: Record<string, number> = {};
  for (const t of ['properties', 'rent_lets', 'sqft_sales', 'postcodes']) counts[t] = Number((await c.runAndReadAll(`SELECT count(*) AS n FROM ${t}`)).getRows()[0]![0]);
  c.closeSync();
  db.closeSync(); // the children open the file

  return counts;
}

/** One query one way, as the ETL opens its database (etl/pipeline/run.ts). */
async function child(file: string, query: string, mode: (typeof MODES)[number], limit: string) {
  const db = await DuckDBInstance.create(file, { threads: '2', memory_limit: limit, temp_directory: `${file}.spill`, preserve_insertion_order: 'true' });
  const conn = await db.connect();
  await conn.run(lookupSql('cell_key_macro'));
  const t0 = performance.now();
  let rows = 0;
  try {
    const text = lookupSql(query);
    const chunks = mode === 'streamed' ? streamChunks(db, text) : streamSorted(db, conn, `sorted_${query}`, text);
    for await (const { chunk } of chunks) rows += chunk.rowCount;
    return { query, mode, ok: true, rows, s: Math.round(performance.now() - t0) / 1000, peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024) };
  } catch (e) {
    return { query, mode, ok: false, rows, error: String(e).split('\n')[0], s: Math.round(performance.now() - t0) / 1000, peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024) };
  } finally {
    conn.closeSync();
  }
}
