import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRows } from '../../../etl/pipeline/load-rows.ts';
import { readOsUprn } from '../../../etl/sources/os_uprn/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

describe('loadRows', () => {
  it('stages reader rows into DuckDB with nulls, lists and big integers intact', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    type R = { id: string; n?: number; tags: string[]; ok: boolean };
    const rows: R[] = [
      { id: '1234567890123456789', n: 1.5, tags: ['wifi', 'kitchen'], ok: true },
      { id: '2', tags: [], ok: false },
    ];
    const n = await loadRows(conn, 'stg_t', [
      { name: 'id', type: 'BIGINT', get: (r: R) => r.id },
      { name: 'n', type: 'DOUBLE', get: (r: R) => r.n },
      { name: 'tags', type: 'VARCHAR[]', get: (r: R) => r.tags },
      { name: 'ok', type: 'BOOLEAN', get: (r: R) => r.ok },
    ], rows);
    expect(n).toBe(2);
    const out = (await conn.runAndReadAll('SELECT id::VARCHAR AS id, n, len(tags) AS k, ok FROM stg_t ORDER BY ok DESC')).getRowObjectsJson();
    expect(out).toEqual([
      { id: '1234567890123456789', n: 1.5, k: '2', ok: true },
      { id: '2', n: null, k: '0', ok: false },
    ]);
    conn.closeSync();
  });

  it('streams a reader straight into a table', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const p = writeFixture(tmp.dir, 'u.csv', 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n1,358260,172796,51.44,-2.60\n2,358261,172797,51.45,-2.61\n');
    const n = await loadRows(conn, 'stg_uprn', [
      { name: 'uprn', type: 'BIGINT', get: (r) => r.uprn },
      { name: 'lat', type: 'DOUBLE', get: (r) => r.lat },
    ], readOsUprn(p, new RejectLog()));
    expect(n).toBe(2);
    const sum = (await conn.runAndReadAll('SELECT sum(uprn)::INTEGER AS s FROM stg_uprn')).getRowObjectsJson();
    expect(sum).toEqual([{ s: 3 }]);
    conn.closeSync();
  });

  it('refuses identifiers that are not plain names', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    await expect(loadRows(conn, 'x; DROP TABLE y', [], [])).rejects.toThrow(/not a plain identifier/);
    conn.closeSync();
  });
});
