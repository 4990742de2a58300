import { openSource } from '../../../../sources/io.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Where a scan stands between chunks. */
interface ScanState {
  quoted: boolean;
  fieldStart: boolean;
  /** Inside a quoted field, the previous byte was a quote: it closes the field or escapes this one. */
  pending: boolean;
  /** The record delimiter csv-parse would detect: 'crlf', 'lf' or 'cr'; a CR at a chunk's end waits for the next byte. */
  eol: 'crlf' | 'lf' | 'cr' | undefined;
  crPending: boolean;
}

/**
 * Whether DuckDB's CSV reader splits this file into the same records and cells as csv-parse
 * (as `etl/sources/csv.ts` configures it), in one pass over the bytes. Two things differ:
 * - quotes: csv-parse refuses a quote inside an unquoted cell (`x"y`) or text after a closing
 *   quote; DuckDB keeps the first as text;
 * - line breaks: csv-parse takes the first line break outside quotes (CRLF, LF or CR) as the
 *   record delimiter and any other break as text; DuckDB ends a record at each of them.
 */
export async function sameSplitAsCsvParse(path: string): Promise<string | undefined> {
  return sameSplitInChunks(await openSource(path));
}

/** `sameSplitAsCsvParse` over the file's bytes in chunks of any size. */
export async function sameSplitInChunks(chunks: AsyncIterable<unknown> | Iterable<unknown>): Promise<string | undefined> {
  const s: ScanState = { quoted: false, fieldStart: true, pending: false, eol: undefined, crPending: false };
  for await (const chunk of chunks) {
    const b = chunk as Buffer;
    // With no CR about, only quotes (and whether a LF falls outside them) matter: jump from
    // quote to quote at memchr speed. A file with CRs is read byte by byte.
    const why = !s.crPending && s.eol !== 'crlf' && s.eol !== 'cr' && b.indexOf(CR) < 0 ? scanLfChunk(b, s) : scanChunk(b, s);
    if (why) return why;
  }
  if (s.crPending && s.eol !== undefined && s.eol !== 'cr') return 'mixed line breaks';
  if (s.quoted && !s.pending) return 'a quote left open';
  return undefined;
}

/** A chunk with no CR, the file's delimiter LF or not yet seen: quotes found with indexOf. */
function scanLfChunk(b: Buffer, s: ScanState): string | undefined {
  const lfOutside = (from: number, to: number) => {
    if (s.eol === undefined && b.indexOf(LF, from) >= 0 && b.indexOf(LF, from) < to) s.eol = 'lf';
  };
  let i = 0;
  if (s.pending && b.length > 0) {
    s.pending = false;
    if (b[0] === QUOTE) i = 1; // "" inside a quoted field
    else {
      s.quoted = false;
      if (b[0] !== COMMA && b[0] !== LF) return 'text after a closing quote';
      lfOutside(0, 1);
      s.fieldStart = true;
      i = 1;
    }
  }
  while (i < b.length) {
    const q = b.indexOf(QUOTE, i);
    if (s.quoted) {
      if (q < 0) return undefined; // the rest of the chunk is inside the quotes
      if (q === b.length - 1) {
        s.pending = true;
        return undefined;
      }
      const after = b[q + 1]!;
      if (after === QUOTE) {
        i = q + 2;
        continue;
      }
      s.quoted = false;
      if (after !== COMMA && after !== LF) return 'text after a closing quote';
      lfOutside(q + 1, q + 2);
      s.fieldStart = true;
      i = q + 2;
      continue;
    }
    const end = q < 0 ? b.length : q;
    if (end > i) {
      lfOutside(i, end);
      const last = b[end - 1];
      s.fieldStart = last === COMMA || last === LF;
    }
    if (q < 0) return undefined;
    if (!s.fieldStart) return 'a quote inside an unquoted cell';
    s.quoted = true;
    s.fieldStart = false;
    i = q + 1;
  }
  return undefined;
}

/** Any chunk, byte by byte. */
function scanChunk(b: Buffer, s: ScanState): string | undefined {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (s.crPending) {
      s.crPending = false;
      const kind = c === LF ? 'crlf' : 'cr';
      if (s.eol === undefined) s.eol = kind;
      else if (s.eol !== kind) return 'mixed line breaks';
      if (kind === 'crlf') { s.fieldStart = true; continue; }
    }
    if (s.pending) {
      s.pending = false;
      if (c === QUOTE) continue; // "" inside a quoted field
      s.quoted = false;
      if (c !== COMMA && c !== LF && c !== CR) return 'text after a closing quote';
    }
    if (s.quoted) {
      if (c === QUOTE) s.pending = true;
      continue;
    }
    if (c === QUOTE) {
      if (!s.fieldStart) return 'a quote inside an unquoted cell';
      s.quoted = true;
      s.fieldStart = false;
      continue;
    }
    if (c === CR) s.crPending = true;
    else if (c === LF) {
      if (s.eol === undefined) s.eol = 'lf';
      else if (s.eol !== 'lf') return 'mixed line breaks';
    }
    s.fieldStart = c === COMMA || c === LF || c === CR;
  }
  return undefined;
}
