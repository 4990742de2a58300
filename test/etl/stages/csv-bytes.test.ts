import { describe, expect, it } from 'vitest';
import { sameSplitInChunks } from '../../../etl/stages/10-staging/10-stage-sources/native/csv-bytes.ts';

/**
 * The rules, byte by byte over the whole file (the scan as first written): the reference the
 * chunked scan with its quote-to-quote jumps must agree with, whatever the chunking.
 */
function reference(bytes: Buffer): string | undefined {
  let quoted = false;
  let fieldStart = true;
  let pending = false;
  let eol: string | undefined;
  let crPending = false;
  for (const c of bytes) {
    if (crPending) {
      crPending = false;
      const kind = c === 0x0a ? 'crlf' : 'cr';
      if (eol === undefined) eol = kind;
      else if (eol !== kind) return 'mixed line breaks';
      if (kind === 'crlf') { fieldStart = true; continue; }
    }
    if (pending) {
      pending = false;
      if (c === 0x22) continue;
      quoted = false;
      if (c !== 0x2c && c !== 0x0a && c !== 0x0d) return 'text after a closing quote';
    }
    if (quoted) {
      if (c === 0x22) pending = true;
      continue;
    }
    if (c === 0x22) {
      if (!fieldStart) return 'a quote inside an unquoted cell';
      quoted = true;
      fieldStart = false;
      continue;
    }
    if (c === 0x0d) crPending = true;
    else if (c === 0x0a) {
      if (eol === undefined) eol = 'lf';
      else if (eol !== 'lf') return 'mixed line breaks';
    }
    fieldStart = c === 0x2c || c === 0x0a || c === 0x0d;
  }
  if (crPending && eol !== undefined && eol !== 'cr') return 'mixed line breaks';
  if (quoted && !pending) return 'a quote left open';
  return undefined;
}

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chunked(bytes: Buffer, rnd: () => number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = 1 + Math.floor(rnd() * 12);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

describe('sameSplitInChunks', () => {
  it('agrees with the byte-by-byte rules on 30,000 random small files, each read in random chunks and whole', async () => {
    const rnd = random(7);
    const alphabet = ['a', 'b', ',', ',', '"', '"', '"', '\n', '\n', '\r'];
    const seen = new Map<string | undefined, number>();
    for (let k = 0; k < 30_000; k++) {
      // Files with no CR take the quote-to-quote path, so most cases have none.
      const letters = k % 3 === 0 ? alphabet : alphabet.filter((c) => c !== '\r');
      const len = Math.floor(rnd() * 30);
      const bytes = Buffer.from(Array.from({ length: len }, () => letters[Math.floor(rnd() * letters.length)]!).join(''));
      const want = reference(bytes);
      seen.set(want, (seen.get(want) ?? 0) + 1);
      expect(await sameSplitInChunks(chunked(bytes, rnd)), JSON.stringify(bytes.toString())).toBe(want);
      expect(await sameSplitInChunks([bytes]), JSON.stringify(bytes.toString())).toBe(want);
    }
    // Every outcome was exercised many times.
    for (const why of [undefined, 'mixed line breaks', 'text after a closing quote', 'a quote inside an unquoted cell', 'a quote left open']) {
      expect(seen.get(why) ?? 0, String(why)).toBeGreaterThan(300);
    }
  });

  it('reads well-formed quoted CSV with LF or CRLF as the same split, and finds the faults', async () => {
    const good = 'id,name,note\n1,"Smith, J","said ""hi""\nthen left"\n2,,""\n';
    expect(await sameSplitInChunks([Buffer.from(good)])).toBeUndefined();
    expect(await sameSplitInChunks([Buffer.from(good.replaceAll('\n', '\r\n'))])).toBeUndefined();
    expect(await sameSplitInChunks([Buffer.from('a,b"c\n')])).toBe('a quote inside an unquoted cell');
    expect(await sameSplitInChunks([Buffer.from('"a"b,c\n')])).toBe('text after a closing quote');
    expect(await sameSplitInChunks([Buffer.from('a,b\n"c,d\n')])).toBe('a quote left open');
    expect(await sameSplitInChunks([Buffer.from('a,b\r\nc,d\ne\r\n')])).toBe('mixed line breaks');
  });
});
