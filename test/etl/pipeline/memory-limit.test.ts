import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { etlMemoryLimit } from '../../../etl/pipeline/run.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';

describe('etlMemoryLimit', () => {
  it('is 1GB unless ETL_MEMORY_LIMIT says otherwise, and refuses what is not a size', () => {
    expect(etlMemoryLimit({})).toBe('1GB');
    expect(etlMemoryLimit({ ETL_MEMORY_LIMIT: ' 512MB ' })).toBe('512MB');
    expect(etlMemoryLimit({ ETL_MEMORY_LIMIT: '2.5GiB' })).toBe('2.5GiB');
    expect(() => etlMemoryLimit({ ETL_MEMORY_LIMIT: 'lots' })).toThrow(/ETL_MEMORY_LIMIT/);
    expect(() => etlMemoryLimit({ ETL_MEMORY_LIMIT: '1GB; PRAGMA x' })).toThrow(/ETL_MEMORY_LIMIT/);
  });

  it('is a limit DuckDB takes', async () => {
    const db = await DuckDBInstance.create(':memory:', { memory_limit: etlMemoryLimit({ ETL_MEMORY_LIMIT: '300MB' }) });
    const conn = await db.connect();
    const [r] = await queryRows(conn, "SELECT current_setting('memory_limit') AS v");
    expect(String(r?.v)).toMatch(/^(286\.1 MiB|300\.0 MB|300MB)$/);
    conn.closeSync();
  });
});
