import { JsonDuckDBValueConverter, type DuckDBConnection, type DuckDBDataChunk, type DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { plainIdentifier } from '../../schemas/sql-identifier.ts';

const ETL_DIR = join(import.meta.dirname, '..');

/**
 * How the ETL compresses the Parquet it writes (published tables, the staging and match
 * caches): zstd at level 1, not DuckDB's default 3. On the 1M build's six largest staged
 * tables level 1 wrote in 2.9 s against 3.3 s, and the files came out the same size
 * (112 MB against 113 MB; snappy 2.8 s, 170 MB).
 */
export const PARQUET_COMPRESSION = 'COMPRESSION zstd, COMPRESSION_LEVEL 1';

/** The `.sql` statements of one folder, each called by its file name. */
export interface SqlFolder {
  /** The text of `<name>.sql` in the folder: one named statement per file, parameters as `$name`. */
  text(name: string): string;
  /** Runs `<name>.sql` with bound parameters (never concatenated into the text). */
  run(conn: DuckDBConnection, name: string, params?: Record<string, DuckDBValue>): Promise<void>;
}

const folders = new Map<string, SqlFolder>();

/**
 * The statements beside a stage's modules (`sqlFolder(import.meta.dirname)`): a stage
 * calls only its own folder's, so two stages may name a statement alike without meeting.
 * A missing name fails with the folder it was looked for in.
 */
export function sqlFolder(dir: string): SqlFolder {
  let folder = folders.get(dir);
  if (folder) return folder;
  const texts = new Map<string, string>();
  const text = (name: string): string => {
    let sql = texts.get(name);
    if (sql === undefined) {
      if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
      const path = join(dir, `${name}.sql`);
      if (!existsSync(path)) throw new Error(`no SQL file ${name}.sql in ${relative(ETL_DIR, dir) || '.'}/ (a stage's statements sit beside its modules)`);
      sql = readFileSync(path, 'utf8');
      texts.set(name, sql);
    }
    return sql;
  };
  const run = async (conn: DuckDBConnection, name: string, params: Record<string, DuckDBValue> = {}): Promise<void> => {
    const sql = text(name);
    // Only bind the parameters the statement uses: DuckDB refuses unused named parameters.
    const used = Object.fromEntries(Object.entries(params).filter(([k]) => new RegExp(`\\$${k}\\b`).test(sql)));
    try {
      await conn.run(sql, Object.keys(used).length > 0 ? used : undefined);
    } catch (e) {
      // DuckDB's message does not say which statement failed: an out-of-memory at 10M did not.
      throw new Error(`${name}.sql: ${(e as Error).message}`, { cause: e });
    }
  };
  folder = { text, run };
  folders.set(dir, folder);
  return folder;
}

/** The statements of the stage folder `rel` under `etl/stages/` (`'40-marts/70-str'`), for tests and tools. */
export function stageSql(rel: string): SqlFolder {
  return sqlFolder(join(ETL_DIR, 'stages', rel));
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
 * Streams a sorting query's rows in its order by way of a table: the query is written into
 * `table` (one CREATE TABLE ... AS, whose sort and joins spill under the memory limit), then
 * the table is scanned (a plain scan keeps insertion order) and dropped, also when the reader
 * stops early or fails. DuckDB (1.5) does not always spill a streamed sort: at 30M addresses
 * evidence-files ran out of its 1 GB streaming rent_lets_area_rows (12.9M rows of a 30M-sized
 * copy of its tables fail the same way; into a table they pass, docs/etl.md "Memory").
 */
export async function* streamSorted(db: DuckDBInstance, conn: DuckDBConnection, table: string, sql: string, params?: Record<string, DuckDBValue>): AsyncGenerator<NamedChunk> {
  const name = plainIdentifier(table);
  try {
    await conn.run(`CREATE OR REPLACE TABLE ${name} AS ${sql.trim().replace(/;$/, '')}`, params);
    yield* streamChunks(db, `SELECT * FROM ${name}`);
  } finally {
    await conn.run(`DROP TABLE IF EXISTS ${name}`);
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
