import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * SQL over the Parquet tables of the build a test server's DATA_DIR serves (each
 * `<table>.parquet` a view `<table>`), so endpoint tests can pick inputs and expected
 * figures from exactly what the service reads.
 */
export async function buildSql(dataDir: string): Promise<{ q: (sql: string) => Promise<Record<string, unknown>[]>; close: () => void }> {
  const dir = realpathSync(join(dataDir, 'current'));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.parquet'))) {
    await conn.run(`CREATE VIEW ${f.slice(0, -8)} AS SELECT * FROM read_parquet('${join(dir, f).replaceAll("'", "''")}')`);
  }
  return {
    q: async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[],
    close: () => {
      conn.closeSync();
      db.closeSync();
    },
  };
}
