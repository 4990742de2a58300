import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RecordFile, RecordFileWriter, type ColumnSpec, type DictCodes } from '../../lib/files/record-file-format.ts';
import { tempDir } from '../support/tmp.ts';

const COLUMNS: ColumnSpec[] = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'price', kind: 'num' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'flood', kind: 'bool' },
];
const ROWS = [
  { uprn: '10', address: '1 HIGH STREET, TOWN', postcode: 'BS1 1AA', price: 250000.5, bedrooms: 3, flood: true },
  { uprn: '200', address: 'FLAT 2, ÉCOLE HOUSE', postcode: 'BS1 1AA', price: null, bedrooms: null, flood: false },
  { uprn: '100000000001', address: null, postcode: null, price: 12_500_000, bedrooms: 0, flood: null },
];

function write(rows: Record<string, unknown>[], columns = COLUMNS): string {
  const { dir, cleanup } = tempDir('pi-records-');
  onTestFinished(cleanup);
  const path = join(dir, 'r.bin');
  const w = new RecordFileWriter(columns, rows.length);
  for (const r of rows) w.add(r);
  w.finish(path);
  return path;
}
const open = (path: string) => new RecordFile(readFileSync(path), path);

describe('record file', () => {
  it('round-trips every kind, nulls included, and finds rows by uprn', () => {
    const f = open(write(ROWS));
    expect(f.n).toBe(3);
    expect(f.get(10)).toEqual({ uprn: 10, address: '1 HIGH STREET, TOWN', postcode: 'BS1 1AA', price: 250000.5, bedrooms: 3, flood: true });
    expect(f.get(200)).toEqual({ uprn: 200, address: 'FLAT 2, ÉCOLE HOUSE', postcode: 'BS1 1AA', price: null, bedrooms: null, flood: false });
    expect(f.get(100000000001)).toEqual({ uprn: 100000000001, address: null, postcode: null, price: 12_500_000, bedrooms: 0, flood: null });
  });

  it('answers undefined for uprns before, between and after the stored ones', () => {
    const f = open(write(ROWS));
    for (const u of [1, 11, 199, 201, 999999999999]) expect(f.get(u)).toBeUndefined();
    expect(open(write([])).get(10)).toBeUndefined();
  });

  it('keeps dictionaries past 65,535 distinct values (32-bit codes)', () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => ({ uprn: i + 1, postcode: `P${i}` }));
    const f = open(write(rows, [{ name: 'postcode', kind: 'dict' }]));
    expect(f.get(1)).toEqual({ uprn: 1, postcode: 'P0' });
    expect(f.get(70_000)).toEqual({ uprn: 70_000, postcode: 'P69999' });
  });

  it('refuses rows out of uprn order, duplicates, and a count that differs from the one declared', () => {
    const w = new RecordFileWriter(COLUMNS, 2);
    w.add({ uprn: 5 });
    expect(() => w.add({ uprn: 5 })).toThrow(/sorted by distinct uprn/);
    expect(() => w.add({ uprn: 4 })).toThrow(/sorted by distinct uprn/);
    expect(() => w.finish('/nonexistent/x.bin')).toThrow(/expected 2 rows, got 1/);
    const full = new RecordFileWriter(COLUMNS, 1);
    full.add({ uprn: 1 });
    expect(() => full.add({ uprn: 2 })).toThrow(/more rows than the 1 counted/);
  });

  it('rejects a file of another kind and a truncated file, naming the path', () => {
    const path = write(ROWS);
    const bytes = readFileSync(path);
    writeFileSync(path + '.x', Buffer.concat([Buffer.from('NOTAFILE'), bytes.subarray(8)]));
    expect(() => open(path + '.x')).toThrow(/r\.bin\.x is not a record file/);
    writeFileSync(path + '.t', bytes.subarray(0, bytes.length - 40));
    expect(() => open(path + '.t')).toThrow(/is truncated/);
  });

  describe('column-wise (addColumns)', () => {
    // Awkward rows: nulls and undefined, an empty string (not null), non-ASCII text (accents,
    // CJK, a character outside the BMP), dict values repeated across batches, bigint and
    // string uprns and prices, a string 'true', a Float32 rounding, NaN in a typed array.
    const awkward: Record<string, unknown>[] = [
      { uprn: 3n, address: '', postcode: 'Z9 9ZZ', price: 100n, bedrooms: 2.7, flood: 'true' },
      { uprn: '7', address: 'ÉCOLE, 東京 😀', postcode: '', price: '12.25', bedrooms: undefined, flood: 'false' },
      { uprn: 8, address: undefined, postcode: 'Z9 9ZZ', price: NaN, bedrooms: 1e-9, flood: true },
      { uprn: 9, address: 'x'.repeat(300), postcode: 'Ä1 1AA', price: -0.5, bedrooms: 65_536.5, flood: undefined },
      { uprn: 100_000_000_000, address: 'Ω', postcode: 'A1 1AA', price: 1e300, bedrooms: 0, flood: false },
      { uprn: 100_000_000_001, address: null, postcode: 'Z9 9ZZ', price: null, bedrooms: null, flood: null },
    ];
    const rowWise = (rows: Record<string, unknown>[]) => readFileSync(write(rows));
    /** How a batch's column is handed to addColumns. */
    type ColumnAs = (c: ColumnSpec, vs: unknown[]) => ArrayLike<unknown> | DictCodes;
    // A numeric column as a typed array with NaN for null, as the stage passes it.
    const typedNumbers: ColumnAs = (c, vs) => (c.kind === 'num' || c.kind === 'small' ? Float64Array.from(vs, (v) => (v === null || v === undefined ? NaN : Number(v))) : vs);
    function columnWise(rows: Record<string, unknown>[], batches: number[], as: ColumnAs = (_, vs) => vs): Buffer {
      const { dir, cleanup } = tempDir('pi-records-');
      onTestFinished(cleanup);
      const path = join(dir, 'c.bin');
      const w = new RecordFileWriter(COLUMNS, rows.length);
      let at = 0;
      for (const size of batches) {
        const part = rows.slice(at, at + size);
        at += size;
        w.addColumns(size, part.map((r) => r.uprn), COLUMNS.map((c) => as(c, part.map((r) => r[c.name]))));
      }
      w.finish(path);
      return readFileSync(path);
    }

    it('writes the same bytes as row by row, in one batch or several, plain or typed arrays', () => {
      const want = rowWise(awkward);
      expect(columnWise(awkward, [6]).equals(want)).toBe(true);
      expect(columnWise(awkward, [1, 0, 3, 2]).equals(want)).toBe(true);
      expect(columnWise(awkward, [2, 4], typedNumbers).equals(want)).toBe(true);
      // Against hand-written expectations too, not only the row-wise writer.
      const f = new RecordFile(want, 'awkward');
      expect(f.get(7)).toEqual({ uprn: 7, address: 'ÉCOLE, 東京 😀', postcode: '', price: 12.25, bedrooms: null, flood: false });
      expect(f.get(3)).toEqual({ uprn: 3, address: '', postcode: 'Z9 9ZZ', price: 100, bedrooms: Math.fround(2.7), flood: true });
      expect(f.get(8)).toMatchObject({ address: null, price: null });
      expect(f.get(100_000_000_001)).toEqual({ uprn: 100_000_000_001, address: null, postcode: 'Z9 9ZZ', price: null, bedrooms: null, flood: null });
    });

    it('keeps 32-bit dictionary codes and many batches identical to row by row', () => {
      const rows = Array.from({ length: 70_000 }, (_, i) => ({ uprn: i + 1, address: i % 7 === 0 ? null : `${i} RUE DE L'ÉGLISE`, postcode: `P${i % 69_000}`, price: i % 5 === 0 ? null : i * 1.5, bedrooms: i % 9, flood: i % 3 === 0 ? null : i % 2 === 0 }));
      const cols = [{ name: 'postcode', kind: 'dict' }, ...COLUMNS.filter((c) => c.name !== 'postcode')] as ColumnSpec[];
      const { dir, cleanup } = tempDir('pi-records-');
      onTestFinished(cleanup);
      const ref = new RecordFileWriter(cols, rows.length);
      for (const r of rows) ref.add(r);
      ref.finish(join(dir, 'ref.bin'));
      const w = new RecordFileWriter(cols, rows.length);
      for (let at = 0; at < rows.length; at += 2048) {
        const part = rows.slice(at, at + 2048);
        w.addColumns(part.length, part.map((r) => r.uprn), cols.map((c) => part.map((r) => (r as Record<string, unknown>)[c.name])));
      }
      w.finish(join(dir, 'col.bin'));
      expect(readFileSync(join(dir, 'col.bin')).equals(readFileSync(join(dir, 'ref.bin')))).toBe(true);
    });

    it('refuses unsorted or repeated uprns across batches, too many rows, and short columns', () => {
      const empty = (n: number) => COLUMNS.map(() => new Array(n).fill(null));
      const w = new RecordFileWriter(COLUMNS, 4);
      w.addColumns(2, [1, 5], empty(2));
      expect(() => w.addColumns(1, [5], empty(1))).toThrow(/sorted by distinct uprn \(row 2, uprn 5\)/);
      expect(() => new RecordFileWriter(COLUMNS, 4).addColumns(2, [2, 1], empty(2))).toThrow(/sorted by distinct uprn \(row 1/);
      expect(() => new RecordFileWriter(COLUMNS, 1).addColumns(2, [1, 2], empty(2))).toThrow(/more rows than the 1 counted/);
      expect(() => new RecordFileWriter(COLUMNS, 2).addColumns(2, [1, 2], empty(1))).toThrow(/fewer than the 2 rows/);
      expect(() => new RecordFileWriter(COLUMNS, 2).addColumns(2, [1, 2], empty(2).slice(1))).toThrow(/expected 5 columns/);
    });

    describe('a dict column given as codes (DictCodes)', () => {
      /**
       * The postcode column coded into `dict` (0 null, else 1 + index); the dictionary a fresh
       * array per batch when `freshDict` (a caller that does not keep one array gets the same
       * file, only slower).
       */
      const coded = (dict: string[], freshDict = false): ColumnAs => (c, vs) => {
        if (c.name !== 'postcode') return vs;
        const codes = Float64Array.from(vs, (v) => (v === null || v === undefined ? 0 : dict.indexOf(String(v)) + 1));
        return { codes, dict: freshDict ? [...dict] : dict };
      };
      // Every postcode of the awkward rows and two that none has, in an order of their own.
      const dict = ['A1 1AA', 'UNUSED', 'Z9 9ZZ', '', 'Ä1 1AA', 'ALSO UNUSED'];

      it('writes the bytes the strings write, in one batch or several, whatever the dictionary order', () => {
        const want = rowWise(awkward);
        // The same bytes: so the values the rows never use ('UNUSED') stay out of the file's dictionary.
        expect(columnWise(awkward, [6], coded(dict)).equals(want)).toBe(true);
        expect(columnWise(awkward, [1, 0, 3, 2], coded([...dict].reverse())).equals(want)).toBe(true);
        expect(columnWise(awkward, [2, 4], coded(dict, true)).equals(want)).toBe(true);
      });

      it('refuses a code outside its dictionary, a fraction, and codes for a column that is not dict', () => {
        const part = awkward.slice(0, 2);
        const cols = (postcode: unknown, price: unknown = part.map((r) => r.price)) => COLUMNS.map((c) => (c.name === 'postcode' ? postcode : c.name === 'price' ? price : part.map((r) => r[c.name]))) as ArrayLike<unknown>[];
        const add = (postcode: unknown, price?: unknown) => new RecordFileWriter(COLUMNS, 2).addColumns(2, part.map((r) => r.uprn), cols(postcode, price));
        expect(() => add({ codes: [1, 3], dict: ['x', 'y'] })).toThrow(/dictionary code 3 is outside 0\.\.2/);
        expect(() => add({ codes: [1, -1], dict: ['x'] })).toThrow(/dictionary code -1 is outside/);
        expect(() => add({ codes: [1.5, 0], dict: ['x', 'y'] })).toThrow(/dictionary code 1.5 is outside/);
        expect(() => add({ codes: [1], dict: ['x'] })).toThrow(/fewer than the 2 rows/);
        expect(() => add(part.map((r) => r.postcode), { codes: [0, 0], dict: [] })).toThrow(/column price is num, not dict/);
      });
    });
  });
});

