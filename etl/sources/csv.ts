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
