import { openSource } from '../../../../sources/io.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Whether DuckDB's CSV reader splits this file into the same records and cells as csv-parse
 * (as `etl/sources/csv.ts` configures it), in one pass over the bytes. Two things differ:
 * - quotes: csv-parse refuses a quote inside an unquoted cell (`x"y`) or text after a closing
 *   quote; DuckDB keeps the first as text;
 * - line breaks: csv-parse takes the first line break outside quotes (CRLF, LF or CR) as the
 *   record delimiter and any other break as text; DuckDB ends a record at each of them.
 * Chunks with no quote and no CR are skipped with two memchr-speed searches, so a plain LF
 * file costs little more than reading it.
 */
export async function sameSplitAsCsvParse(path: string): Promise<string | undefined> {
  let quoted = false;
  let fieldStart = true;
  /** Inside a quoted field, the previous byte was a quote: it closes the field or escapes this one. */
  let pending = false;
  /** The record delimiter csv-parse would detect: 'crlf', 'lf' or 'cr'; a CR at a chunk's end waits for the next byte. */
  let eol: 'crlf' | 'lf' | 'cr' | undefined;
  let crPending = false;
  for await (const chunk of await openSource(path)) {
    const b = chunk as Buffer;
    if (!quoted && !pending && !crPending && b.indexOf(QUOTE) < 0 && b.indexOf(CR) < 0) {
      // LF only and no quote: fine unless the file's delimiter is CR or CRLF.
      if (b.indexOf(LF) >= 0) {
        if (eol === undefined) eol = 'lf';
        else if (eol !== 'lf') return 'mixed line breaks';
      }
      const last = b[b.length - 1];
      fieldStart = last === COMMA || last === LF;
      continue;
    }
    for (let i = 0; i < b.length; i++) {
      const c = b[i]!;
      if (crPending) {
        crPending = false;
        const kind = c === LF ? 'crlf' : 'cr';
        if (eol === undefined) eol = kind;
        else if (eol !== kind) return 'mixed line breaks';
        if (kind === 'crlf') { fieldStart = true; continue; }
      }
      if (pending) {
        pending = false;
        if (c === QUOTE) continue; // "" inside a quoted field
        quoted = false;
        if (c !== COMMA && c !== LF && c !== CR) return 'text after a closing quote';
      }
      if (quoted) {
        if (c === QUOTE) pending = true;
        continue;
      }
      if (c === QUOTE) {
        if (!fieldStart) return 'a quote inside an unquoted cell';
        quoted = true;
        fieldStart = false;
        continue;
      }
      if (c === CR) crPending = true;
      else if (c === LF) {
        if (eol === undefined) eol = 'lf';
        else if (eol !== 'lf') return 'mixed line breaks';
      }
      fieldStart = c === COMMA || c === LF || c === CR;
    }
  }
  if (crPending && eol !== undefined && eol !== 'cr') return 'mixed line breaks';
  if (quoted && !pending) return 'a quote left open';
  return undefined;
}
