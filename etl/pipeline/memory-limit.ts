import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from './sql.ts';

const UNITS: Record<string, number> = {
  bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** Bytes in a size as DuckDB prints it (`953.6 MiB`, `2.5 GiB`, `512 bytes`). */
export function duckdbSizeBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$/i.exec(text);
  const unit = m && UNITS[m[2]!.toLowerCase()];
  if (!m || !unit) throw new Error(`not a DuckDB size: ${text}`);
  return Number(m[1]) * unit;
}

/** The database's `memory_limit` in bytes, as DuckDB reports it (stages size their chunks by it). */
export async function memoryLimitBytes(conn: DuckDBConnection): Promise<number> {
  const [row] = await queryRows(conn, `SELECT current_setting('memory_limit') AS v`);
  return duckdbSizeBytes(String(row?.v));
}
