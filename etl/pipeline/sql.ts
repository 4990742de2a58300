import { JsonDuckDBValueConverter, type DuckDBConnection, type DuckDBDataChunk, type DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { plainIdentifier } from '../../schemas/sql-identifier.ts';

const STAGES_DIR = join(import.meta.dirname, '..', 'stages');

/**
 * How the ETL compresses the Parquet it writes (published tables, the staging and match
 * caches): zstd at level 1, not DuckDB's default 3. On the 1M build's six largest staged
 * tables level 1 wrote in 2.9 s against 3.3 s, and the files came out the same size
 * (112 MB against 113 MB; snappy 2.8 s, 170 MB).
 */
export const PARQUET_COMPRESSION = 'COMPRESSION zstd, COMPRESSION_LEVEL 1';
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
  try {
    await conn.run(text, Object.keys(used).length > 0 ? used : undefined);
  } catch (e) {
    // DuckDB's message does not say which statement failed: an out-of-memory at 10M did not.
    throw new Error(`${name}.sql: ${(e as Error).message}`, { cause: e });
  }
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

/** One chunk of a streamed result, with the result's column names (deduplicated as DuckDB's row objects name them). */
export interface NamedChunk {
  chunk: DuckDBDataChunk;
  names: readonly string[];
}

/**
 * Streams a query's result (`params` bound to its `$name`s) chunk by chunk, on a connection
 * of its own, with the next chunk requested before this one is handed over: DuckDB produces
 * it on its own threads while the JS thread consumes this one. A streamed result on a
 * connection ends silently, without error, when that connection runs anything else: an
 * appender flush (every 204,800 rows) or a CREATE. Reading on a separate connection is what
 * keeps "stream a table, append results" correct at scale.
 */
export async function* streamChunks(db: DuckDBInstance, sql: string, params?: Record<string, DuckDBValue>): AsyncGenerator<NamedChunk> {
  const conn = await db.connect();
  let next: Promise<DuckDBDataChunk | null> | undefined;
  try {
    const result = await conn.stream(sql, params);
    const names = result.deduplicatedColumnNames();
    next = result.fetchChunk();
    for (;;) {
      const chunk = await next;
      next = undefined;
      if (!chunk || chunk.rowCount === 0) break;
      next = result.fetchChunk();
      yield { chunk, names };
    }
  } finally {
    // A consumer that stops early: let the fetch in flight finish before the connection goes.
    await next?.catch(() => undefined);
    conn.closeSync();
  }
}

/**
 * Streams a query's rows as JSON-safe objects (BIGINTs as strings: DuckDB's own JSON
 * converter, as `getRowObjectsJson` gives them), chunk by chunk (`streamChunks`). Each
 * chunk is converted column by column and the objects built from the columns: 1.5M rows of
 * the matcher's shape read (and hashed) in 2.84 s against 3.75 s with the result's own
 * `yieldRowObjectJson` (`bench/stream-rows.ts`, medians of 5).
 */
export async function* streamRows(db: DuckDBInstance, sql: string): AsyncGenerator<JsonRow> {
  for await (const { chunk, names } of streamChunks(db, sql)) {
    const columns = chunk.convertColumns(JsonDuckDBValueConverter) as (JsonRow[string])[][];
    for (let i = 0; i < chunk.rowCount; i++) {
      const row: JsonRow = {};
      for (let c = 0; c < names.length; c++) row[names[c]!] = columns[c]![i]!;
      yield row;
    }
  }
}
