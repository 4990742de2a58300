import { openSource } from '../../../../sources/io.ts';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/**
 * True when every `"` in the file is where csv-parse (strict quoting) accepts it: opening a
 * field, doubled inside a quoted field, or closing one right before a comma or line break.
 * DuckDB keeps a stray quote in an unquoted cell (`x"y`) as text where csv-parse refuses the
 * record, so a file that fails this is read by the TS reader. One pass over the bytes, which
 * is only made for files that have a quote in some cell.
 */
export async function quotesWellFormed(path: string): Promise<boolean> {
  let quoted = false;
  let fieldStart = true;
  /** Inside a quoted field, the previous byte was a quote: it closes the field or escapes this one. */
  let pending = false;
  for await (const chunk of await openSource(path)) {
    const b = chunk as Buffer;
    for (let i = 0; i < b.length; i++) {
      const c = b[i]!;
      if (pending) {
        pending = false;
        if (c === QUOTE) continue; // "" inside a quoted field
        quoted = false;
        if (c !== COMMA && c !== LF && c !== CR) return false; // text after a closing quote
        fieldStart = true;
        continue;
      }
      if (quoted) {
        if (c === QUOTE) pending = true;
        continue;
      }
      if (c === QUOTE) {
        if (!fieldStart) return false; // a quote inside an unquoted field
        quoted = true;
        fieldStart = false;
        continue;
      }
      fieldStart = c === COMMA || c === LF || c === CR;
    }
  }
  return !quoted || pending; // a quoted field left open at the end is an error; one closed by the last byte is not
}
