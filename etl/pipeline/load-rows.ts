import type { DuckDBAppender, DuckDBConnection } from '@duckdb/node-api';
import { LIST, VARCHAR, listValue } from '@duckdb/node-api';
import { plainIdentifier } from '../../schemas/sql-identifier.ts';

const VARCHAR_LIST = LIST(VARCHAR);

/**
 * Column types used for staging tables. Staging keeps to a few plain types; dates stay
 * ISO strings (readers already normalised them) and are cast in the merge SQL.
 */
export type StageType = 'VARCHAR' | 'DOUBLE' | 'BIGINT' | 'INTEGER' | 'BOOLEAN' | 'VARCHAR[]';

export interface StageColumn<Row> {
  name: string;
  type: StageType;
  get: (row: Row) => unknown;
}

function appendOne(a: DuckDBAppender, type: StageType, v: unknown): void {
  if (v === undefined || v === null) return a.appendNull();
  switch (type) {
    case 'VARCHAR': return a.appendVarchar(String(v));
    case 'DOUBLE': return a.appendDouble(Number(v));
    case 'INTEGER': return a.appendInteger(Number(v));
    case 'BIGINT': return a.appendBigInt(BigInt(v as number | string | bigint));
    case 'BOOLEAN': return a.appendBoolean(Boolean(v));
    case 'VARCHAR[]': return a.appendList(listValue((v as unknown[]).map(String)), VARCHAR_LIST);
  }
}

function checkIdentifiers(...ids: string[]): void {
  for (const id of ids) plainIdentifier(id);
}

/** Creates (or replaces) an empty staging table with these columns. */
export async function createTable(conn: DuckDBConnection, table: string, columns: readonly { name: string; type: StageType }[]): Promise<void> {
  checkIdentifiers(table, ...columns.map((c) => c.name));
  await conn.run(`CREATE OR REPLACE TABLE ${table} (${columns.map((c) => `${c.name} ${c.type}`).join(', ')})`);
}

/**
 * Appends every row of `rows` to an existing table with DuckDB's appender (far faster than
 * INSERT statements). Identifiers are checked, never interpolated from data. Returns the
 * number of rows appended.
 */
export async function appendRows<Row>(
  conn: DuckDBConnection,
  table: string,
  columns: readonly StageColumn<Row>[],
  rows: AsyncIterable<Row> | Iterable<Row>,
): Promise<number> {
  checkIdentifiers(table, ...columns.map((c) => c.name));
  const appender = await conn.createAppender(table);
  let n = 0;
  try {
    for await (const row of rows) {
      for (const c of columns) appendOne(appender, c.type, c.get(row));
      appender.endRow();
      n++;
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return n;
}

/** An open appender on an existing table: rows added one at a time, flushed and closed once (a second close is a no-op). */
export interface RowSink<Row> {
  add(row: Row): void;
  close(): void;
}

/**
 * Opens an appender for code that writes to more than one table as it goes (the streamed
 * matcher). One appender per connection: open a second table's on a connection of its own.
 */
export async function openAppender<Row>(conn: DuckDBConnection, table: string, columns: readonly StageColumn<Row>[]): Promise<RowSink<Row>> {
  checkIdentifiers(table, ...columns.map((c) => c.name));
  const appender = await conn.createAppender(table);
  let open = true;
  return {
    add(row) {
      for (const c of columns) appendOne(appender, c.type, c.get(row));
      appender.endRow();
    },
    close() {
      if (!open) return;
      open = false;
      try {
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    },
  };
}

/** Creates `table` and appends `rows` to it. */
export async function loadRows<Row>(
  conn: DuckDBConnection,
  table: string,
  columns: readonly StageColumn<Row>[],
  rows: AsyncIterable<Row> | Iterable<Row>,
): Promise<number> {
  await createTable(conn, table, columns);
  return appendRows(conn, table, columns, rows);
}
