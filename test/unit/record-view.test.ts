import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  PROPERTY_RECORD_BASE_COLUMNS, PROPERTY_RECORD_COLUMNS, PROPERTY_RECORD_FLAG_COLUMNS, RecordFile, RecordFileWriter, type ColumnKind, type ColumnSpec,
} from '../../lib/files/record-file-format.ts';
import { missingColumns, pickColumns, RecordColumnsError, recordView } from '../../lib/files/record-view.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { tempDir } from '../support/tmp.ts';

const DECLARED = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'price', kind: 'num' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'flood', kind: 'bool' },
] as const satisfies readonly ColumnSpec[];

function file(columns: readonly ColumnSpec[], rows: Record<string, unknown>[]): RecordFile {
  const { dir, cleanup } = tempDir('pi-record-view-');
  onTestFinished(cleanup);
  const path = join(dir, 'r.bin');
  const w = new RecordFileWriter(columns, rows.length);
  for (const r of rows) w.add(r);
  w.finish(path);
  return new RecordFile(readFileSync(path), path);
}

describe('typed record view (lib/files/record-view.ts)', () => {
  it('reads the declared columns typed, a NULL of every kind as null (never 0, "" or false)', () => {
    const f = file([...DECLARED, { name: 'extra', kind: 'num' }], [
      { uprn: 1, address: '1 HIGH ST', postcode: 'BS1 1AA', price: 0, bedrooms: 0, flood: false, extra: 7 },
      { uprn: 2, address: null, postcode: null, price: null, bedrooms: null, flood: null, extra: null },
    ]);
    const v = recordView(f, DECLARED);
    const zero = v.get(1)!;
    expect(zero).toEqual({ uprn: 1, address: '1 HIGH ST', postcode: 'BS1 1AA', price: 0, bedrooms: 0, flood: false });
    // Typed: a number, not a value to convert.
    const price: number | null = zero.price;
    expect(price).toBe(0);
    expect(v.get(2)).toEqual({ uprn: 2, address: null, postcode: null, price: null, bedrooms: null, flood: null });
    expect(v.get(3)).toBeUndefined();
    // A column the reader did not declare is not read.
    expect('extra' in zero).toBe(false);
  });

  it('a file without a declared column fails when the view is made, naming it (and what the file has instead)', () => {
    const renamed = DECLARED.map((c) => (c.name === 'bedrooms' ? { name: 'beds', kind: c.kind } : c));
    const f = file(renamed, [{ uprn: 1, beds: 2 }]);
    expect(() => recordView(f, DECLARED)).toThrow(RecordColumnsError);
    expect(() => recordView(f, DECLARED)).toThrow(/r\.bin: the record file lacks the column bedrooms \(it has beds besides the declared ones\)/);
    expect(missingColumns(f, DECLARED)).toEqual(['bedrooms']);
    const dropped = file(DECLARED.filter((c) => c.name !== 'price' && c.name !== 'flood'), [{ uprn: 1 }]);
    expect(() => recordView(dropped, DECLARED)).toThrow(/lacks the columns price, flood$/);
  });

  it('a declared column held with another kind fails, naming it and both kinds', () => {
    const f = file(DECLARED.map((c) => (c.name === 'postcode' ? { name: 'postcode', kind: 'text' } : c)), [{ uprn: 1, postcode: 'BS1 1AA' }]);
    try {
      recordView(f, DECLARED);
      expect.unreachable('the view was made');
    } catch (e) {
      expect(e).toBeInstanceOf(RecordColumnsError);
      expect((e as RecordColumnsError).columns).toEqual(['postcode']);
      expect((e as Error).message).toMatch(/holds postcode as text, not dict/);
    }
  });

  it('pickColumns keeps the kinds of the columns named, and refuses a name not among them', () => {
    expect(pickColumns(DECLARED, ['flood', 'address'])).toEqual([{ name: 'flood', kind: 'bool' }, { name: 'address', kind: 'text' }]);
    // @ts-expect-error: not a declared column
    expect(() => pickColumns(DECLARED, ['nope'])).toThrow(/no column nope/);
  });
});

/** The record kinds a contract's DuckDB type may be written as (written out here, not taken from the code). */
const WRITES: Record<string, readonly ColumnKind[]> = {
  VARCHAR: ['dict', 'text'],
  DATE: ['dict'],
  DOUBLE: ['num'],
  BIGINT: ['num'],
  INTEGER: ['num', 'small'],
  BOOLEAN: ['bool'],
};

describe('the property record columns', () => {
  it('are the base columns then the flag columns, in file order', () => {
    expect(PROPERTY_RECORD_COLUMNS.map((c) => c.name)).toEqual([...PROPERTY_RECORD_BASE_COLUMNS, ...PROPERTY_RECORD_FLAG_COLUMNS].map((c) => c.name));
    expect(PROPERTY_RECORD_COLUMNS).toHaveLength(23);
  });

  it("each is a `properties` contract column, with a kind its contract type allows", () => {
    const contract = PUBLISHED_TABLES.find((t) => t.name === 'properties')!;
    const types = new Map(contract.columns.map((c) => [c.name, c.type]));
    for (const c of PROPERTY_RECORD_COLUMNS) {
      expect(types.has(c.name), c.name).toBe(true);
      expect(WRITES[types.get(c.name)!], `${c.name} ${types.get(c.name)}`).toContain(c.kind);
    }
  });
});
