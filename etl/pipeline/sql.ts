import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SQL_DIR = join(import.meta.dirname, '..', 'sql');
const cache = new Map<string, string>();

/** The text of `etl/sql/<name>.sql`: one named statement per file, parameters as `$name`. */
export function sqlText(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
    text = readFileSync(join(SQL_DIR, `${name}.sql`), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Runs `etl/sql/<name>.sql` with bound parameters (never concatenated into the text). */
export async function runSql(conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}): Promise<void> {
  const text = sqlText(name);
  // Only bind the parameters the statement uses: DuckDB refuses unused named parameters.
  const used = Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`\\$${k}\\b`).test(text)));
  await conn.run(text, Object.keys(used).length > 0 ? used : undefined);
}

/** Runs a query and returns its rows as JSON-safe objects (BIGINTs as strings). */
export async function queryRows(conn: DuckDBConnection, sql: string, params?: Record<string, DuckDBValue>): Promise<Record<string, unknown>[]> {
  return (await conn.runAndReadAll(sql, params)).getRowObjectsJson() as Record<string, unknown>[];
}

/** Row count of a table whose name is a plain identifier. */
export async function countRows(conn: DuckDBConnection, table: string): Promise<number> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a plain identifier: ${table}`);
  const [row] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM ${table}`);
  return Number(row?.n ?? 0);
}

type JsonRow = Record<string, string | number | boolean | null>;

/**
 * Streams a query's rows as JSON-safe objects, chunk by chunk, on a connection of its own.
 * A streamed result on a connection ends silently, without error, when that connection
 * runs anything else: an appender flush (every 204,800 rows) or a CREATE. Reading on a
 * separate connection is what keeps "stream a table, append results" correct at scale.
 */
export async function* streamRows(db: DuckDBInstance, sql: string): AsyncGenerator<JsonRow> {
  const reader = await db.connect();
  try {
    const result = await reader.stream(sql);
    for await (const chunk of result.yieldRowObjectJson()) for (const r of chunk) yield r as JsonRow;
  } finally {
    reader.closeSync();
  }
}
