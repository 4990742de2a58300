import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { writeLookupFile } from '../../../etl/stages/30-serving/write-lookup-file.ts';
import { BlockCache } from '../../../lib/files/block-file.ts';
import { KeyedRowsFile } from '../../../lib/files/keyed-rows-file.ts';
import { LOOKUP_FILES } from '../../../lib/files/lookup-tables-format.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir();
let db: DuckDBInstance;
afterAll(() => {
  db?.closeSync();
  tmp.cleanup();
});

/** A build context over an in-memory database holding only `postcodes`, made by `rows` (SQL VALUES). */
async function contextWith(name: string, postcodeType: string, rows: string): Promise<BuildContext> {
  const conn = await db.connect();
  await conn.run(`CREATE OR REPLACE TABLE postcodes AS SELECT * FROM (VALUES ${rows}) t(postcode, outcode, sector, lat, lng, country, la_code, ward, terminated, date_terminated, address_count, median_price_5y, sales_5y, source)`);
  if (postcodeType !== 'VARCHAR') await conn.run(`ALTER TABLE postcodes ALTER address_count TYPE ${postcodeType}`);
  return { db, conn, buildDir: join(tmp.dir), artifacts: {}, log: quietLog, buildId: name } as unknown as BuildContext;
}

const row = (pc: string | null, count = '3') => `(${pc === null ? 'NULL' : `'${pc}'`}, 'BS1', 'BS1 4', 51.5::DOUBLE, -2.6::DOUBLE, 'England', 'E06000023', NULL, false, DATE '2020-01-31', ${count}, 250000.5::DOUBLE, 4::BIGINT, 'onspd')`;

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
});

describe('writeLookupFile: a lookup table as its keyed-rows file', () => {
  it('ASCII keys in DuckDB\'s order are JavaScript\'s: written, every row read back as the query gave it; a row without a key left out', async () => {
    // Upper and lower case, digits, space and punctuation sort alike in both (byte order = code units for ASCII).
    const keys = ['bs1 1aa', 'BS1 1AA', 'BS10 1AA', 'BS1 10A', 'B1 1AA', 'Z', 'a', '~', ' ', '0'];
    const ctx = await contextWith('ascii', 'INTEGER', [...keys.map((k) => row(k)), row(null)].join(', '));
    const { rows } = await writeLookupFile(ctx, LOOKUP_FILES.postcodes);
    expect(rows).toBe(keys.length);
    expect(ctx.artifacts.lookup_postcodes?.file).toBe(LOOKUP_FILES.postcodes.file);
    const f = KeyedRowsFile.open(join(tmp.dir, LOOKUP_FILES.postcodes.file), new BlockCache(1 << 16));
    try {
      expect([...f.scan()].map((r) => r.postcode)).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      expect(f.first('BS1 1AA')).toEqual({
        postcode: 'BS1 1AA', outcode: 'BS1', sector: 'BS1 4', lat: 51.5, lng: -2.6, country: 'England', la_code: 'E06000023', ward: null,
        terminated: false, date_terminated: '2020-01-31', address_count: 3, median_price_5y: 250000.5, sales_5y: 4, source: 'onspd',
      });
    } finally {
      f.close();
    }
  });

  it('a key outside ASCII is a clear error naming it, not a file in another order', async () => {
    const ctx = await contextWith('unicode', 'INTEGER', [row('BS1 1AA'), row('ÉS1 1AA')].join(', '));
    await expect(writeLookupFile(ctx, LOOKUP_FILES.postcodes)).rejects.toThrow(/key postcode "ÉS1 1AA" is not ASCII/);
  });

  it('a value not of its column\'s kind is a clear error naming the column', async () => {
    const ctx = await contextWith('bad-kind', 'VARCHAR', [row('BS1 1AA', "'three'")].join(', '));
    await expect(writeLookupFile(ctx, LOOKUP_FILES.postcodes)).rejects.toThrow(/lookup_postcode_rows: column address_count has string three, not num/);
  });
});
