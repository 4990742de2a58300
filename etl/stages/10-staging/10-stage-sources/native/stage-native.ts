import { STRUCT, VARCHAR, structValue, type DuckDBConnection } from '@duckdb/node-api';
import { isGzip } from '../../../../sources/io.ts';
import { readCsvRecords, type CsvRecord } from '../../../../sources/csv.ts';
import { RejectLog } from '../../../../sources/rejects.ts';
import { sourceSha256, type SourceFile } from '../../../../pipeline/discover.ts';
import { queryRows, sqlFolder } from '../../../../pipeline/sql.ts';
import type { AnySource } from '../../../../sources/index.ts';
import type { SourceReport } from '../source-report.ts';
import { sameSplitAsCsvParse } from './csv-bytes.ts';
import { feedThroughFifo, type FifoFeed } from './fifo-feed.ts';
import { zipMemberPath } from '../../../../sources/zip.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** A refused row: its reason and, for a row the CSV parser refused, its line; for a checked row, its record number. */
export interface NativeReject {
  reason: string;
  line?: number;
  record?: number;
  detail: string;
}

export type NativeOutcome = { report: SourceReport; samples: NativeReject[]; dates: string[] } | { fallback: string };

/** The SQL helpers the checks use (JS trim, Number, postcode and date rules), in dependency order. */
const MACROS = [
  'native_macro_js_trim', 'native_macro_js_blank', 'native_macro_js_number', 'native_macro_js_finite', 'native_macro_js_int',
  'native_macro_format_postcode', 'native_macro_postcode_ok', 'native_macro_date_shape', 'native_macro_any_date',
  'native_macro_opt_str', 'native_macro_undouble',
];
const WIDTH_ERRORS = new Set(['MISSING COLUMNS', 'TOO MANY COLUMNS']);
const MAX_SAMPLES = 20;

/**
 * The file's first CSV record as csv-parse reads it and what follows it (its second record,
 * `refused` if csv-parse refused the next one, none at the end), or why the native path should not read the file.
 */
async function firstRecords(path: string): Promise<{ first: string[]; second?: CsvRecord | 'refused' } | string> {
  const rejects = new RejectLog();
  const records = readCsvRecords(path, rejects);
  try {
    const one = await records.next();
    if (one.done) return 'empty file';
    if (one.value.line !== 1 || rejects.total > 0) return 'first record is not on line 1';
    const two = await records.next();
    if (rejects.total > 0) return { first: one.value.fields, second: 'refused' };
    return { first: one.value.fields, second: two.done ? undefined : two.value };
  } finally {
    await records.return(undefined);
  }
}

async function dropWork(conn: DuckDBConnection): Promise<void> {
  for (const t of ['native_raw_drop', 'native_rejects_drop', 'native_scan_drop', 'native_checked_drop', 'native_epc_candidates_drop']) {
    await sql.run(conn, t);
  }
}

/**
 * Stages one file with DuckDB's CSV reader (all cells text) into `native_raw`, then the kind's
 * checking SQL (`etl/sources/<kind>/native_check.sql`: the TS reader's rules, each row's first failing
 * field as its reason) and appends the accepted rows in file order. Rows of the wrong width
 * are counted under the TS reader's reason for them. Anything else the two parsers could
 * read differently (another layout; a quote or line break csv-parse reads otherwise,
 * `csv-bytes.ts`; a parse error of another type, such as bytes that are not UTF-8) returns
 * `fallback` before a row is appended, and the caller stages the file with the TS reader.
 */
export async function stageFileNative(
  conn: DuckDBConnection,
  spec: AnySource,
  file: SourceFile,
  fileNo: number,
  today: string,
): Promise<NativeOutcome> {
  const kind = spec.native;
  if (!kind) return { fallback: `no native path for ${spec.kind}` };
  const first = await firstRecords(file.path);
  if (typeof first === 'string') return { fallback: first };
  const layout = kind.layout(first.first, first.second);
  if (!layout) return { fallback: 'a layout only the TS reader reads (or refuses)' };
  // The byte check (the JS thread) runs while DuckDB reads the file into native_raw (its
  // threads); nothing reaches a staging table before both are done, and its answer comes
  // first, as if it had run before the read.
  const splitting = sameSplitAsCsvParse(file.path);
  splitting.catch(() => undefined); // awaited below, whichever way the read ends
  for (const m of MACROS) await sql.run(conn, m);
  await dropWork(conn);
  let errors: Record<string, unknown>[];
  // A zip member reaches DuckDB through a named pipe, inflated as it is read (fifo-feed.ts).
  let feed: FifoFeed | undefined = zipMemberPath(file.path) ? feedThroughFifo(file.path) : undefined;
  const fed = async () => {
    const e = await feed?.done();
    feed = undefined;
    if (e) throw e;
  };
  try {
    const columns = Object.fromEntries(layout.names.map((n) => [n, 'VARCHAR']));
    await conn.run(sql.text('native_raw_read'), {
      path: feed?.path ?? file.path, header: layout.header, skip: layout.skip ?? 0, compression: (await isGzip(file.path)) ? 'gzip' : 'none',
      columns: structValue(columns),
    }, { columns: STRUCT(Object.fromEntries(layout.names.map((n) => [n, VARCHAR]))) });
    // A damaged member ends DuckDB's read early without an error: its feed's error says so.
    await fed();
    const split = await splitting;
    if (split) return dropWork(conn).then(() => ({ fallback: split }));
    errors = await queryRows(conn, sql.text('native_parse_errors'));
    const other = errors.find((e) => !WIDTH_ERRORS.has(String(e.error_type)) || !kind.widthReason);
    if (other) return dropWork(conn).then(() => ({ fallback: `CSV parser: ${String(other.error_type)} at line ${String(other.line)}` }));
  } catch (e) {
    await dropWork(conn);
    await fed().catch(async (damaged: unknown) => { await splitting.catch(() => undefined); throw damaged; });
    // A read DuckDB gives up on (a quote left open to the end of the file, say) is read by the TS reader.
    const split = await splitting;
    if (split) return { fallback: split };
    if (/^(Invalid Input|Conversion) Error/.test((e as Error).message)) return { fallback: (e as Error).message.split('\n')[0]! };
    throw e;
  }
  // From here rows are appended: nothing falls back. The file's hash (for the report; the
  // staging cache has usually taken it already) is taken on the hasher thread while DuckDB
  // checks and inserts.
  const hashing = sourceSha256(file);
  hashing.catch(() => undefined); // awaited for the report
  try {
    if (kind.candidates) {
      await kind.candidates.sql.run(conn, kind.candidates.macro);
      await kind.candidates.sql.run(conn, 'native_candidates');
    }
    // The kind's own SQL, in its source's folder (etl/sources/<kind>/).
    await kind.sql.run(conn, 'native_check', { ...layout.params });
    await kind.sql.run(conn, 'native_insert', { file_no: fileNo });
    const counts = new Map<string, number>();
    if (errors.length > 0) counts.set(kind.widthReason!, errors.length);
    for (const r of await queryRows(conn, sql.text('native_reject_counts'))) counts.set(String(r.reason), Number(r.n));
    const [acc] = await queryRows(conn, sql.text('native_accepted'), { today });
    const dates = (await queryRows(conn, sql.text('native_dates'))).map((r) => String(r.d));
    const samples: NativeReject[] = [
      ...errors.map((e) => ({ reason: kind.widthReason!, line: Number(e.line), detail: String(e.message) })),
      ...(await queryRows(conn, sql.text('native_reject_samples'))).map((r) => ({ reason: String(r.reason), record: Number(r.record) + 1, detail: '' })),
    ].slice(0, MAX_SAMPLES);
    const by_reason: Record<string, number> = {};
    for (const k of [...counts.keys()].sort()) by_reason[k] = counts.get(k)!;
    return {
      report: {
        name: spec.kind, path: file.rel, bytes: file.bytes, sha256: await hashing,
        as_of: (acc?.as_of as string | null) ?? null, rows_read: Number(acc?.n ?? 0),
        rows_rejected: [...counts.values()].reduce((a, b) => a + b, 0), rejected_by_reason: by_reason,
      },
      samples,
      dates,
    };
  } finally {
    await dropWork(conn);
  }
}
