import { afterAll, describe, expect, it } from 'vitest';
import { readAddressBase } from '../../../etl/sources/addressbase/read.ts';
import { ADDRESSBASE_CORE_HEADER } from '../../../schemas/sources/addressbase.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

// No real AddressBase sample exists (licensed product): fixtures in the published layout.
const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readAddressBase, path);

type Col = (typeof ADDRESSBASE_CORE_HEADER)[number];

function line(values: Partial<Record<Col, string>>): string {
  return ADDRESSBASE_CORE_HEADER.map((h) => {
    const v = values[h] ?? '';
    return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  }).join(',');
}

const FLAT: Partial<Record<Col, string>> = {
  UPRN: '10009139124', PARENT_UPRN: '10009139123', UDPRN: '23745121', USRN: '20603420', TOID: 'osgb1000005142348',
  CLASSIFICATION_CODE: 'RD06', EASTING: '358260.00', NORTHING: '172796.00', LATITUDE: '51.4496067', LONGITUDE: '-2.6012845',
  RPC: '1', LAST_UPDATE_DATE: '2024-01-19', SINGLE_LINE_ADDRESS: 'FLAT 2, 14 PARK STREET, BRISTOL, BS1 5HX',
  SUB_BUILDING: 'FLAT 2', BUILDING_NUMBER: '14', STREET_NAME: 'PARK STREET', TOWN_NAME: 'BRISTOL', POST_TOWN: 'BRISTOL',
  POSTCODE: 'BS1 5HX', DELIVERY_POINT_SUFFIX: '2B', GSS_CODE: 'E06000023', CHANGE_CODE: 'I',
};

describe('readAddressBase', () => {
  const header = ADDRESSBASE_CORE_HEADER.join(',');

  it('reads the published layout, gzip or plain, CRLF, no final newline', async () => {
    for (const gz of [false, true]) {
      const text = `${header}\r\n${line(FLAT)}\r\n${line({ ...FLAT, UPRN: '10009139125', PARENT_UPRN: '', ORGANISATION: 'ACME LTD', CHANGE_CODE: '' })}`;
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `abcore.csv${gz ? '.gz' : ''}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows[0]).toEqual({
        uprn: 10009139124, parent_uprn: 10009139123, classification_code: 'RD06', easting: 358260, northing: 172796,
        lat: 51.4496067, lng: -2.6012845, single_line_address: 'FLAT 2, 14 PARK STREET, BRISTOL, BS1 5HX',
        organisation: undefined, sub_building: 'FLAT 2', building_name: undefined, building_number: '14',
        street_name: 'PARK STREET', locality: undefined, town_name: 'BRISTOL', post_town: 'BRISTOL', postcode: 'BS1 5HX',
        gss_code: 'E06000023', change_code: 'I',
      });
      expect(rows[1]).toMatchObject({ uprn: 10009139125, parent_uprn: undefined, organisation: 'ACME LTD', change_code: undefined });
    }
  });

  it('maps columns by name, case-insensitively, whatever their order', async () => {
    const cols = ['postcode', 'single_line_address', 'longitude', 'latitude', 'northing', 'easting', 'classification_code', 'uprn'];
    const text = `${cols.join(',')}\n"bs1 5hx","14 PARK STREET, BRISTOL, BS1 5HX",-2.60,51.45,172796,358260,RD04,7\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'reordered.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows).toEqual([expect.objectContaining({ uprn: 7, postcode: 'BS1 5HX', lat: 51.45, lng: -2.6, classification_code: 'RD04', parent_uprn: undefined })]);
  });

  it('rejects malformed rows by field and keeps reading', async () => {
    const text = [
      header,
      line({ ...FLAT, UPRN: '' }),
      line({ ...FLAT, UPRN: '12.5' }),
      line({ ...FLAT, PARENT_UPRN: 'x' }),
      line({ ...FLAT, CLASSIFICATION_CODE: '' }),
      line({ ...FLAT, EASTING: '' }),
      line({ ...FLAT, NORTHING: '2000000' }),
      line({ ...FLAT, LATITUDE: '40' }),
      line({ ...FLAT, LONGITUDE: 'west' }),
      line({ ...FLAT, SINGLE_LINE_ADDRESS: ' ' }),
      line({ ...FLAT, POSTCODE: '' }),
      line({ ...FLAT, CHANGE_CODE: 'X' }),
      '1,2,3',
      line({ ...FLAT, UPRN: '99' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.uprn)).toEqual([99]);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:change_code': 1,
      'invalid:classification_code': 1,
      'invalid:easting': 1,
      'invalid:lat': 1,
      'invalid:lng': 1,
      'invalid:northing': 1,
      'invalid:parent_uprn': 1,
      'invalid:postcode': 1,
      'invalid:single_line_address': 1,
      'invalid:uprn': 2,
      wrong_column_count: 1,
    });
  });

  it('refuses a file that is not AddressBase Core, naming the missing columns', async () => {
    const p = writeFixture(tmp.dir, 'uprn.csv', 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n1,2,3,4,5\n');
    await expect(readAll(p)).rejects.toThrow(/not an AddressBase Core file \(no CLASSIFICATION_CODE, EASTING, NORTHING, SINGLE_LINE_ADDRESS, POSTCODE column\)/);
  });
});
