import { afterAll, describe, expect, it } from 'vitest';
import { giasDate, readGiasLinks, readGiasSchools } from '../../../etl/sources/gias_schools/read.ts';
import { GIAS_REQUIRED } from '../../../schemas/sources/gias.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { readAllRows } from '../../support/read-all.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

/** Windows-1252 bytes of a text that only uses Latin-1 characters (° and é are 0xB0 and 0xE9 in both). */
const cp1252 = (s: string) => Buffer.from(s, 'latin1');
const q = (cells: (string | number)[]) => cells.map((c) => (typeof c === 'number' ? String(c) : `"${c}"`)).join(',');

describe('giasDate', () => {
  it('turns real dd-mm-yyyy days into ISO and passes anything else through', () => {
    expect(giasDate('05-11-2014')).toBe('2014-11-05');
    expect(giasDate('')).toBeUndefined();
    expect(giasDate('31-02-2014')).toBe('31-02-2014');
    expect(giasDate('2014-11-05')).toBe('2014-11-05');
  });
});

describe('readGiasSchools on fixtures', () => {
  const header = q([...GIAS_REQUIRED, 'OfstedRating (name)', 'OfstedLastInsp', 'CloseDate']);
  const row = (over: Partial<Record<string, string | number>> = {}) => {
    const base: Record<string, string | number> = {
      URN: 108299, EstablishmentName: 'École Saint-Exupéry 82°', 'TypeOfEstablishment (name)': 'Academy converter',
      'EstablishmentStatus (name)': 'Open', 'PhaseOfEducation (name)': 'Primary', StatutoryLowAge: 4, StatutoryHighAge: 11,
      SchoolCapacity: 420, NumberOfPupils: '401', Postcode: 'bs1 5lj', Easting: 358500, Northing: 173000,
      'OfstedRating (name)': 'Good', OfstedLastInsp: '12-03-2019', CloseDate: '',
    };
    return q(Object.values({ ...base, ...over }) as (string | number)[]);
  };

  it('decodes Windows-1252 (é, °), reads CRLF with no final newline, converts BNG to WGS84', async () => {
    const text = [header, row(), row({ URN: 108300, Easting: '', Northing: '', 'OfstedRating (name)': '', OfstedLastInsp: '' })].join('\r\n');
    const { rows, rejects } = await readAllRows(readGiasSchools, writeFixture(tmp.dir, 'edubase.csv', cp1252(text)));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ urn: 108299, name: 'École Saint-Exupéry 82°', status: 'Open', phase: 'Primary',
      low_age: 4, high_age: 11, pupils: 401, capacity: 420, postcode: 'BS1 5LJ', ofsted_rating: 'Good',
      ofsted_date: '2019-03-12', easting: 358500, northing: 173000 });
    // 358500, 173000 is central Bristol (about 51.45 N, 2.6 W); the grid conversion itself is tested in grid.test.ts.
    expect(rows[0]!.lat).toBeCloseTo(51.45, 1);
    expect(rows[0]!.lng).toBeCloseTo(-2.6, 1);
    expect(rows[1]).toMatchObject({ urn: 108300 });
    expect(rows[1]!.lat).toBeUndefined();
    expect(rows[1]!.ofsted_rating).toBeUndefined();
  });

  it('rejects bad rows by field and keeps reading', async () => {
    const text = [header,
      row({ URN: 'x1' }),
      row({ 'EstablishmentStatus (name)': 'Shut' }),
      row({ 'PhaseOfEducation (name)': 'Sixth' }),
      row({ NumberOfPupils: '-3' }),
      row({ OfstedLastInsp: '31-02-2019' }),
      row({ 'OfstedRating (name)': 'Fine' }),
      row({ URN: 5 }),
    ].join('\r\n') + '\r\n';
    const { rows, rejects } = await readAllRows(readGiasSchools, writeFixture(tmp.dir, 'bad.csv', cp1252(text)));
    expect(rows.map((r) => r.urn)).toEqual([5]);
    expect(rejects.toJSON().by_reason).toEqual({ 'invalid:urn': 1, 'invalid:status': 1, 'invalid:phase': 1,
      'invalid:pupils': 1, 'invalid:ofsted_date': 1, 'invalid:ofsted_rating': 1 });
  });

  it('refuses a file without the GIAS columns', async () => {
    await expect(readAllRows(readGiasSchools, writeFixture(tmp.dir, 'links.csv', '"URN","LinkURN"\r\n1,2\r\n')))
      .rejects.toThrow(/not a GIAS establishments extract \(no EstablishmentName/);
  });
});

const EDUBASE = 'gias/edubase_format_sample_2018/edubase.csv';
const LINKS = 'gias/links_edubasealldata_2025-04-22/links_edubasealldata20250422.csv';

describe.skipIf(!hasRaw(EDUBASE))('readGiasSchools on the real 2018 extract sample', () => {
  // Values read independently with Python's csv module (encoding cp1252) from the 3 rows.
  it('reads its 3 schools with every field the API serves', async () => {
    const { rows, rejects } = await readAllRows(readGiasSchools, rawPath(EDUBASE));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => r.urn)).toEqual([100492, 100459, 100494]);
    expect(rows[0]).toMatchObject({ urn: 100492, name: "St Thomas' CofE Primary School", type: 'Voluntary aided school',
      status: 'Open', phase: 'Primary', low_age: 3, high_age: 11, pupils: 237, capacity: 236, ofsted_rating: 'Outstanding',
      ofsted_date: '2014-11-05', postcode: 'W10 5EF', la_name: 'Kensington and Chelsea', district_code: 'E09000020',
      uprn: 217120632, easting: 524351, northing: 182075 });
    expect(rows[1]).toMatchObject({ name: 'St Aloysius RC College', phase: 'Secondary', low_age: 11, high_age: 19,
      pupils: 1104, capacity: 1150, ofsted_rating: 'Requires improvement', ofsted_date: '2018-11-07', postcode: 'N6 5LY' });
    expect(rows[2]).toMatchObject({ pupils: 225, capacity: 315, ofsted_rating: 'Good', ofsted_date: '2018-01-10' });
    // W10 5EF is in North Kensington, about 51.52 N 0.21 W.
    expect(rows[0]!.lat).toBeCloseTo(51.52, 1);
    expect(rows[0]!.lng).toBeCloseTo(-0.21, 1);
  });
});

describe.skipIf(!hasRaw(LINKS))('readGiasLinks on the real 2025 links extract (Windows-1252, CRLF, no final newline)', () => {
  it('reads all 33,801 links, decodes ° and à, and keeps the last record', async () => {
    const { rows, rejects } = await readAllRows(readGiasLinks, rawPath(LINKS));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(33_801);
    expect(rows.filter((r) => r.established === undefined)).toHaveLength(8_253);
    expect(rows.filter((r) => r.link_type === 'Successor')).toHaveLength(16_451);
    expect(rows.some((r) => r.link_name.includes('\uFFFD'))).toBe(false);
    expect(rows.filter((r) => /[^\x00-\x7f]/.test(r.link_name))).toHaveLength(8);
    expect(rows.find((r) => r.urn === 109401)).toEqual({ urn: 109401, link_urn: 148296, link_name: 'North Star 82°',
      link_type: 'Successor', established: '2020-12-31' });
    expect(rows.find((r) => r.urn === 108299)?.link_name).toBe('St Thomas à Becket Catholic Secondary School, A Voluntary Academy');
    expect(rows.at(-1)).toEqual({ urn: 402479, link_urn: 400242, link_name: 'Ysgol Cystennin', link_type: 'Predecessor - amalgamated', established: '2025-03-07' });
    expect(rows[0]).toEqual({ urn: 100006, link_urn: 134643, link_name: 'CCfL Key Stage 3 PRU', link_type: 'Predecessor - merged', established: '2022-01-01' });
  });
});
