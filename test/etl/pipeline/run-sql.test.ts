import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sqlFolder, stageSql } from '../../../etl/pipeline/sql.ts';
import { tempDir } from '../../support/tmp.ts';

describe('sqlFolder', () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("names the statement that failed, keeping DuckDB's error as the cause", async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      // mart_recent_sales reads mart_recent_sales_priced, which this empty database lacks.
      const err = await stageSql('40-marts/10-price-index').run(conn, 'mart_recent_sales').then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(/^mart_recent_sales\.sql: Catalog Error: Table with name mart_recent_sales_priced does not exist/);
      expect((err?.cause as Error).message).toMatch(/^Catalog Error: Table with name mart_recent_sales_priced does not exist/);
    } finally {
      conn.closeSync();
    }
  });

  it('resolves a name in its own folder only: two folders may hold a statement of one name', async () => {
    const a = join(tmp.dir, 'a');
    const b = join(tmp.dir, 'b');
    mkdirSync(a, { recursive: true });
    mkdirSync(b, { recursive: true });
    writeFileSync(join(a, 'pick.sql'), 'SELECT 1 AS n');
    writeFileSync(join(b, 'pick.sql'), 'SELECT 2 AS n');
    expect(sqlFolder(a).text('pick')).toBe('SELECT 1 AS n');
    expect(sqlFolder(b).text('pick')).toBe('SELECT 2 AS n');
    // A stage's statement is not found from another stage's folder.
    expect(() => stageSql('40-marts/30-ukhpi').text('mart_recent_sales')).toThrow('no SQL file mart_recent_sales.sql in stages/40-marts/30-ukhpi/');
  });

  it('refuses a missing or malformed name with a clear error', () => {
    expect(() => sqlFolder(tmp.dir).text('absent')).toThrow(/^no SQL file absent\.sql in /);
    expect(() => sqlFolder(tmp.dir).text('../escape')).toThrow('bad SQL file name: ../escape');
  });
});
