import type { DuckDBInstance, DuckDBValue, DuckDBVector } from '@duckdb/node-api';
import { streamChunks } from '../../pipeline/sql.ts';

/** One chunk of a result: its row count and each column's values (VARCHAR as string, DOUBLE and INTEGER as number, BIGINT as bigint, NULL as null). */
export interface ColumnChunk {
  rows: number;
  columns: DuckDBValue[][];
}

/**
 * Streams a query's result (`params` bound to its `$name`s) chunk by chunk as columns, on a connection of its own (so
 * nothing else on the build connection can cut it short), with the next chunk requested
 * before this one is handed over: DuckDB produces it on its own threads while the JS thread
 * consumes this one. Values come as DuckDB gives them, with no JSON conversion and no
 * object per row: `Number()` and `String()` of them equal those of the JSON values
 * (`streamRows`) for the types the serving files read.
 */
export async function* streamColumns(db: DuckDBInstance, sql: string, params?: Record<string, DuckDBValue>): AsyncGenerator<ColumnChunk> {
  for await (const { chunk } of streamChunks(db, sql, params)) yield { rows: chunk.rowCount, columns: chunk.getColumns() };
}

/** One chunk of a result as DuckDB's vectors (views of the chunk's memory: read them before taking the next). */
export interface VectorChunk {
  rows: number;
  vectors: DuckDBVector[];
}

/** `streamColumns` (`params` bound to the query's `$name`s), with each column as its vector (for a consumer that reads typed arrays whole). */
export async function* streamVectors(db: DuckDBInstance, sql: string, params?: Record<string, DuckDBValue>): AsyncGenerator<VectorChunk> {
  for await (const { chunk } of streamChunks(db, sql, params)) {
    yield { rows: chunk.rowCount, vectors: Array.from({ length: chunk.columnCount }, (_, c) => chunk.getColumnVector(c)) };
  }
}
