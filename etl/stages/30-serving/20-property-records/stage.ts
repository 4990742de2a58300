import { join } from 'node:path';
import type { DuckDBVector } from '@duckdb/node-api';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { memoryLimitBytes } from '../../../pipeline/memory-limit.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { plainIdentifier } from '../../../../schemas/sql-identifier.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFileWriter, type ColumnSpec } from '../../../../lib/files/record-file-format.ts';
import { keyRanges, sortChunks } from '../sort-chunks.ts';
import { streamVectors } from '../stream-columns.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Bytes per row of the stage's sort (the served columns): measured 282 at 1M addresses, rounded up. */
export const RECORDS_SORT_BYTES_PER_ROW = 300;

/** A dict column's text (a DATE's ISO text, as `String()` of DuckDB's JS date value gives, made by DuckDB). */
const dictText = (c: ColumnSpec) => `CAST(${c.name} AS VARCHAR)`;
/** The ENUM type holding a dict column's distinct values while the stage runs. */
const dictType = (c: ColumnSpec) => plainIdentifier(`record_dict_${c.name}`);
const DICT_COLUMNS = PROPERTY_RECORD_COLUMNS.filter((c) => c.kind === 'dict');

/**
 * Each column as the writer takes it whole: numbers as DOUBLE with NaN for null (a typed
 * array without a validity mask or a bigint to convert); a dict column as its code in its
 * ENUM (0 null, else 1 + the ENUM's index: `DictCodes`), so no string is made per row (making
 * them was most of the stage: 11 dict columns of 1M rows); text as VARCHAR.
 */
function selectItem(c: ColumnSpec): string {
  if (c.kind === 'num' || c.kind === 'small') return `coalesce(CAST(${c.name} AS DOUBLE), 'NaN'::DOUBLE) AS ${c.name}`;
  if (c.kind === 'dict') return `coalesce(enum_code(CAST(${dictText(c)} AS ${dictType(c)}))::DOUBLE + 1, 0) AS ${c.name}`;
  if (c.kind === 'text') return `CAST(${c.name} AS VARCHAR) AS ${c.name}`;
  return c.name;
}
const COLUMNS = `CAST(uprn AS DOUBLE) AS uprn_number, ${PROPERTY_RECORD_COLUMNS.map(selectItem).join(', ')}`;
const SELECT = `SELECT ${COLUMNS} FROM properties ORDER BY uprn`;
// One UPRN range, $lo inclusive to $hi exclusive, either end open when null; a null UPRN in the
// last range, where ORDER BY uprn puts it (NULLS LAST).
const SELECT_BETWEEN = `SELECT ${COLUMNS} FROM properties WHERE coalesce(uprn >= $lo, TRUE) AND coalesce(uprn < $hi, $hi IS NULL) ORDER BY uprn`;

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
    const chunks = sortChunks(n, RECORDS_SORT_BYTES_PER_ROW, await memoryLimitBytes(ctx.conn));
    await writePropertyRecords(ctx, n, chunks > 1 ? await uprnCuts(ctx, chunks) : []);
  },
};

/**
 * Writes the `n` properties rows, read in the UPRN ranges between `cuts` (ascending; none: one
 * query; sort-chunks.ts). `spill` sets the writer's buffer size (tests force many flushes).
 */
export async function writePropertyRecords(ctx: BuildContext, n: number, cuts: readonly bigint[], spill: { bufferBytes?: number } = {}): Promise<void> {
  const t0 = performance.now();
  // The sections spill into a temporary folder of the build (docs/etl.md, "Memory"), removed
  // by finish, or by discard when a read or the writer fails.
  const writer = new RecordFileWriter(PROPERTY_RECORD_COLUMNS, n, { spillDir: ctx.buildDir, bufferBytes: spill.bufferBytes });
  let bytes: number;
  try {
    const dicts = await createDictionaries(ctx);
    const reads = cuts.length === 0
      ? [{ sql: SELECT, params: undefined }]
      : keyRanges(cuts).map((params) => ({ sql: SELECT_BETWEEN, params }));
    for (const { sql, params } of reads) {
      // Column-wise, a chunk at a time: no object per row.
      for await (const { rows, vectors } of streamVectors(ctx.db, sql, params)) {
        writer.addColumns(rows, doubles(vectors[0]!, rows), vectors.slice(1).map((v, c) => {
          const { name, kind } = PROPERTY_RECORD_COLUMNS[c]!;
          if (kind === 'dict') return { codes: doubles(v, rows), dict: dicts.get(name)! };
          return kind === 'num' || kind === 'small' ? doubles(v, rows) : v.toArray();
        }));
      }
    }
    bytes = writer.finish(join(ctx.buildDir, PROPERTY_RECORDS_FILE));
  } finally {
    writer.discard();
    for (const c of DICT_COLUMNS) await ctx.conn.run(`DROP TYPE IF EXISTS ${dictType(c)}`);
  }
  ctx.artifacts.property_records = { file: PROPERTY_RECORDS_FILE, description: 'property records by UPRN (format: lib/files/record-file-format.ts)' };
  ctx.log.info({ stage: 'property-records', rows: n, chunks: cuts.length + 1, bytes, ms: Math.round(performance.now() - t0) }, 'property records written');
}

/** Each dict column's distinct values as an ENUM type, and the ENUM's values in its order. */
async function createDictionaries(ctx: BuildContext): Promise<Map<string, string[]>> {
  const dicts = new Map<string, string[]>();
  for (const c of DICT_COLUMNS) {
    // Any order: the writer numbers the values as it first meets them, whatever their codes.
    await ctx.conn.run(`DROP TYPE IF EXISTS ${dictType(c)}`);
    await ctx.conn.run(`CREATE TYPE ${dictType(c)} AS ENUM (SELECT DISTINCT ${dictText(c)} FROM properties WHERE ${c.name} IS NOT NULL)`);
    const values = (await ctx.conn.runAndReadAll(`SELECT unnest(enum_range(NULL::${dictType(c)})) AS v`)).getColumns()[0] ?? [];
    dicts.set(c.name, values.map(String));
  }
  return dicts;
}

/** Ascending, distinct UPRNs cutting the properties into `chunks` ranges of about equal rows. */
export async function uprnCuts(ctx: BuildContext, chunks: number): Promise<bigint[]> {
  const [row] = await queryRows(ctx.conn, sql.text('property_records_uprn_cuts'), { chunks });
  const cuts = ((row?.cuts ?? []) as (string | null)[]).filter((c) => c !== null).map((c) => BigInt(c)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return cuts.filter((c, i) => i === 0 || c > cuts[i - 1]!);
}

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
