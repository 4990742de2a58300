import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamSorted } from '../../../etl/pipeline/sql.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * streamSorted hands over a sorting query's rows by way of a table (docs/etl.md, "Memory"):
 * the rows must be the query's, in its order, across many chunks and both threads, and the
 * table must be gone however the reading ends.
 */
const tmp = tempDir();
let db: DuckDBInstance;
let conn: DuckDBConnection;

beforeAll(async () => {
  // A file database with a spill folder and two threads, as a build opens it (etl/pipeline/run.ts).
  db = await DuckDBInstance.create(join(tmp.dir, 'w.duckdb'), { threads: '2', temp_directory: join(tmp.dir, '.spill'), preserve_insertion_order: 'true' });
  conn = await db.connect();
  // Keys in no order (a multiplicative hash of i), many ties, and text to sort on after them.
  await conn.run(`CREATE TABLE t AS SELECT (i * 7919) % 1000 AS k, 'row ' || ((i * 104729) % 300000) AS s, i FROM range(300000) r(i)`);
});
afterAll(() => {
  conn.closeSync();
  tmp.cleanup();
});

const SORTED = `SELECT k, s, i FROM t WHERE i % 3 <> 0 ORDER BY k DESC, s, i;`;
const tables = async () => (await conn.runAndReadAll(`SELECT table_name FROM duckdb_tables() ORDER BY 1`)).getRowObjectsJson().map((r) => r.table_name);

describe('streamSorted', () => {
  it('gives the query\'s rows in its order, over many chunks, and drops its table', async () => {
    const got: string[] = [];
    let chunks = 0;
    for await (const { chunk, names } of streamSorted(db, conn, 'sorted_t', SORTED)) {
      expect(names).toEqual(['k', 's', 'i']);
      chunks++;
      const [k, s, i] = chunk.getColumns();
      for (let r = 0; r < chunk.rowCount; r++) got.push(`${k![r]}|${s![r]}|${i![r]}`);
    }
    expect(chunks).toBeGreaterThan(50); // 200,000 rows in chunks of at most 2,048
    // The order computed in JavaScript from the table's rows, not by DuckDB.
    const rows = (await conn.runAndReadAll(`SELECT k, s, i FROM t WHERE i % 3 <> 0`)).getRows().map(([k, s, i]) => ({ k: Number(k), s: String(s), i: Number(i) }));
    rows.sort((a, b) => b.k - a.k || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0) || a.i - b.i);
    expect(got).toEqual(rows.map((r) => `${r.k}|${r.s}|${r.i}`));
    expect(await tables()).toEqual(['t']);
  });

  it('drops its table when the reader stops early', async () => {
    let n = 0;
    for await (const { chunk } of streamSorted(db, conn, 'sorted_t', SORTED)) {
      n += chunk.rowCount;
      if (n > 5000) break;
    }
    expect(await tables()).toEqual(['t']);
  });

  it('a failing query is its error, with no table left; a name that is not a plain identifier is refused', async () => {
    const read = async (table: string, sql: string) => {
      for await (const _ of streamSorted(db, conn, table, sql)) void _;
    };
    await expect(read('sorted_t', `SELECT k FROM no_such_table ORDER BY k`)).rejects.toThrow(/no_such_table/);
    await expect(read('sorted_t', `SELECT 1 / 0 AS x, error('bad row ' || i) FROM t ORDER BY x`)).rejects.toThrow(/bad row/);
    expect(await tables()).toEqual(['t']);
    await expect(read('t; DROP TABLE t', SORTED)).rejects.toThrow(/plain identifier/);
    expect(await tables()).toEqual(['t']);
  });
});
