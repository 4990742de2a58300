/**
 * The packed per-key tables (service/lookups/packed-rows.ts): every column kind gives back
 * exactly the values it was given, rows come back grouped by key in the query's order, and a
 * real DuckDB query's JSON columns round-trip to what `query` returns row by row.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { packColumn, RowsByNumber, RowsByText } from '../../service/lookups/packed-rows.ts';

const identity = (n: number) => Uint32Array.from({ length: n }, (_, i) => i);
const unpack = (values: unknown[]) => {
  const c = packColumn(values, identity(values.length));
  return values.map((_, i) => c.get(i));
};

describe('packed columns', () => {
  it('numbers with nulls, including 0 and negatives, come back exactly', () => {
    const v = [0, null, -3.5, 1e15, undefined, 42];
    expect(unpack(v)).toEqual([0, null, -3.5, 1e15, null, 42]);
  });

  it('booleans with nulls', () => {
    expect(unpack([true, false, null, true])).toEqual([true, false, null, true]);
  });

  it('few distinct strings (a dictionary) and many (one UTF-8 buffer), non-ASCII and empty strings included', () => {
    const few = ['D', 'S', null, 'D', 'é', ''];
    expect(unpack(few)).toEqual(few);
    const many = Array.from({ length: 70_000 }, (_, i) => (i % 7 === 0 ? null : `{${i}-ñ}`));
    expect(unpack(many)).toEqual(many);
  });

  it('a mix of types is kept as given; all nulls stay null', () => {
    expect(unpack([1, 'a', null, true])).toEqual([1, 'a', null, true]);
    expect(unpack([null, null])).toEqual([null, null]);
  });

  it('takes values in the order given', () => {
    const c = packColumn(['a', 'b', 'c'], Uint32Array.from([2, 0, 1]));
    expect([0, 1, 2].map((i) => c.get(i))).toEqual(['c', 'a', 'b']);
  });
});

describe('RowsByNumber', () => {
  const cols = {
    uprn: [5, 3, 5, null, 3, 9, 5],
    id: ['e', 'b', 'f', 'x', 'a', 'z', 'g'],
    price: [500, 300, 501, 0, 299, 900, null],
  };
  const rows = RowsByNumber.fromColumns(cols, 'uprn');

  it('gives each key its rows in the order they came, without the key column; rows without a key are dropped', () => {
    // Computed from the columns directly: the rows whose uprn is k, in input order.
    for (const k of [3, 5, 9]) {
      const want = cols.uprn.flatMap((u, i) => (u === k ? [{ id: cols.id[i], price: cols.price[i] }] : []));
      expect(rows.get(k)).toEqual(want);
    }
    expect(rows.size).toBe(6);
  });

  it('an absent key (below, between and above the keys) has no rows', () => {
    for (const k of [1, 4, 10]) expect(rows.get(k)).toEqual([]);
  });

  it('a missing key column is an error', () => {
    expect(() => RowsByNumber.fromColumns(cols, 'nope')).toThrow(/no key column nope/);
  });
});

describe('RowsByText', () => {
  const cols = { postcode: ['BS1 4AB', 'AB1 0AA', 'ZE3 9ZZ', null], lat: [51.4, 57.1, null, 1] };
  const table = RowsByText.fromColumns(cols, 'postcode', { unique: true });

  it('finds each key with its row, the key column included', () => {
    expect(table.first('AB1 0AA')).toEqual({ postcode: 'AB1 0AA', lat: 57.1 });
    expect(table.get('BS1 4AB')).toEqual([{ postcode: 'BS1 4AB', lat: 51.4 }]);
    expect(table.first('ZE3 9ZZ')).toEqual({ postcode: 'ZE3 9ZZ', lat: null });
    expect(table.size).toBe(3);
  });

  it('an absent key (below, between, above the keys, empty) has no rows', () => {
    for (const k of ['AA1 1AA', 'BS1 4AC', 'ZZ9 9ZZ', '']) {
      expect(table.get(k)).toEqual([]);
      expect(table.first(k)).toBeUndefined();
    }
  });

  it('several rows per key come back in the order they came; with unique, a repeated key is an error', () => {
    const months = { key: ['s:B:D', 's:A:F', 's:B:D', 's:A:F', 's:B:D'], month: ['2024-03', '2024-01', '2024-01', '2024-02', '2024-02'] };
    const t = RowsByText.fromColumns(months, 'key');
    // Computed from the columns directly: the rows of each key, in input order.
    for (const k of ['s:A:F', 's:B:D']) expect(t.get(k)).toEqual(months.key.flatMap((x, i) => (x === k ? [{ key: k, month: months.month[i] }] : [])));
    expect(() => RowsByText.fromColumns({ postcode: ['A', 'B', 'A'] }, 'postcode', { unique: true })).toThrow(/postcode A appears twice/);
  });
});

describe('against DuckDB', () => {
  it('the JSON columns of a query, packed, give the same rows as the query per key', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const sql = `SELECT (i % 97)::DOUBLE AS uprn, 'T' || i AS transaction_id, (i * 7919 % 100000)::INTEGER AS price,
        (DATE '2015-01-01' + (i % 3000)::INTEGER)::VARCHAR AS date, i % 5 = 0 AS new_build,
        CASE WHEN i % 11 = 0 THEN NULL ELSE ['D', 'S', 'T', 'F'][1 + i % 4] END AS property_type,
        (i * 1.5)::DOUBLE AS area, i::BIGINT AS big
      FROM range(5000) t(i) ORDER BY uprn, price DESC, transaction_id`;
    const cols = (await conn.runAndReadAll(sql)).getColumnsObjectJson() as Record<string, unknown[]>;
    const table = RowsByNumber.fromColumns(cols, 'uprn');
    for (const k of [0, 1, 50, 96]) {
      const want = (await conn.runAndReadAll(`SELECT * EXCLUDE (uprn) FROM (${sql}) WHERE uprn = ${k}`)).getRowObjectsJson();
      expect(table.get(k)).toEqual(want);
    }
    expect(table.get(97)).toEqual([]);
    conn.closeSync();
    db.closeSync();
  });
});
