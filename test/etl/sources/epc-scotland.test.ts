import { afterAll, describe, expect, it } from 'vitest';
import { readScottishEpc } from '../../../etl/sources/epc_scotland/read.ts';
import { EPC_ODC_HEADER } from '../../../schemas/sources/epc.ts';
import { SCOTTISH_EPC_HEADER, SCOTTISH_EPC_LABELS, type ScottishEpcColumn } from '../../../schemas/sources/epc-scotland.ts';
import { readAllRows } from '../../support/read-all.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readScottishEpc, path);
const csv = (cells: readonly string[]) => cells.map((v) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',');

/** One extract line: every column blank except those given. */
function line(values: Partial<Record<ScottishEpcColumn, string>>, header: readonly ScottishEpcColumn[] = SCOTTISH_EPC_HEADER): string {
  return csv(header.map((h) => values[h] ?? ''));
}

const BASE = {
  BUILDING_REFERENCE_NUMBER: '1001234567',
  OSG_REFERENCE_NUMBER: '906700123456',
  REPORT_REFERENCE_NUMBER: '0140-2937-7120-9198-4535',
  ADDRESS1: '3F2, 14 Marchmont Road',
  ADDRESS2: '',
  POST_TOWN: 'EDINBURGH',
  POSTCODE: 'eh9 1hz',
  INSPECTION_DATE: '2019-02-25',
  TYPE_OF_ASSESSMENT: 'RdSAP',
  LODGEMENT_DATE: '2019-03-01',
  TOTAL_FLOOR_AREA: '78.5',
  CURRENT_ENERGY_EFFICIENCY: '64',
  CURRENT_ENERGY_RATING: 'D',
  POTENTIAL_ENERGY_EFFICIENCY: '71',
  POTENTIAL_ENERGY_RATING: 'c',
  PROPERTY_TYPE: 'Flat',
  BUILT_FORM: 'Mid-Terrace',
  NUMBER_HABITABLE_ROOMS: '3',
  CONSTRUCTION_AGE_BAND: 'before 1919',
  MAIN_FUEL: 'mains gas (not community)',
  TENURE: 'rental (private)',
} as const;

const EXPECTED = {
  certificate_id: '0140-2937-7120-9198-4535', uprn: 906700123456, address1: '3F2, 14 Marchmont Road', address2: undefined,
  address3: undefined, postcode: 'EH9 1HZ', posttown: 'EDINBURGH', property_type: 'Flat', built_form: 'Mid-Terrace',
  total_floor_area_m2: 78.5, number_habitable_rooms: 3, construction_age_band: 'before 1919', current_energy_rating: 'D',
  potential_energy_rating: 'C', current_energy_efficiency: 64, potential_energy_efficiency: 71,
  main_fuel: 'mains gas (not community)', tenure: 'rental (private)', lodgement_date: '2019-03-01',
  inspection_date: '2019-02-25', region: undefined, country: 'Scotland',
};

describe('readScottishEpc: the Scottish EPC Register extract', () => {
  it('reads a file whose descriptive header row comes first (UTF-8 with BOM, CRLF, gzip or plain)', async () => {
    for (const gz of [false, true]) {
      const text = `\uFEFF${csv(SCOTTISH_EPC_LABELS)}\r\n${csv(SCOTTISH_EPC_HEADER)}\r\n${line(BASE)}\r\n`;
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `D_EPC_data_a.csv${gz ? '.gz' : ''}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([EXPECTED]);
    }
  });

  it('reads a file whose column names come first, and one with the descriptive row only', async () => {
    const namesFirst = `${csv(SCOTTISH_EPC_HEADER)}\n${csv(SCOTTISH_EPC_LABELS)}\n${line(BASE)}\n`;
    const labelsOnly = `${csv(SCOTTISH_EPC_LABELS)}\n${line(BASE)}\n`;
    for (const [name, text] of [['b.csv', namesFirst], ['c.csv', labelsOnly]] as const) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, name, text));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([EXPECTED]);
    }
  });

  it('maps by name in any order; without a report reference the id is the property id with the lodgement date', async () => {
    const header = [...SCOTTISH_EPC_HEADER].reverse().filter((h) => h !== 'REPORT_REFERENCE_NUMBER');
    const text = `${csv(header)}\n${line(BASE, header)}\n`;
    const { rows } = await readAll(writeFixture(tmp.dir, 'd.csv', text));
    expect(rows).toEqual([{ ...EXPECTED, certificate_id: '1001234567:2019-03-01' }]);
  });

  it('turns the register\'s markers and placeholder UPRNs into blanks, and reads a float OSG reference', async () => {
    const text = [
      csv(SCOTTISH_EPC_HEADER),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'r1', OSG_REFERENCE_NUMBER: '0', TOTAL_FLOOR_AREA: 'NO DATA!', CONSTRUCTION_AGE_BAND: 'N/A' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'r2', OSG_REFERENCE_NUMBER: '906700123456.0', TOTAL_FLOOR_AREA: '0' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'r3', OSG_REFERENCE_NUMBER: '' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'e.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => [r.certificate_id, r.uprn, r.total_floor_area_m2, r.construction_age_band])).toEqual([
      ['r1', undefined, undefined, undefined],
      ['r2', 906700123456, undefined, 'before 1919'],
      ['r3', undefined, 78.5, 'before 1919'],
    ]);
  });

  it('quarantines bad rows by reason and carries on', async () => {
    const text = [
      csv(SCOTTISH_EPC_LABELS),
      csv(SCOTTISH_EPC_HEADER),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'ok1' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'bad-date', LODGEMENT_DATE: '31/02/2020' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'bad-band', CURRENT_ENERGY_RATING: 'Z' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'bad-uprn', OSG_REFERENCE_NUMBER: 'UNKNOWN' }),
      line({ ...BASE, REPORT_REFERENCE_NUMBER: '', BUILDING_REFERENCE_NUMBER: '' }),
      `${line({ ...BASE, REPORT_REFERENCE_NUMBER: 'short' })},extra`,
      line({ ...BASE, REPORT_REFERENCE_NUMBER: 'ok2', LODGEMENT_DATE: '05/06/2021' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'f.csv', text));
    expect(rows.map((r) => [r.certificate_id, r.lodgement_date])).toEqual([['ok1', '2019-03-01'], ['ok2', '2021-06-05']]);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:lodgement_date': 1,
      'invalid:current_energy_rating': 1,
      'invalid:uprn': 1,
      'invalid:certificate_id': 1,
      wrong_column_count: 1,
    });
  });

  it('refuses an England and Wales certificates file', async () => {
    const path = writeFixture(tmp.dir, 'certificates.csv', `${EPC_ODC_HEADER.join(',')}\n`);
    await expect(readAll(path)).rejects.toThrow(/not a Scottish EPC certificates file/);
  });
});
