import { afterAll, describe, expect, it } from 'vitest';
import { readOsUprn } from '../../../etl/sources/os_uprn/read.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

// SOURCES.md: OS Open UPRN is not among the real samples, so this reader is tested on
// fixtures in the published layout (and, round-trip, on the synthetic region).
const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readOsUprn, path);

describe('readOsUprn', () => {
  it('reads the published layout, gzip or not, with and without a final newline', async () => {
    const text = 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\r\n' +
      '1,358260.00,172796.00,51.4496067,-2.6012845\r\n' +
      '10000000,359000.50,173000.25,51.4515,-2.5907';
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `uprn${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { uprn: 1, x: 358260, y: 172796, lat: 51.4496067, lng: -2.6012845 },
        { uprn: 10000000, x: 359000.5, y: 173000.25, lat: 51.4515, lng: -2.5907 },
      ]);
    }
  });

  it('rejects malformed rows by reason and keeps reading', async () => {
    const text = 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n' +
      'abc,358260,172796,51.44,-2.60\n' +      // bad uprn
      '2,358260,172796,91.0,-2.60\n' +         // latitude out of range
      '3,358260,172796\n' +                    // short row -> missing lat
      '4,358260,172796,51.44,-2.60\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.uprn)).toEqual([4]);
    expect(rejects.toJSON().by_reason).toEqual({ 'invalid:lat': 2, 'invalid:uprn': 1 });
  });

  it('refuses a file that is not OS Open UPRN', async () => {
    const p = writeFixture(tmp.dir, 'other.csv', 'a,b,c\n1,2,3\n');
    await expect(readAll(p)).rejects.toThrow(/not an OS Open UPRN file/);
  });
});
