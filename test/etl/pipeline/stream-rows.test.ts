import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { streamRows } from '../../../etl/pipeline/sql.ts';

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe('streamRows', () => {
  it('gives the rows getRowObjectsJson gives, in order, across many chunks and every type the ETL reads', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const sql = `SELECT i::BIGINT AS big, i::INTEGER AS int, i::VARCHAR AS s, CASE WHEN i % 7 = 0 THEN NULL ELSE i / 2 END AS d,
      CASE i % 4 WHEN 0 THEN 'NaN'::DOUBLE WHEN 1 THEN 'inf'::DOUBLE ELSE -0.5 END AS odd, i % 2 = 0 AS b,
      DATE '2024-01-01' + i::INTEGER AS day, 18446744073709551615::UBIGINT AS ub, i AS s
      FROM range(5000) t(i) ORDER BY i`;
    const conn = await db.connect();
    const want = (await conn.runAndReadAll(sql)).getRowObjectsJson();
    const got = await collect(streamRows(db, sql));
    expect(got).toEqual(want);
    // Written out independently of DuckDB's converter: BIGINT and UBIGINT as text, NaN and
    // infinities as text, a date as ISO text, the repeated name as DuckDB deduplicates it.
    expect(got[1]).toEqual({ big: '1', int: 1, s: '1', d: 0.5, odd: 'Infinity', b: false, day: '2024-01-02', ub: '18446744073709551615', 's:1': '1' });
    expect(got[4]!.odd).toBe('NaN');
    expect(got[7]!.d).toBeNull();
    expect(got.length).toBe(5000);
  });

  it('can be left early, and its connection is closed', async () => {
    const db = await DuckDBInstance.create(':memory:');
    for await (const r of streamRows(db, 'SELECT i FROM range(100000) t(i)')) {
      expect(r).toHaveProperty('i');
      break;
    }
    const conn = await db.connect();
    expect((await conn.runAndReadAll('SELECT 42 AS x')).getRowObjectsJson()).toEqual([{ x: 42 }]);
  });

  it('fails on a query DuckDB refuses', async () => {
    const db = await DuckDBInstance.create(':memory:');
    await expect(collect(streamRows(db, 'SELECT * FROM no_such_table'))).rejects.toThrow(/no_such_table/);
  });
});
