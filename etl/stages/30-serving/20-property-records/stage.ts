import { join } from 'node:path';
import type { DuckDBVector } from '@duckdb/node-api';
import type { Stage } from '../../../pipeline/context.ts';
import { countRows } from '../../../pipeline/sql.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFileWriter, type ColumnSpec } from '../../../../schemas/record-file-format.ts';
import { streamVectors } from '../stream-columns.ts';

/**
 * Each column as the writer takes it whole: numbers as DOUBLE with NaN for null (a typed
 * array without a validity mask or a bigint to convert), dict and text values as VARCHAR
 * (a DATE's ISO text, as `String()` of DuckDB's JS date value gives, made by DuckDB).
 */
function selectItem(c: ColumnSpec): string {
  if (c.kind === 'num' || c.kind === 'small') return `coalesce(CAST(${c.name} AS DOUBLE), 'NaN'::DOUBLE) AS ${c.name}`;
  if (c.kind === 'dict' || c.kind === 'text') return `CAST(${c.name} AS VARCHAR) AS ${c.name}`;
  return c.name;
}
const SELECT = `SELECT CAST(uprn AS DOUBLE) AS uprn_number, ${PROPERTY_RECORD_COLUMNS.map(selectItem).join(', ')} FROM properties ORDER BY uprn`;

/**
 * Writes the property records as `property-records.bin`, sorted by UPRN, so the record
 * endpoint answers with a binary search in memory instead of a SQL round trip (the
 * `properties` Parquet file stays the table analysts and other endpoints query).
 */
export const propertyRecordsStage: Stage = {
  name: 'property-records',
  description: 'the property record endpoint\'s lookup file (UPRN-sorted columns) written as property-records.bin',
  reads: ['properties'],
  writes: [PROPERTY_RECORDS_FILE],
  async run(ctx) {
    const n = await countRows(ctx.conn, 'properties');
    const t0 = performance.now();
    const writer = new RecordFileWriter(PROPERTY_RECORD_COLUMNS, n);
    // Column-wise, a chunk at a time: no object per row.
    for await (const { rows, vectors } of streamVectors(ctx.db, SELECT)) {
      writer.addColumns(rows, doubles(vectors[0]!, rows), vectors.slice(1).map((v, c) => {
        const kind = PROPERTY_RECORD_COLUMNS[c]!.kind;
        return kind === 'num' || kind === 'small' ? doubles(v, rows) : v.toArray();
      }));
    }
    const bytes = writer.finish(join(ctx.buildDir, PROPERTY_RECORDS_FILE));
    ctx.artifacts.property_records = { file: PROPERTY_RECORDS_FILE, description: 'property records by UPRN (format: schemas/record-file-format.ts)' };
    ctx.log.info({ stage: 'property-records', rows: n, bytes, ms: Math.round(performance.now() - t0) }, 'property records written');
  },
};

/**
 * A DOUBLE vector's values as a Float64Array: the vector's own array where the client exposes
 * it (`items`, not part of its typed API, so checked), else read item by item.
 */
function doubles(v: DuckDBVector, rows: number): Float64Array {
  const items = (v as unknown as { items?: unknown }).items;
  if (items instanceof Float64Array && items.length === rows) return items;
  const out = new Float64Array(rows);
  for (let k = 0; k < rows; k++) out[k] = Number(v.getItem(k) ?? NaN);
  return out;
}
