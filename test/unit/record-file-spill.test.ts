import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RecordFile, RecordFileWriter, type ColumnSpec } from '../../lib/files/record-file-format.ts';
import { SpilledSection, SpillFolder } from '../../lib/files/section-spill.ts';
import { writeSectionSources } from '../../lib/files/sections-file.ts';
import { InMemoryRecordWriter } from '../support/in-memory-record-writer.ts';
import { tempDir } from '../support/tmp.ts';
import { seededRandom } from '../support/chaos.ts';

/**
 * The record file writer spills its sections to temporary files (lib/files/section-spill.ts);
 * its files must be the bytes the in-memory writer it replaced wrote (frozen in
 * test/support/in-memory-record-writer.ts), and its temporary files must never outlive it.
 */

const COLUMNS: ColumnSpec[] = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'price', kind: 'num' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'flood', kind: 'bool' },
  { name: 'rating', kind: 'dict' },
  { name: 'note', kind: 'text' },
];
const ROWS = [
  { uprn: '10', address: '1 HIGH STREET, TOWN', postcode: 'BS1 1AA', price: 250000.5, bedrooms: 3, flood: true, rating: 'C', note: '' },
  { uprn: '200', address: 'FLAT 2, ÉCOLE HOUSE', postcode: 'BS1 1AA', price: null, bedrooms: null, flood: false, rating: null, note: null },
  { uprn: '100000000001', address: null, postcode: null, price: 12_500_000, bedrooms: 0, flood: null, rating: 'A', note: '東京 😀' },
];

const random = seededRandom; // mulberry32: a failure replays

/** `n` rows with nulls in every kind, repeated and fresh dict values, empty, non-ASCII and long (> 1 KiB) text. */
function generated(n: number, seed = 7): Record<string, unknown>[] {
  const r = random(seed);
  let uprn = 1;
  return Array.from({ length: n }, (_, i) => {
    uprn += 1 + Math.floor(r() * 1000);
    const nul = () => r() < 0.1;
    return {
      uprn: i % 3 === 0 ? String(uprn) : uprn,
      address: nul() ? null : r() < 0.01 ? 'LONG '.repeat(300 + Math.floor(r() * 200)) : r() < 0.05 ? '' : `${i} RUE DE L'ÉGLISE, ${Math.floor(r() * 500)} 東京`,
      postcode: nul() ? null : `PC${Math.floor(r() * 3000)}`,
      price: nul() ? null : r() < 0.02 ? -0 : Math.round(r() * 1e8) / 100,
      bedrooms: nul() ? undefined : r() < 0.01 ? 2.7 : Math.floor(r() * 9),
      flood: nul() ? null : r() < 0.05 ? 'true' : r() < 0.5,
      rating: nul() ? undefined : 'ABCDEFG'[Math.floor(r() * 7)],
      note: nul() ? null : r() < 0.3 ? `note ${Math.floor(r() * 100)} ☃` : '',
    };
  });
}

const dir = () => {
  const t = tempDir('pi-spill-test-');
  onTestFinished(t.cleanup);
  return t.dir;
};

/** The reference: the file the in-memory writer writes. */
function reference(rows: Record<string, unknown>[], columns = COLUMNS): Buffer {
  const path = join(dir(), 'ref.bin');
  const w = new InMemoryRecordWriter(columns, rows.length);
  for (const r of rows) w.add(r);
  w.finish(path);
  return readFileSync(path);
}

interface Way {
  bufferBytes?: number;
  /** Batch size for addColumns; undefined: add row by row. */
  batch?: number;
  /** Numeric columns as Float64Arrays (NaN for null), as the stage passes them. */
  typed?: boolean;
}

/** The file the spilling writer writes, with its spill folder checked empty afterwards. */
function spilled(rows: Record<string, unknown>[], way: Way, columns = COLUMNS): Buffer {
  const base = dir();
  const spillDir = join(base, 'spill');
  mkdirSync(spillDir);
  const w = new RecordFileWriter(columns, rows.length, { spillDir, bufferBytes: way.bufferBytes });
  if (way.batch === undefined) for (const r of rows) w.add(r);
  else {
    for (let at = 0; at < rows.length; at += way.batch) {
      const part = rows.slice(at, at + way.batch);
      const values = columns.map((c) => {
        const vs = part.map((r) => r[c.name]);
        return way.typed && (c.kind === 'num' || c.kind === 'small') ? Float64Array.from(vs, (v) => (v === null || v === undefined ? NaN : Number(v))) : vs;
      });
      w.addColumns(part.length, part.map((r) => r.uprn), values);
    }
  }
  w.finish(join(base, 'out.bin'));
  expect(readdirSync(spillDir)).toEqual([]);
  return readFileSync(join(base, 'out.bin'));
}

const WAYS: Array<[string, Way]> = [
  ['row by row, 64-byte buffers', { bufferBytes: 64 }],
  ['row by row, default buffers', {}],
  ['columns of 1,000, 64-byte buffers', { batch: 1000, bufferBytes: 64 }],
  ['columns of 2,048 typed, 1 KiB buffers', { batch: 2048, typed: true, bufferBytes: 1024 }],
  ['columns of 7, 72-byte buffers', { batch: 7, bufferBytes: 72 }],
];

describe('record file writer spilling to temporary files', () => {
  it.each(WAYS)('writes the in-memory writer\'s bytes for the hand-written rows: %s', (_, way) => {
    expect(spilled(ROWS, way).equals(reference(ROWS))).toBe(true);
    expect(spilled([], way).equals(reference([]))).toBe(true);
  });

  it('writes the in-memory writer\'s bytes for 50,000 generated rows, in every way', () => {
    const rows = generated(50_000);
    const want = reference(rows);
    for (const [name, way] of WAYS) expect(spilled(rows, way).equals(want), name).toBe(true);
    // The generated rows did reach every branch: nulls in every column, long text, both dictionaries.
    const f = new RecordFile(want, 'generated');
    for (const c of COLUMNS) expect(rows.some((r) => f.get(Number(r.uprn))![c.name] === null), c.name).toBe(true);
    expect(rows.some((r) => String(r.address).length > 1024)).toBe(true);
  });

  it.each([0xfffe, 0xffff, 0x10000])('writes the same dictionary codes at %i distinct values (16-bit below 0xffff, else 32-bit)', (distinct) => {
    const columns: ColumnSpec[] = [{ name: 'postcode', kind: 'dict' }, { name: 'price', kind: 'num' }];
    // Every value once in a shuffled order (first-seen order is not sorted order), then again, and some nulls.
    const r = random(distinct);
    const values = Array.from({ length: distinct }, (_, i) => `P${i}`);
    for (let i = values.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [values[i], values[j]] = [values[j]!, values[i]!];
    }
    const rows = [...values, ...values.slice(0, 5000), null, null].map((postcode, i) => ({ uprn: i + 1, postcode, price: i }));
    const want = reference(rows, columns);
    const file = new RecordFile(want, 'dict');
    expect(file.get(1)).toEqual({ uprn: 1, postcode: values[0], price: 0 });
    expect(spilled(rows, { bufferBytes: 64 }, columns).equals(want)).toBe(true);
    expect(spilled(rows, { batch: 4096, bufferBytes: 64 }, columns).equals(want)).toBe(true);
  });

  describe('temporary files', () => {
    function spillingWriter(n: number) {
      const spillDir = dir();
      const w = new RecordFileWriter(COLUMNS, n, { spillDir, bufferBytes: 64 });
      return { w, spillDir };
    }

    it('are in a folder of the spill dir while rows are added, and gone after finish', () => {
      const rows = generated(2000);
      const { w, spillDir } = spillingWriter(rows.length);
      for (const r of rows) w.add(r);
      const [folder] = readdirSync(spillDir);
      expect(folder).toMatch(/^\.record-file-spill-/);
      expect(readdirSync(join(spillDir, folder!)).length).toBeGreaterThan(5);
      w.finish(join(dir(), 'out.bin'));
      expect(readdirSync(spillDir)).toEqual([]);
    });

    it('are gone after a wrong row count, with the error as before, and the writer refuses more', () => {
      const rows = generated(2000);
      const { w, spillDir } = spillingWriter(rows.length + 1);
      for (const r of rows) w.add(r);
      expect(readdirSync(spillDir)).toHaveLength(1);
      const out = join(dir(), 'out.bin');
      expect(() => w.finish(out)).toThrow(/expected 2001 rows, got 2000/);
      expect(readdirSync(spillDir)).toEqual([]);
      expect(existsSync(out)).toBe(false);
      expect(() => w.add({ uprn: 1e15 })).toThrow(/finished or discarded/);
      expect(readdirSync(spillDir)).toEqual([]);
    });

    it('are gone after unsorted or repeated uprns, row by row or column-wise, with the errors as before', () => {
      const rows = generated(2000);
      const a = spillingWriter(rows.length);
      for (const r of rows.slice(0, 1500)) a.w.add(r);
      expect(readdirSync(a.spillDir)).toHaveLength(1);
      expect(() => a.w.add({ uprn: rows[1499]!.uprn })).toThrow(`record file rows must be sorted by distinct uprn (row 1500, uprn ${Number(rows[1499]!.uprn)})`);
      expect(readdirSync(a.spillDir)).toEqual([]);

      const b = spillingWriter(rows.length);
      const columns = (part: Record<string, unknown>[]) => COLUMNS.map((c) => part.map((r) => r[c.name]));
      b.w.addColumns(1500, rows.map((r) => r.uprn), columns(rows.slice(0, 1500)));
      expect(readdirSync(b.spillDir)).toHaveLength(1);
      const back = [rows[1500]!.uprn, rows[1400]!.uprn];
      expect(() => b.w.addColumns(2, back, columns(rows.slice(1500, 1502)))).toThrow(/sorted by distinct uprn \(row 1501, uprn /);
      expect(readdirSync(b.spillDir)).toEqual([]);
    });

    it('are gone after discard, which may be called any number of times', () => {
      const rows = generated(2000);
      const { w, spillDir } = spillingWriter(rows.length);
      for (const r of rows) w.add(r);
      expect(readdirSync(spillDir)).toHaveLength(1);
      w.discard();
      w.discard();
      expect(readdirSync(spillDir)).toEqual([]);
      expect(() => w.finish(join(dir(), 'out.bin'))).toThrow(/finished or discarded/);
    });

    it('are never made for a writer whose rows fit its buffers', () => {
      const spillDir = dir();
      const w = new RecordFileWriter(COLUMNS, ROWS.length, { spillDir });
      for (const r of ROWS) w.add(r);
      expect(readdirSync(spillDir)).toEqual([]);
      w.finish(join(dir(), 'out.bin'));
      expect(readdirSync(spillDir)).toEqual([]);
    });
  });

  it('holds the same bytes, bounded by its buffers, at 10,000 and 200,000 rows', () => {
    const bufferBytes = 4096;
    const held = (n: number) => {
      const w = new RecordFileWriter(COLUMNS, n, { spillDir: dir(), bufferBytes });
      const batch = 1000;
      let most = 0;
      for (let at = 0; at < n; at += batch) {
        const part: Record<string, unknown>[] = generated(Math.min(batch, n - at), at + 1).map((r, k) => ({ ...r, uprn: at + k + 1 }));
        w.addColumns(part.length, part.map((r) => r.uprn), COLUMNS.map((c) => part.map((r) => r[c.name])));
        most = Math.max(most, w.heldBytes());
      }
      w.discard();
      return most;
    };
    const small = held(10_000);
    const large = held(200_000);
    // uprn, then per column one section (num, small, bool, dict) or three (text).
    const sections = 1 + COLUMNS.reduce((k, c) => k + (c.kind === 'text' ? 3 : 1), 0);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(sections * bufferBytes);
  });
});

describe('spilled sections', () => {
  it('give back every value in order, in pieces no larger than their buffer, text longer than the buffer included', () => {
    const folder = new SpillFolder(dir());
    onTestFinished(() => folder.remove());
    const s = new SpilledSection(folder, 'bytes', 'u8', 16);
    const texts = ['', 'abc', 'x'.repeat(40), 'é', '😀'.repeat(9), 'tail'];
    let total = 0;
    for (const t of texts) total += s.pushText(t);
    const want = Buffer.from(texts.join(''), 'utf8');
    expect(total).toBe(want.length);
    expect(s.length).toBe(want.length);
    const pieces: Buffer[] = [];
    s.forEachPiece((p) => {
      expect(p.byteLength).toBeLessThanOrEqual(16);
      pieces.push(Buffer.from(new Uint8Array(p.buffer, p.byteOffset, p.byteLength))); // a copy: the views are reused
    });
    expect(Buffer.concat(pieces).equals(want)).toBe(true);

    const f = new SpilledSection(folder, 'f32', 'f32', 24);
    const nums = Float64Array.from({ length: 100 }, (_, i) => i / 3);
    f.pushAll(nums, 50);
    for (let i = 50; i < 100; i++) f.push(nums[i]!);
    const back: number[] = [];
    f.forEachPiece((p) => back.push(...p));
    expect(back).toEqual([...Float32Array.from(nums)]);
  });

  it('refuse a buffer size that is not a positive multiple of 8', () => {
    expect(() => new RecordFileWriter(COLUMNS, 1, { bufferBytes: 12 })).toThrow(/multiple of 8/);
    expect(() => new RecordFileWriter(COLUMNS, 1, { bufferBytes: 0 })).toThrow(/multiple of 8/);
  });

  it('a section writing other than its declared bytes fails the file, and the partial file is removed', () => {
    const path = join(dir(), 'bad.bin');
    const source = (name: string, length: number, bytes: number) => ({ name, type: 'u32' as const, length, write: (emit: (b: Uint8Array) => void) => emit(new Uint8Array(bytes)) });
    expect(() => writeSectionSources(path, 'TESTFILE', {}, [source('a', 2, 8), source('b', 3, 8)])).toThrow('section b wrote 8 bytes, its header says 12');
    expect(existsSync(path)).toBe(false);
    expect(writeSectionSources(path, 'TESTFILE', {}, [source('a', 2, 8)])).toBe(readFileSync(path).length);
  });
});
