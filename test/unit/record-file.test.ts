import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RecordFile, RecordFileWriter, type ColumnSpec } from '../../schemas/record-file-format.ts';
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
});
