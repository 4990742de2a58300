import { afterAll, describe, expect, it } from 'vitest';
import { readCodePoint } from '../../../etl/sources/codepoint/read.ts';
import { formatPostcode as normalisePostcode } from '../../../schemas/sources/fields.ts';
import { bngToWgs84 } from '../../../etl/sources/grid.ts';
import type { CodePointRow } from '../../../schemas/sources/codepoint.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readCodePoint, path);

const BS1_1AD = '"BS1 1AD",10,360205,173432,"E92000001","E19000002","E18000010","","E06000023","E05010907"';

describe('normalisePostcode', () => {
  it('turns every Code-Point spelling into the single-space form', () => {
    expect(normalisePostcode('BS1 1AD')).toBe('BS1 1AD');
    expect(normalisePostcode('BS1  1AD')).toBe('BS1 1AD'); // older releases pad to 7 characters
    expect(normalisePostcode('BS101AA')).toBe('BS10 1AA'); // 7-character postcodes without a space
    expect(normalisePostcode(' ec1a 1bb ')).toBe('EC1A 1BB');
    expect(normalisePostcode('B11AA')).toBe('B1 1AA');
    expect(normalisePostcode('AB1')).toBe('AB1'); // too short to split: left for the schema to reject
  });
});

describe('readCodePoint (fixtures)', () => {
  it('reads the published layout (quoted text, CRLF, no header) and adds WGS84 from the grid reference', async () => {
    const text = `${BS1_1AD}\r\n"BS16 0GS",60,363531,175632,"E92000001","","","","",""\r\n`;
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `bs.csv${gz ? '.gz' : ''}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows[0]).toEqual({
        postcode: 'BS1 1AD', positional_quality: 10, has_location: true, easting: 360205, northing: 173432,
        lat: 51.458457, lng: -2.574165, country_code: 'E92000001', nhs_regional_ha_code: 'E19000002',
        nhs_ha_code: 'E18000010', admin_county_code: undefined, admin_district_code: 'E06000023', admin_ward_code: 'E05010907',
      });
      const ll = bngToWgs84(360205, 173432);
      expect(rows[0]!.lat).toBeCloseTo(ll.lat, 6);
      expect(rows[0]!.lng).toBeCloseTo(ll.lng, 6);
      expect(rows[1]).toMatchObject({ postcode: 'BS16 0GS', positional_quality: 60, has_location: true, admin_district_code: undefined, admin_ward_code: undefined });
    }
  });

  it('normalises padded and unspaced postcodes from older releases', async () => {
    const text = '"BS1  1AA",10,358000,172000,"E92000001","","","","E06000023",""\n' +
      '"BS101AA",10,357000,179000,"E92000001","","","","E06000023",""\n';
    const { rows } = await readAll(writeFixture(tmp.dir, 'old.csv', text));
    expect(rows.map((r) => r.postcode)).toEqual(['BS1 1AA', 'BS10 1AA']);
  });

  it('flags postcodes without coordinates (quality 90, eastings 0) instead of placing them in the sea', async () => {
    const text = `${BS1_1AD}\r\n"BS99 1ZZ",90,0,0,"E92000001","","","","E06000023",""\r\n"BS98 1ZZ",50,0,0,"E92000001","","","","E06000023",""\r\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'noloc.csv', text));
    expect(rejects.total).toBe(0);
    for (const r of rows.slice(1)) {
      expect(r).toMatchObject({ has_location: false, easting: undefined, northing: undefined, lat: undefined, lng: undefined, admin_district_code: 'E06000023' });
    }
    expect(rows.map((r) => r.postcode)).toEqual(['BS1 1AD', 'BS99 1ZZ', 'BS98 1ZZ']);
  });

  it('rejects malformed rows by reason and keeps reading', async () => {
    const text = [
      BS1_1AD,
      '"BS1 1AE",10,360205,173432,"E92000001"',                                   // column_count
      '"NOT A POSTCODE",10,360205,173432,"E92000001","","","","E06000023",""',   // invalid:postcode
      '"BS1 1AF",70,360205,173432,"E92000001","","","","E06000023",""',          // invalid:positional_quality
      '"BS1 1AG",10,,173432,"E92000001","","","","E06000023",""',                // invalid:easting (located, no easting)
      '"BS1 1AH",10,800000,173432,"E92000001","","","","E06000023",""',          // invalid:easting (off the grid)
      '"BS1 1AJ",10,360205,abc,"E92000001","","","","E06000023",""',             // invalid:northing
      '"BS1 "1AK",10,360205,173432,"E92000001","","","","E06000023",""',         // csv_syntax (stray quote)
      '"BS1 1AL",10,360300,173500,"E92000001","","","","E06000023",""',
    ].join('\r\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.postcode)).toEqual(['BS1 1AD', 'BS1 1AL']);
    expect(rejects.toJSON().by_reason).toEqual({
      column_count: 1, csv_syntax: 1, 'invalid:easting': 2, 'invalid:northing': 1,
      'invalid:positional_quality': 1, 'invalid:postcode': 1,
    });
    expect(rejects.samples).toContainEqual(expect.objectContaining({ reason: 'column_count', line: 2 }));
    expect(rejects.samples).toContainEqual(expect.objectContaining({ reason: 'invalid:easting', line: 5 }));
  });

  it('refuses a file with a header row or the wrong number of columns', async () => {
    const withHeader = writeFixture(tmp.dir, 'header.csv', `Postcode,Positional_quality_indicator,Eastings,Northings,Country_code,NHS_regional_HA_code,NHS_HA_code,Admin_county_code,Admin_district_code,Admin_ward_code\r\n${BS1_1AD}\r\n`);
    await expect(readAll(withHeader)).rejects.toThrow(/not a Code-Point Open area file/);
    const onspd = writeFixture(tmp.dir, 'onspd.csv', 'pcd7,pcds,lat\nM1  1AD,M1 1AD,53.4\n');
    await expect(readAll(onspd)).rejects.toThrow(/first record has 3 fields, expected 10/);
  });
});

const CP = 'postcodes/codepoint_open_2024-01';
describe.skipIf(!hasRaw(`${CP}/bs.csv`) || !hasRaw(`${CP}/ec.csv`))('readCodePoint (real samples)', () => {
  const tally = (rows: CodePointRow[], key: (r: CodePointRow) => unknown) => {
    const m: Record<string, number> = {};
    for (const r of rows) m[String(key(r))] = (m[String(key(r))] ?? 0) + 1;
    return m;
  };

  it('bs.csv: 27,245 postcodes, 11,712 in Bristol (E06000023), all placed in the Bristol area', async () => {
    const { rows, rejects } = await readAll(rawPath(`${CP}/bs.csv`));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(27245);
    const bristol = rows.filter((r) => r.admin_district_code === 'E06000023');
    expect(bristol).toHaveLength(11712);
    expect(tally(rows, (r) => r.positional_quality)).toEqual({ 10: 27184, 50: 59, 60: 2 });
    expect(rows.every((r) => r.has_location && r.postcode.startsWith('BS'))).toBe(true);
    expect(rows.filter((r) => r.admin_district_code === undefined)).toHaveLength(2);
    for (const r of bristol) {
      expect(r.lat).toBeGreaterThan(51.39);
      expect(r.lat).toBeLessThan(51.55);
      expect(r.lng).toBeGreaterThan(-2.72);
      expect(r.lng).toBeLessThan(-2.50);
    }
  });

  it('ec.csv: 3,650 postcodes, 1,553 in the City of London (E09000001)', async () => {
    const { rows, rejects } = await readAll(rawPath(`${CP}/ec.csv`));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(3650);
    const city = rows.filter((r) => r.admin_district_code === 'E09000001');
    expect(city).toHaveLength(1553);
    expect(tally(rows, (r) => r.positional_quality)).toEqual({ 10: 3642, 50: 8 });
    for (const r of city) {
      expect(r.lat).toBeGreaterThan(51.50);
      expect(r.lat).toBeLessThan(51.53);
      expect(r.lng).toBeGreaterThan(-0.12);
      expect(r.lng).toBeLessThan(-0.07);
    }
  });
});
