import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBVector } from '@duckdb/node-api';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { memoryLimitBytes } from '../../../pipeline/memory-limit.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { plainIdentifier } from '../../../../schemas/sql-identifier.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFileWriter, type ColumnSpec } from '../../../../lib/files/record-file-format.ts';
import { PROPERTY_RECORDS_PAGED_FILE, pagedRecordWriter } from '../../../../lib/files/paged-record-file.ts';
import type { KeyedRowsWriter, Value } from '../../../../lib/files/keyed-rows-file.ts';
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
 * Writes the property records sorted by UPRN, so the record endpoint answers without a SQL
 * round trip (the `properties` Parquet file stays the table analysts and other endpoints
 * query), twice from one read: `property-records.rows`, paged (paged-record-file.ts), which
 * the service reads where it lies, and `property-records.bin`, columnar, which it reads whole
 * when a build lacks the paged file. The .bin stays while a service from before the paged file
 * may be rolled back to and serve a new build (ADR 0015, step 3).
 */
export const propertyRecordsStage: Stage = {
  name: 'property-records',
  description: 'the property record endpoint\'s lookup file (UPRN-sorted columns) written as property-records.bin',
  reads: ['properties'],
  writes: [PROPERTY_RECORDS_FILE, PROPERTY_RECORDS_PAGED_FILE],
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
  // Written as it goes, a page at a time; removed if the stage fails before it is finished.
  const pagedPath = join(ctx.buildDir, PROPERTY_RECORDS_PAGED_FILE);
  const paged = pagedRecordWriter(pagedPath, PROPERTY_RECORD_COLUMNS);
  let bytes: number;
  let pagedBytes: number | undefined;
  try {
    const dicts = await createDictionaries(ctx);
    const reads = cuts.length === 0
      ? [{ sql: SELECT, params: undefined }]
      : keyRanges(cuts).map((params) => ({ sql: SELECT_BETWEEN, params }));
    for (const { sql, params } of reads) {
      // Column-wise, a chunk at a time: no object per row.
      for await (const { rows, vectors } of streamVectors(ctx.db, sql, params)) {
        const uprns = doubles(vectors[0]!, rows);
        const columns = vectors.slice(1).map((v, c) => {
          const { name, kind } = PROPERTY_RECORD_COLUMNS[c]!;
          if (kind === 'dict') return { codes: doubles(v, rows), dict: dicts.get(name)! };
          return kind === 'num' || kind === 'small' ? doubles(v, rows) : v.toArray();
        });
        writer.addColumns(rows, uprns, columns);
        addPagedRows(paged, rows, uprns, columns);
      }
    }
    bytes = writer.finish(join(ctx.buildDir, PROPERTY_RECORDS_FILE));
    pagedBytes = paged.finish().bytes;
  } finally {
    writer.discard();
    paged.discard();
    if (pagedBytes === undefined) rmSync(pagedPath, { force: true });
    for (const c of DICT_COLUMNS) await ctx.conn.run(`DROP TYPE IF EXISTS ${dictType(c)}`);
  }
  ctx.artifacts.property_records = { file: PROPERTY_RECORDS_FILE, description: 'property records by UPRN (format: lib/files/record-file-format.ts)' };
  ctx.artifacts.property_records_paged = { file: PROPERTY_RECORDS_PAGED_FILE, description: 'property records by UPRN in 4 KB pages, read where they lie (format: lib/files/paged-record-file.ts)' };
  ctx.log.info({ stage: 'property-records', rows: n, chunks: cuts.length + 1, bytes, paged_bytes: pagedBytes, ms: Math.round(performance.now() - t0) }, 'property records written');
}

/**
 * The chunk's rows into the paged file, as the columnar writer reads them: NaN, code 0 and a
 * null value as null, a dict code as its string (the ENUM's own, not a new one per row).
 */
function addPagedRows(paged: KeyedRowsWriter, rows: number, uprns: Float64Array, columns: ReadonlyArray<ArrayLike<unknown> | { codes: Float64Array; dict: string[] }>): void {
  const readers = columns.map((col, c): ((k: number) => Value) => {
    const kind = PROPERTY_RECORD_COLUMNS[c]!.kind;
    if ('codes' in col) return (k) => (col.codes[k] === 0 ? null : col.dict[col.codes[k]! - 1]!);
    if (kind === 'num' || kind === 'small') return (k) => (Number.isNaN(col[k]) ? null : (col[k] as number));
    if (kind === 'bool') return (k) => (col[k] === null || col[k] === undefined ? null : col[k] === true);
    return (k) => (col[k] === null || col[k] === undefined ? null : String(col[k]));
  });
  const values: Value[] = new Array<Value>(readers.length);
  for (let k = 0; k < rows; k++) {
    for (let c = 0; c < readers.length; c++) values[c] = readers[c]!(k);
    paged.add(uprns[k]!, values);
  }
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
