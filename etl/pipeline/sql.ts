import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { plainIdentifier } from '../../schemas/sql-identifier.ts';

const STAGES_DIR = join(import.meta.dirname, '..', 'stages');
const cache = new Map<string, string>();
let files: Map<string, string> | undefined;

/**
 * Every `.sql` file under `etl/stages/` by name. Each stage keeps its statements in its own
 * folder, yet a statement is still called by its bare name, so names must be unique.
 */
function sqlFiles(): Map<string, string> {
  if (files) return files;
  const found = new Map<string, string>();
  for (const rel of readdirSync(STAGES_DIR, { recursive: true, encoding: 'utf8' })) {
    if (!rel.endsWith('.sql')) continue;
    const name = basename(rel, '.sql');
    const other = found.get(name);
    if (other) throw new Error(`two SQL files named ${name}: ${other} and ${rel}`);
    found.set(name, rel);
  }
  files = found;
  return found;
}

/** The text of the file `<name>.sql` under `etl/stages/`: one named statement per file, parameters as `$name`. */
export function sqlText(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
    const rel = sqlFiles().get(name);
    if (!rel) throw new Error(`no SQL file named ${name}.sql under etl/stages/`);
    text = readFileSync(join(STAGES_DIR, rel), 'utf8');
    cache.set(name, text);
  }
  return text;
}

/** Runs the statement `<name>.sql` with bound parameters (never concatenated into the text). */
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
  const [row] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM ${plainIdentifier(table)}`);
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
