import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runSql } from '../../../etl/pipeline/sql.ts';

describe('runSql', () => {
  it("names the statement that failed, keeping DuckDB's error as the cause", async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      // mart_recent_sales reads mart_recent_sales_priced, which this empty database lacks.
      const err = await runSql(conn, 'mart_recent_sales').then(() => undefined, (e: Error) => e);
      expect(err?.message).toMatch(/^mart_recent_sales\.sql: Catalog Error: Table with name mart_recent_sales_priced does not exist/);
      expect((err?.cause as Error).message).toMatch(/^Catalog Error: Table with name mart_recent_sales_priced does not exist/);
    } finally {
      conn.closeSync();
    }
  });
});
