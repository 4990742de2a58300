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
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    ...opts.parser,
  });
  parser.on('skip', (err: Error & { lines?: number }) => {
    rejects.add('csv_syntax', err.lines, err.message);
  });
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    yield { fields: rec.record, line: rec.info.lines };
  }
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
