import { afterAll, describe, expect, it } from 'vitest';
import { readEpc } from '../../../etl/sources/epc/read.ts';
import { EPC_ODC_HEADER } from '../../../schemas/sources/epc.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readEpc, path);

/** One ODC `certificates.csv` line: every column blank except those given. */
function odcLine(values: Partial<Record<(typeof EPC_ODC_HEADER)[number], string>>): string {
  return EPC_ODC_HEADER.map((h) => {
    const v = values[h] ?? '';
    return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  }).join(',');
}

const BASE = {
  LMK_KEY: '1242865349302014120517173839042288',
  ADDRESS1: '74, Station Road',
  POSTCODE: 'cm21  9jy',
  BUILDING_REFERENCE_NUMBER: '6349740378',
  CURRENT_ENERGY_RATING: 'D',
  POTENTIAL_ENERGY_RATING: 'c',
  CURRENT_ENERGY_EFFICIENCY: '62',
  PROPERTY_TYPE: 'House',
  BUILT_FORM: 'Detached',
  INSPECTION_DATE: '2014-11-28',
  LODGEMENT_DATE: '2014-12-05',
  TOTAL_FLOOR_AREA: '116.5',
  NUMBER_HABITABLE_ROOMS: '5',
  POSTTOWN: 'SAWBRIDGEWORTH',
  CONSTRUCTION_AGE_BAND: 'England and Wales: 1900-1929',
  TENURE: 'owner-occupied',
  UPRN: '100080745644',
  UPRN_SOURCE: 'Address Matched',
} as const;

describe('readEpc: old opendatacommunities certificates.csv', () => {
  const header = EPC_ODC_HEADER.join(',');

  it('maps the published columns, gzip or plain, CRLF, no final newline', async () => {
    for (const gz of [false, true]) {
      const text = `${header}\r\n${odcLine(BASE)}\r\n${odcLine({ ...BASE, LMK_KEY: 'k2', UPRN: '' })}`;
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `certificates.csv${gz ? '.gz' : ''}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows[0]).toEqual({
        certificate_id: BASE.LMK_KEY, uprn: 100080745644, address1: '74, Station Road', address2: undefined,
        address3: undefined, postcode: 'CM21 9JY', posttown: 'SAWBRIDGEWORTH', property_type: 'House',
        built_form: 'Detached', total_floor_area_m2: 116.5, number_habitable_rooms: 5,
        construction_age_band: 'England and Wales: 1900-1929', current_energy_rating: 'D',
        potential_energy_rating: 'C', current_energy_efficiency: 62, tenure: 'owner-occupied',
        lodgement_date: '2014-12-05', inspection_date: '2014-11-28', region: undefined, country: undefined,
      });
      // A bare-number BUILDING_REFERENCE_NUMBER is the register's building id, not a UPRN.
      expect(rows[1]).toMatchObject({ certificate_id: 'k2', uprn: undefined });
    }
  });

  it('treats N/A, NO DATA!, INVALID! and a zero floor area as missing; accepts a lower-case header', async () => {
    const lower = header.toLowerCase();
    const text = [
      lower,
      odcLine({ ...BASE, TOTAL_FLOOR_AREA: '0', NUMBER_HABITABLE_ROOMS: 'N/A', BUILT_FORM: 'NO DATA!', CONSTRUCTION_AGE_BAND: 'INVALID!' }),
      odcLine({ ...BASE, TOTAL_FLOOR_AREA: 'n/a', PROPERTY_TYPE: 'park home', INSPECTION_DATE: '', UPRN: '0' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'missing.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows[0]).toMatchObject({
      total_floor_area_m2: undefined, number_habitable_rooms: undefined, built_form: undefined, construction_age_band: undefined,
    });
    expect(rows[1]).toMatchObject({ total_floor_area_m2: undefined, property_type: 'Park home', inspection_date: undefined, uprn: undefined });
  });

  it('rejects malformed rows by field and keeps reading', async () => {
    const text = [
      header,
      odcLine({ ...BASE, LMK_KEY: '' }),
      odcLine({ ...BASE, CURRENT_ENERGY_RATING: 'H' }),
      odcLine({ ...BASE, POTENTIAL_ENERGY_RATING: 'A+' }),
      odcLine({ ...BASE, LODGEMENT_DATE: '' }),
      odcLine({ ...BASE, LODGEMENT_DATE: '2014-13-05' }),
      odcLine({ ...BASE, INSPECTION_DATE: '31/02/2014' }),
      odcLine({ ...BASE, TOTAL_FLOOR_AREA: '-3' }),
      odcLine({ ...BASE, TOTAL_FLOOR_AREA: 'big' }),
      odcLine({ ...BASE, NUMBER_HABITABLE_ROOMS: '2.5' }),
      odcLine({ ...BASE, CURRENT_ENERGY_EFFICIENCY: 'x' }),
      odcLine({ ...BASE, PROPERTY_TYPE: 'Castle' }),
      odcLine({ ...BASE, POSTCODE: 'NOWHERE' }),
      odcLine({ ...BASE, UPRN: 'abc' }),
      '1,2,3',
      odcLine({ ...BASE, LMK_KEY: 'ok' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.certificate_id)).toEqual(['ok']);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:certificate_id': 1,
      'invalid:current_energy_efficiency': 1,
      'invalid:current_energy_rating': 1,
      'invalid:inspection_date': 1,
      'invalid:lodgement_date': 2,
      'invalid:number_habitable_rooms': 1,
      'invalid:postcode': 1,
      'invalid:potential_energy_rating': 1,
      'invalid:property_type': 1,
      'invalid:total_floor_area_m2': 2,
      'invalid:uprn': 1,
      wrong_column_count: 1,
    });
  });

  it('refuses a file that is not EPC certificates, naming what is missing', async () => {
    const p = writeFixture(tmp.dir, 'recs.csv', 'ASSESSMENT_ID,IMPROVEMENT_ITEM,INDICATIVE_COST\nx,1,£100\n');
    await expect(readAll(p)).rejects.toThrow(/not an EPC certificates file.*missing POSTCODE, LODGEMENT_DATE, CURRENT_ENERGY_RATING/);
    const q = writeFixture(tmp.dir, 'noid.csv', 'POSTCODE,LODGEMENT_DATE,CURRENT_ENERGY_RATING\n');
    await expect(readAll(q)).rejects.toThrow(/missing id/);
  });
});

const REGISTER = 'epc/epb-register-api/open_data_export/domestic.csv';
const NI = 'epc/epb-register-api/ni_export/domestic.csv';
const WAREHOUSE = 'epc/epb-data-warehouse/export_csv/domestic.csv';
const LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';

// The register and warehouse files are real export headers with synthetic rows (SOURCES.md b2).
describe.skipIf(!hasRaw(REGISTER))('readEpc on the register open-data export format', () => {
  it('maps ASSESSMENT_ID, ADDRESS2/3/1 order, UPRN- building references, lower-case ratings', async () => {
    const { rows, rejects } = await readAll(rawPath(REGISTER));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      certificate_id: '5cb9fa3be789df637c7c20acac4e19c5ebf691f0f0d78f2a1b5f30c8b336bba6',
      uprn: undefined, // UPRN-000000000000 is the placeholder
      address1: '1 Some Street', address2: undefined, built_form: 'Semi-Detached', total_floor_area_m2: 55,
      construction_age_band: 'England and Wales: 2007-2011', current_energy_rating: 'E', potential_energy_rating: 'C',
      tenure: 'Owner-occupied', lodgement_date: '2021-02-22', inspection_date: '2020-05-04', region: 'London', country: 'England',
    });
    expect(rows[1]).toMatchObject({ address2: 'Some Area', address3: 'Some County', construction_age_band: '1750', number_habitable_rooms: undefined });
  });
});

describe.skipIf(!hasRaw(NI))('readEpc on the Northern Ireland export format', () => {
  it('reads both rows and counts the trailing line of commas as a reject', async () => {
    const { rows, rejects } = await readAll(rawPath(NI));
    expect(rows.map((r) => [r.uprn, r.postcode, r.construction_age_band])).toEqual([
      [1, 'BT4 3SR', 'Northern Ireland: 2007 onwards'],
      [undefined, 'BT4 3SR', 'Northern Ireland: 2007-2013'],
    ]);
    expect(rejects.toJSON().by_reason).toEqual({ wrong_column_count: 1 });
  });
});

describe.skipIf(!hasRaw(WAREHOUSE))('readEpc on the data-warehouse export format', () => {
  it('maps CERTIFICATE_NUMBER and converts DD/MM/YYYY dates', async () => {
    const { rows, rejects } = await readAll(rawPath(WAREHOUSE));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => [r.certificate_id, r.lodgement_date, r.inspection_date])).toEqual([
      ['0000-0000-0000-0000-0001', '2021-02-22', '2020-05-04'],
      ['0000-0000-0000-0000-0006', '2021-02-22', '2020-05-04'],
    ]);
  });
});

describe.skipIf(!hasRaw(LINKED))('readEpc on the real linked PPD/EPC file (lower-case ODC columns)', () => {
  it('reads all 1,000 certificates with real values', async () => {
    const { rows, rejects } = await readAll(rawPath(LINKED));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(1_000);
    expect(rows[0]).toMatchObject({
      certificate_id: '1242865349302014120517173839042288', uprn: 100080745644, address1: '74, Station Road',
      postcode: 'CM21 9JY', property_type: 'House', built_form: 'Detached', total_floor_area_m2: 116,
      construction_age_band: 'England and Wales: 1900-1929', current_energy_rating: 'D', lodgement_date: '2014-12-05',
    });
    expect(rows.every((r) => r.uprn !== undefined)).toBe(true);
    expect(rows.filter((r) => r.property_type === 'Flat')).toHaveLength(154);
    expect(rows.filter((r) => r.tenure === 'rental (private)')).toHaveLength(207);
    expect(rows.filter((r) => r.number_habitable_rooms === undefined)).toHaveLength(67);
  });
});
