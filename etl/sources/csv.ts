import { parse, type Options } from 'csv-parse';
import type { Readable } from 'node:stream';
import { openSource } from './io.ts';
import type { RejectLog } from './rejects.ts';

/** One CSV record with the physical line it started on (1-based), for reject reports. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

export interface CsvReadOptions {
  /** Passed to csv-parse; `delimiter`, `quote` and so on. Record delimiter is auto-detected (LF, CRLF or CR). */
  parser?: Options;
  /** Rewrites the stream before parsing (e.g. to repair a header glued to the first record). */
  transform?: (input: Readable) => Readable;
}

/**
 * Streams CSV records from a file (gzip transparent, BOM stripped). Uses csv-parse because
 * real sources have multi-line quoted fields with CR, CRLF and LF inside them, CR-only line
 * endings, minimal and full quoting; a hand-written splitter gets those wrong.
 * A record csv-parse cannot parse (a stray quote, say) is counted as `csv_syntax` and skipped.
 */
export async function* readCsvRecords(
  path: string,
  rejects: RejectLog,
  opts: CsvReadOptions = {},
): AsyncGenerator<CsvRecord> {
  let input: Readable = await openSource(path);
  if (opts.transform) input = opts.transform(input);
  // Line numbers are counted here rather than with csv-parse's `info` option, which
  // builds an object per record and halves the parser's speed. Empty lines therefore
  // come through as [''] records and are dropped below, so that they are counted.
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    skip_records_with_error: true,
    ...opts.parser,
  });
  // A skipped record's lines are unknown to the loop below; csv-parse says where it was
  // (`lines`) and after how many records (`records`), so the count resyncs there.
  const resync = new Map<number, number>();
  parser.on('skip', (err: Error & { lines?: number; records?: number }) => {
    if (err.records !== undefined && resync.has(err.records)) return; // reported once per record
    rejects.add('csv_syntax', err.lines, err.message);
    if (err.records !== undefined && err.lines !== undefined) resync.set(err.records, err.lines + 1);
  });
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  let line = 1;
  let ordinal = 0;
  for await (const fields of parser as AsyncIterable<string[]>) {
    const after = resync.get(ordinal);
    if (after !== undefined) {
      line = after;
      resync.delete(ordinal);
    }
    ordinal++;
    const start = line;
    line += 1 + embeddedBreaks(fields);
    if (fields.length === 1 && fields[0] === '') continue; // an empty line
    yield { fields, line: start };
  }
}

/**
 * Line breaks inside quoted fields, counted as editors and `wc -l` count lines: by LF
 * (so CRLF once); a lone CR inside a field (Inside Airbnb descriptions have them) is not a
 * line break there. CR-only files have no multi-line fields in the samples we know.
 */
function embeddedBreaks(fields: string[]): number {
  let n = 0;
  for (const f of fields) {
    for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) n++;
  }
  return n;
}

/**
 * Maps a header row to column indexes by name. Duplicate names (the EPC register export
 * repeats four columns) keep the first occurrence; `dup` lists the repeats.
 */
export function headerIndex(header: string[]): { index: Map<string, number>; dup: string[] } {
  const index = new Map<string, number>();
  const dup: string[] = [];
  header.forEach((raw, i) => {
    const name = raw.trim();
    if (index.has(name)) dup.push(name);
    else index.set(name, i);
  });
  return { index, dup };
}

/** Turns an empty or whitespace-only string into undefined; trims the rest. */
export function blankToUndef(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  return t === '' ? undefined : t;
}

/** One data record of a headed CSV, with its cells looked up by column name. */
export interface HeadedRecord {
  fields: string[];
  line: number;
  /** The cell of a column (undefined when the file has no such column). */
  get(name: string): string | undefined;
}

export interface HeadedCsvOptions extends CsvReadOptions {
  /** What the file is, for the error when required columns are missing ("an EPC certificates file"). */
  what: string;
  /** Columns without which the file is not of this kind (after `normalise`). */
  required: readonly string[];
  /** How header names compare (e.g. upper-cased); default: trimmed as written. */
  normalise?: (name: string) => string;
  /** Reject records whose field count differs from the header's as `wrong_column_count`. */
  checkWidth?: boolean;
}

/**
 * Reads a CSV whose first record is its header: checks the required columns (a file
 * without them throws up front, naming them), optionally rejects records of the wrong
 * width, and yields each record with a by-name lookup. Readers map by name, so supplies
 * with reordered or extra columns still read.
 */
export async function* readHeadedCsv(path: string, rejects: RejectLog, opts: HeadedCsvOptions): AsyncGenerator<HeadedRecord> {
  const normalise = opts.normalise ?? ((n: string) => n.trim());
  let col: Map<string, number> | undefined;
  let width = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects, opts)) {
    if (!col) {
      col = headerIndex(fields.map(normalise)).index;
      const missing = opts.required.filter((c) => !col!.has(c));
      if (missing.length > 0) throw new Error(`${path}: not ${opts.what} (no ${missing.join(', ')} column)`);
      width = fields.length;
      continue;
    }
    if (opts.checkWidth && fields.length !== width) {
      rejects.add('wrong_column_count', line, `${fields.length} fields, expected ${width}`);
      continue;
    }
    const c = col;
    yield { fields, line, get: (name) => { const i = c.get(name); return i === undefined ? undefined : fields[i]; } };
  }
}
