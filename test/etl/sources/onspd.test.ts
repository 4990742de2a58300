import { afterAll, describe, expect, it } from 'vitest';
import { readOnspd } from '../../../etl/sources/onspd/read.ts';
import { ONSPD_HEADER, type OnspdRow } from '../../../schemas/sources/onspd.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readOnspd, path);

/** A fixture line in ONSPD_HEADER order from the values named in `v` (others blank). */
function line(v: Record<string, string>): string {
  return ONSPD_HEADER.map((c) => v[c] ?? '').join(',');
}
const M1_1AD = {
  pcd7: 'M1  1AD', pcd8: 'M1   1AD', pcds: 'M1 1AD', dointr: '200303', doterm: '', oslaua: 'E08000003',
  osward: 'E05011361', oseast1m: '383848', osnrth1m: '0398589', osgrdind: '1', ctry: 'E92000001',
  rgn: 'E12000002', pcon: 'E14001352', lat: '53.483784', long: '-2.244866', imd: '12008',
  lsoa21: 'E01033658', msoa21: 'E02006902',
};
const M1_1AD_ROW: OnspdRow = {
  pcd7: 'M1  1AD', pcds: 'M1 1AD', dointr: '200303', doterm: undefined, terminated: false,
  oseast1m: 383848, osnrth1m: 398589, osgrdind: 1, lat: 53.483784, lng: -2.244866,
  ctry: 'E92000001', country: 'England', oslaua: 'E08000003', osward: 'E05011361', rgn: 'E12000002',
  pcon: 'E14001352', lsoa21: 'E01033658', msoa21: 'E02006902', imd: 12008,
};

describe('readOnspd (fixtures)', () => {
  it('reads a row in the published layout, gzip or not', async () => {
    const text = `${ONSPD_HEADER.join(',')}\n${line(M1_1AD)}\n`;
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `ok.csv${gz ? '.gz' : ''}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([M1_1AD_ROW]);
    }
  });

  it('maps columns by header name, whatever their order and whatever extra columns a release adds', async () => {
    const header = ['new_col', ...[...ONSPD_HEADER].reverse().filter((c) => c !== 'pcd8' && c !== 'oa01')];
    const values: Record<string, string> = { ...M1_1AD, new_col: 'x' };
    const text = `${header.join(',')}\n${header.map((c) => values[c] ?? '').join(',')}\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'reordered.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows).toEqual([M1_1AD_ROW]);
  });

  it('treats a missing grid reference and lat 99.999999 as no location, pseudo codes and imd 0 as not applicable', async () => {
    const text = `${ONSPD_HEADER.join(',')}\n` +
      line({ pcd7: 'JE2 4WD', pcds: 'JE2 4WD', dointr: '199507', osgrdind: '9', ctry: 'L93000001', oslaua: 'L99999999', rgn: 'L99999999', lat: '99.999999', long: '0.000000', imd: '0' }) + '\n' +
      line({ pcd7: 'AB113AG', pcds: 'AB11 3AG', dointr: '199707', doterm: '199707', osgrdind: '9', ctry: 'S92000003', lat: '99.999999', long: '0.000000', imd: '0' }) + '\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'noloc.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => [r.pcds, r.country, r.terminated, r.doterm, r.oseast1m, r.osnrth1m, r.lat, r.lng, r.oslaua, r.rgn, r.imd])).toEqual([
      ['JE2 4WD', 'Channel Islands', false, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined],
      ['AB11 3AG', 'Scotland', true, '199707', undefined, undefined, undefined, undefined, undefined, undefined, undefined],
    ]);
  });

  it('maps every ctry code to its country', async () => {
    const codes = { E92000001: 'England', W92000004: 'Wales', S92000003: 'Scotland', N92000002: 'Northern Ireland', L93000001: 'Channel Islands', M83000003: 'Isle of Man' };
    const text = `${ONSPD_HEADER.join(',')}\n` + Object.keys(codes).map((ctry) => line({ ...M1_1AD, ctry })).join('\n');
    const { rows } = await readAll(writeFixture(tmp.dir, 'ctry.csv', text));
    expect(rows.map((r) => r.country)).toEqual(Object.values(codes));
  });

  it('rejects malformed rows by reason and keeps reading', async () => {
    const bad: Record<string, string>[] = [
      { ...M1_1AD, pcds: 'M11AD' },             // invalid:pcds (no space)
      { ...M1_1AD, dointr: '200313' },          // invalid:dointr (month 13)
      { ...M1_1AD, doterm: '1996' },            // invalid:doterm
      { ...M1_1AD, ctry: 'X92000001' },         // invalid:ctry
      { ...M1_1AD, long: '' },                  // invalid:lat (lat without long)
      { ...M1_1AD, oseast1m: 'abc' },           // invalid:oseast1m
      { ...M1_1AD, osnrth1m: '' },              // invalid:oseast1m (easting without northing)
      { ...M1_1AD, lat: '12.5' },               // invalid:lat (outside the UK)
      { ...M1_1AD, pcd7: 'M1 1AD' },            // invalid:pcd7 (not padded to 7)
    ];
    const text = `${ONSPD_HEADER.join(',')}\n${bad.map(line).join('\n')}\n${line(M1_1AD)}\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows).toEqual([M1_1AD_ROW]);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:ctry': 1, 'invalid:dointr': 1, 'invalid:doterm': 1, 'invalid:lat': 2,
      'invalid:oseast1m': 2, 'invalid:pcd7': 1, 'invalid:pcds': 1,
    });
    expect(rejects.samples[0]).toMatchObject({ reason: 'invalid:pcds', line: 2 });
  });

  it('refuses a file that is not ONSPD, naming the missing columns', async () => {
    const p = writeFixture(tmp.dir, 'other.csv', 'pcd7,pcds,lat\nM1  1AD,M1 1AD,53.4\n');
    await expect(readAll(p)).rejects.toThrow(/not an ONSPD file \(no dointr, doterm, oseast1m/);
  });
});

const SAMPLE = 'postcodes/onspd_sample_postcodesio/postcode.csv.gz';
describe.skipIf(!hasRaw(SAMPLE))('readOnspd (real sample)', () => {
  it('reads all 8,048 postcodes; AB1 ones are terminated, live ones are not', async () => {
    const { rows, rejects } = await readAll(rawPath(SAMPLE));
    expect(rejects.toJSON()).toEqual({ total: 0, by_reason: {}, samples: [] });
    expect(rows).toHaveLength(8048);
    expect(rows.filter((r) => r.terminated)).toHaveLength(3811);
    expect(rows.every((r) => r.terminated === (r.doterm !== undefined))).toBe(true);

    const ab1 = rows.filter((r) => r.pcds.startsWith('AB1 '));
    expect(ab1).toHaveLength(2655);
    expect(ab1.every((r) => r.terminated)).toBe(true);
    expect(ab1.filter((r) => r.doterm === '199606')).toHaveLength(2521);

    const byPc = new Map(rows.map((r) => [r.pcds, r]));
    expect(byPc.get('M1 1AD')).toEqual(M1_1AD_ROW);
    expect(byPc.get('AB1 0AA')).toMatchObject({ terminated: true, doterm: '199606', oseast1m: 385386, osnrth1m: 801193, lat: 57.101474, lng: -2.242851, country: 'Scotland', rgn: undefined });
    expect(byPc.get('SE1 9ZZ')).toMatchObject({ terminated: true, doterm: '199812', country: 'England', rgn: 'E12000007' });
    expect(byPc.get('JE2 4WD')).toMatchObject({ country: 'Channel Islands', terminated: false, lat: undefined, oseast1m: undefined });

    const countries: Record<string, number> = {};
    for (const r of rows) countries[r.country] = (countries[r.country] ?? 0) + 1;
    expect(countries).toEqual({ Scotland: 8042, England: 5, 'Channel Islands': 1 });
    expect(rows.filter((r) => r.lat === undefined).map((r) => r.pcds).sort()).toEqual(['AB11 3AG', 'JE2 4WD']);
  });
});
