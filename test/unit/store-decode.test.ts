import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeColumns, rowsFromColumns, StoreDecodeError, type ResultDecl } from '../../service/store/decode.ts';

/**
 * The store's decoder on values DuckDB itself made (a real in-memory connection, the JS form
 * BuildStore reads): each kind, NULLs, wrong types and missing or extra columns. Expected values
 * are written out by hand from the SQL literals.
 */

let db: DuckDBInstance;
let conn: DuckDBConnection;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
});
afterAll(() => {
  conn.closeSync();
  db.closeSync();
});

async function decode(sql: string, decl: ResultDecl) {
  const r = await conn.runAndReadAll(sql);
  return decodeColumns('t', decl, r.columnNames(), r.getColumnsJS());
}

describe('decodeColumns: each kind', () => {
  it('string, int (INTEGER, BIGINT, HUGEINT), float, bigint-as-string, date (DATE and ISO VARCHAR), bool', async () => {
    const cols = await decode(
      `SELECT 'BS1 4DJ' AS s, 7::INTEGER AS i, 100000000001::BIGINT AS big, sum(x)::HUGEINT AS huge, 2.5::DOUBLE AS f, 0.5::FLOAT AS f32,
              100000000001::BIGINT AS key, DATE '2025-09-30' AS d, '2024-02-29' AS dtext, true AS b
       FROM (VALUES (1), (2)) v(x)`,
      { columns: { s: 'string', i: 'int', big: 'int', huge: 'int', f: 'float', f32: 'float', key: 'bigint-as-string', d: 'date', dtext: 'date', b: 'bool' } },
    );
    expect(cols).toEqual({
      s: ['BS1 4DJ'], i: [7], big: [100000000001], huge: [3], f: [2.5], f32: [0.5], key: ['100000000001'], d: ['2025-09-30'], dtext: ['2024-02-29'], b: [true],
    });
  });

  it('rows in the result column order, the same values', async () => {
    const cols = await decode(`SELECT * FROM (VALUES (2, 'b'), (1, 'a')) v(n, t)`, { columns: { t: 'string', n: 'int' } });
    expect(rowsFromColumns(cols)).toEqual([{ n: 2, t: 'b' }, { n: 1, t: 'a' }]);
    expect(Object.keys(rowsFromColumns<object>(cols)[0]!)).toEqual(['n', 't']);
  });

  it('a prefixed family of columns, each of its kind', async () => {
    const cols = await decode(`SELECT 'x' AS id, true AS has_wifi, NULL::BOOLEAN AS has_pool`, { columns: { id: 'string' }, prefixed: { prefix: 'has_', kind: 'bool?' } });
    expect(cols).toEqual({ id: ['x'], has_wifi: [true], has_pool: [null] });
  });

  it('NaN and infinities stay what they are in a float column', async () => {
    const cols = await decode(`SELECT 'nan'::DOUBLE AS a, 'inf'::DOUBLE AS b`, { columns: { a: 'float', b: 'float' } });
    expect(Number.isNaN(cols.a![0])).toBe(true);
    expect(cols.b).toEqual([Infinity]);
  });
});

describe('decodeColumns: NULLs', () => {
  it('a NULL stays null where the kind is nullable, for every kind (never 0 or "")', async () => {
    const cols = await decode(
      `SELECT NULL::VARCHAR AS s, NULL::INTEGER AS i, NULL::DOUBLE AS f, NULL::BIGINT AS k, NULL::DATE AS d, NULL::BOOLEAN AS b`,
      { columns: { s: 'string?', i: 'int?', f: 'float?', k: 'bigint-as-string?', d: 'date?', b: 'bool?' } },
    );
    expect(cols).toEqual({ s: [null], i: [null], f: [null], k: [null], d: [null], b: [null] });
  });

  it('a NULL where the kind is not nullable is an error naming the query, the column and the row', async () => {
    for (const [type, kind] of [['VARCHAR', 'string'], ['INTEGER', 'int'], ['DOUBLE', 'float'], ['BIGINT', 'bigint-as-string'], ['DATE', 'date'], ['BOOLEAN', 'bool']] as const) {
      const err = await decode(`SELECT * FROM (VALUES (NULL::${type}), (NULL)) v(c)`, { columns: { c: kind } }).catch((e: unknown) => e);
      expect(err, kind).toBeInstanceOf(StoreDecodeError);
      expect((err as Error).message).toBe(`store query t, column c: NULL in row 0, declared ${kind} (not nullable)`);
    }
  });

  it('a column absent in an older build reads as null only where declared so and nullable', async () => {
    expect(await decode(`SELECT 'E06000023' AS la_code`, { columns: { la_code: 'string', source: 'string?' }, absentInOlderBuilds: ['source'] }))
      .toEqual({ la_code: ['E06000023'], source: [null] });
    await expect(decode(`SELECT 'E06000023' AS la_code`, { columns: { la_code: 'string', source: 'string' }, absentInOlderBuilds: ['source'] }))
      .rejects.toThrow('store query t, column source: declared string but not in the result');
  });
});

describe('decodeColumns: wrong types and columns', () => {
  const cases: [string, string, string][] = [
    ['42', 'string', 'number 42 in row 0 is not string'],
    [`'7'`, 'int', 'string "7" in row 0 is not int'],
    ['2.5', 'int', 'number 2.5 in row 0 is not int'],
    [(2n ** 60n).toString(), 'int', `bigint ${2n ** 60n}n in row 0 is not int`],
    [`'2.5'`, 'float', 'string "2.5" in row 0 is not float'],
    ['7::BIGINT', 'float', 'bigint 7n in row 0 is not float'],
    ['7::INTEGER', 'bigint-as-string', 'number 7 in row 0 is not bigint-as-string'],
    [`'30/09/2025'`, 'date', 'string "30/09/2025" in row 0 is not date'],
    [`TIMESTAMP '2025-09-30 10:00:00'`, 'string', 'Date 2025-09-30T10:00:00.000Z in row 0 is not string'],
    ['1', 'bool', 'number 1 in row 0 is not bool'],
  ];
  for (const [sql, kind, detail] of cases) {
    it(`${sql} declared ${kind}: an error naming the query and column`, async () => {
      await expect(decode(`SELECT ${sql} AS c`, { columns: { c: kind as 'string' } })).rejects.toThrow(`store query t, column c: ${detail}`);
    });
  }

  it('a declared column missing from the result is an error', async () => {
    await expect(decode(`SELECT 1 AS a`, { columns: { a: 'int', b: 'int' } })).rejects.toThrow('store query t, column b: declared int but not in the result');
  });

  it('a result column not declared is an error, unless the declaration ignores extra columns (SELECT * over a published table)', async () => {
    await expect(decode(`SELECT 1 AS a, 2 AS b`, { columns: { a: 'int' } })).rejects.toThrow('store query t, column b: in the result but not declared');
    expect(await decode(`SELECT 1 AS a, 2 AS b`, { columns: { a: 'int' }, extraColumns: 'ignore' })).toEqual({ a: [1] });
  });

  it('an empty result decodes to empty columns (missing columns still an error)', async () => {
    expect(await decode(`SELECT 1 AS a WHERE false`, { columns: { a: 'int' } })).toEqual({ a: [] });
    await expect(decode(`SELECT 1 AS a WHERE false`, { columns: { a: 'int', b: 'float' } })).rejects.toThrow(/column b: declared float but not in the result/);
  });
});
