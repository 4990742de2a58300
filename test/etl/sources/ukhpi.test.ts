import { afterAll, describe, expect, it } from 'vitest';
import { hpiMonth, readUkHpi } from '../../../etl/sources/ukhpi/read.ts';
import { UKHPI_APP_HEADER, UKHPI_FULL_HEADER } from '../../../schemas/sources/ukhpi.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readUkHpi, path);

/** A full-file line from a column→value map; every other column blank. */
function fullLine(values: Partial<Record<(typeof UKHPI_FULL_HEADER)[number], string>>): string {
  return UKHPI_FULL_HEADER.map((h) => values[h] ?? '').join(',');
}

describe('hpiMonth', () => {
  it('turns the published date forms into YYYY-MM and leaves anything else alone', () => {
    expect(hpiMonth('01/10/2002')).toBe('2002-10');
    expect(hpiMonth('1/3/2004')).toBe('2004-03');
    expect(hpiMonth('2024-11')).toBe('2024-11');
    expect(hpiMonth('2024-11-01')).toBe('2024-11');
    expect(hpiMonth('Oct 2002')).toBe('Oct 2002');
  });
});

describe('readUkHpi on fixtures', () => {
  it('maps the full-file layout, keeping blank cells undefined rather than 0', async () => {
    const text = UKHPI_FULL_HEADER.join(',') + '\n' +
      fullLine({ Date: '01/10/2002', RegionName: 'Wokingham', AreaCode: 'E06000041', AveragePrice: '213363',
        Index: '43.5', '1m%Change': '0.0', '12m%Change': '12.9', SalesVolume: '305.0',
        DetachedPrice: '331612.0', DetachedIndex: '43.6', FlatPrice: '134274.0', FlatIndex: '52.2' }) + '\n' +
      fullLine({ Date: '01/05/1977', RegionName: 'United Kingdom', AreaCode: 'K02000001', AveragePrice: '10065', Index: '3.9' });
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `full${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { month: '2002-10', region_name: 'Wokingham', area_code: 'E06000041', average_price: 213363, index: 43.5,
          change_1m_pct: 0, change_12m_pct: 12.9, sales_volume: 305,
          detached_price: 331612, detached_index: 43.6, flat_price: 134274, flat_index: 52.2 },
        { month: '1977-05', region_name: 'United Kingdom', area_code: 'K02000001', average_price: 10065, index: 3.9 },
      ]);
      expect(rows[1]).not.toHaveProperty('sales_volume', 0);
      expect(rows[1]!.sales_volume).toBeUndefined();
    }
  });

  it('maps the app-download layout (quoted header, YYYY-MM period) into the same row', async () => {
    const header = UKHPI_APP_HEADER.map((h) => `"${h}"`).join(',');
    const cells = new Map<string, string>([
      ['Name', 'City of London'], ['URI', 'http://landregistry.data.gov.uk/id/region/city-of-london'],
      ['Region GSS code', 'E09000001'], ['Period', '1995-02'], ['Sales volume', '7'], ['Reporting period', 'monthly'],
      ['House price index All property types', '10.49'], ['Average price All property types', '82203'],
      ['Percentage change (monthly) All property types', '-10.11'],
      ['House price index Flats and maisonettes', '10.52'], ['Average price Flats and maisonettes', '82173'],
      ['Pivotable date', '1995-02-01'],
    ]);
    const line = UKHPI_APP_HEADER.map((h) => cells.get(h) ?? '').join(',');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'app.csv', `${header}\n${line}\n`));
    expect(rejects.total).toBe(0);
    expect(rows).toEqual([{ month: '1995-02', region_name: 'City of London', area_code: 'E09000001',
      average_price: 82203, index: 10.49, change_1m_pct: -10.11, sales_volume: 7, flat_price: 82173, flat_index: 10.52 }]);
  });

  it('rejects malformed rows by reason and keeps reading', async () => {
    const ok = { RegionName: 'Bristol', AreaCode: 'E06000023', AveragePrice: '300000', Index: '90.1' } as const;
    const text = UKHPI_FULL_HEADER.join(',') + '\n' +
      fullLine({ ...ok, Date: '2021' }) + '\n' +                       // unreadable date
      fullLine({ ...ok, Date: '01/13/2021' }) + '\n' +                 // month 13
      fullLine({ ...ok, Date: '01/01/2021', AreaCode: 'Bristol' }) + '\n' + // not a GSS code
      fullLine({ ...ok, Date: '01/01/2021', AveragePrice: '' }) + '\n' +    // headline price missing
      fullLine({ ...ok, Date: '01/01/2021', Index: 'n/a' }) + '\n' +
      fullLine({ ...ok, Date: '01/01/2021', SalesVolume: '-3' }) + '\n' +
      fullLine({ ...ok, Date: '01/01/2021', FlatPrice: '0' }) + '\n' +
      fullLine({ ...ok, Date: '01/02/2021' }) + '\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.month)).toEqual(['2021-02']);
    expect(rejects.toJSON().by_reason).toEqual({
      'invalid:month': 2, 'invalid:area_code': 1, 'invalid:average_price': 1, 'invalid:index': 1,
      'invalid:sales_volume': 1, 'invalid:flat_price': 1,
    });
    expect(rejects.samples[0]).toMatchObject({ reason: 'invalid:month', line: 2 });
  });

  it('refuses a file that is neither layout', async () => {
    const p = writeFixture(tmp.dir, 'annual.csv', 'Local authorities,March 2021,March 2020,Difference\nCity of Bristol,317210,283293,12.0\n');
    await expect(readAll(p)).rejects.toThrow(/not a UK HPI full file or UKHPI app download/);
  });
});

const FULL_SAMPLE = 'ukhpi/full_file_sample/UK-HPI-full-file_random-sample.csv';
describe.skipIf(!hasRaw(FULL_SAMPLE))('readUkHpi on the real full-file sample', () => {
  // 5,000 data rows: `wc -l` gives 5001 lines, and Python's csv module reads 5,001 records of 54 fields.
  it('reads every one of the 5,000 rows', async () => {
    const { rows, rejects } = await readAll(rawPath(FULL_SAMPLE));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(5000);
    const months = rows.map((r) => r.month).sort();
    expect([months[0], months.at(-1)]).toEqual(['1968-06', '2025-02']);
  });

  it('has the 9 City of Bristol rows (E06000023) with their values', async () => {
    const { rows } = await readAll(rawPath(FULL_SAMPLE));
    const bristol = rows.filter((r) => r.area_code === 'E06000023');
    expect(bristol.map((r) => r.month).sort()).toEqual(
      ['1997-11', '2000-02', '2002-12', '2004-03', '2005-04', '2006-06', '2009-06', '2014-05', '2021-08']);
    expect(bristol.every((r) => r.region_name === 'City of Bristol')).toBe(true);
    expect(bristol.find((r) => r.month === '2021-08')).toEqual({
      month: '2021-08', region_name: 'City of Bristol', area_code: 'E06000023', average_price: 307726, index: 87.3,
      change_1m_pct: 0.2, change_12m_pct: 4.2, sales_volume: 499,
      detached_price: 595044, detached_index: 85.9, semi_detached_price: 374398, semi_detached_index: 85.5,
      terraced_price: 323603, terraced_index: 86, flat_price: 228739, flat_index: 90.9,
    });
  });

  it('keeps a blank-heavy row (47 of 54 cells blank) with only what it has', async () => {
    const { rows } = await readAll(rawPath(FULL_SAMPLE));
    const uk1977 = rows.filter((r) => r.area_code === 'K02000001' && r.month === '1977-05');
    expect(uk1977).toEqual([{ month: '1977-05', region_name: 'United Kingdom', area_code: 'K02000001',
      average_price: 10065, index: 3.9, change_1m_pct: 1.5, change_12m_pct: 6.3 }]);
  });
});

const APP_DIR = 'ukhpi/app_download_city_of_london';
describe.skipIf(!hasRaw(APP_DIR))('readUkHpi on the real UKHPI app downloads', () => {
  // 359 data rows each: `wc -l` gives 360 lines (LF-terminated), 1995-01 to 2024-11.
  it.each(['city-of-london.csv', 'london.csv', 'england.csv'])('reads all 359 months of %s', async (name) => {
    const { rows, rejects } = await readAll(rawPath(`${APP_DIR}/${name}`));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(359);
    expect([rows[0]!.month, rows.at(-1)!.month]).toEqual(['1995-01', '2024-11']);
    expect(new Set(rows.map((r) => r.area_code)).size).toBe(1);
  });

  it('maps the first City of London month, flats only', async () => {
    const { rows } = await readAll(rawPath(`${APP_DIR}/city-of-london.csv`));
    expect(rows[0]).toEqual({ month: '1995-01', region_name: 'City of London', area_code: 'E09000001',
      average_price: 91449, index: 11.67, sales_volume: 17, flat_price: 91484, flat_index: 11.71 });
  });
});
