import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readPoliceCrime, streetFileIdentity } from '../../../etl/sources/police_crime/read.ts';
import { POLICE_STREET_HEADER } from '../../../schemas/sources/police-crime.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { readAllRows } from '../../support/read-all.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);
const readAll = (path: string) => readAllRows(readPoliceCrime, path);
const ID = 'a'.repeat(64);

describe('streetFileIdentity', () => {
  it('takes month and force from the name and the release from the archive folder', () => {
    expect(streetFileIdentity('/s/crime/2024-10/2023-01/2023-01-city-of-london-street.csv'))
      .toEqual({ month: '2023-01', force: 'city-of-london', release: '2024-10' });
    expect(streetFileIdentity('/raw/police_uk/city_of_london_2023-01_release_2023-05/2023-01-city-of-london-street.csv'))
      .toEqual({ month: '2023-01', force: 'city-of-london', release: '2023-05' });
    // No release folder: the month's first release.
    expect(streetFileIdentity('/raw/police_uk/avon_and_somerset_2023-01/2023-01-avon-and-somerset-street.csv'))
      .toEqual({ month: '2023-01', force: 'avon-and-somerset', release: '2023-01' });
    expect(streetFileIdentity('/x/2023-01-avon-and-somerset-outcomes.csv')).toBeUndefined();
  });
});

describe('readPoliceCrime on fixtures', () => {
  const dir = join(tmp.dir, '2023-03', '2023-02');
  mkdirSync(dir, { recursive: true });
  const line = (cells: Record<number, string>) => POLICE_STREET_HEADER.map((_, i) => cells[i] ?? '').join(',');
  const good = { 0: ID, 1: '2023-02', 2: 'Avon and Somerset Constabulary', 3: 'Avon and Somerset Constabulary',
    4: '-2.59', 5: '51.45', 6: 'On or near Park Street', 7: 'E01014540', 8: 'Bristol 032A', 9: 'Burglary', 10: 'Under investigation' };

  it('reads a crime, an ASB row without ID, and a row without position; rejects bad rows by reason', async () => {
    const text = [
      POLICE_STREET_HEADER.join(','),
      line(good),
      line({ ...good, 0: '', 9: 'Anti-social behaviour', 10: '', 6: 'On or near ' }),
      line({ ...good, 4: '', 5: '', 6: 'No Location', 7: '', 8: '' }),
      line({ ...good, 1: '2023-01' }),                 // another month in this month's file
      line({ ...good, 9: 'Jaywalking' }),              // not a police.uk category
      line({ ...good, 0: 'abc' }),                     // not a Crime ID
      line({ ...good, 5: '' }),                        // longitude without latitude
      line({ ...good, 5: 'north' }),                   // latitude not a number
      line(good) + ',extra',                           // wrong width
    ].join('\r\n') + '\r\n';
    const { rows, rejects } = await readAll(writeFixture(dir, '2023-02-avon-and-somerset-street.csv', text));
    expect(rows).toEqual([
      { crime_id: ID, month: '2023-02', release: '2023-03', force: 'avon-and-somerset',
        reported_by: 'Avon and Somerset Constabulary', falls_within: 'Avon and Somerset Constabulary', lat: 51.45, lng: -2.59,
        location: 'Park Street', lsoa_code: 'E01014540', lsoa_name: 'Bristol 032A', crime_type: 'Burglary',
        last_outcome: 'Under investigation' },
      { month: '2023-02', release: '2023-03', force: 'avon-and-somerset',
        reported_by: 'Avon and Somerset Constabulary', falls_within: 'Avon and Somerset Constabulary', lat: 51.45, lng: -2.59,
        lsoa_code: 'E01014540', lsoa_name: 'Bristol 032A', crime_type: 'Anti-social behaviour' },
      { crime_id: ID, month: '2023-02', release: '2023-03', force: 'avon-and-somerset',
        reported_by: 'Avon and Somerset Constabulary', falls_within: 'Avon and Somerset Constabulary',
        location: 'No Location', crime_type: 'Burglary', last_outcome: 'Under investigation' },
    ]);
    expect(rejects.toJSON().by_reason).toEqual({
      month_not_file_month: 1, 'invalid:crime_type': 1, 'invalid:crime_id': 1, 'invalid:lat': 2, wrong_column_count: 1,
    });
  });

  it('refuses a file that is not a street file', async () => {
    await expect(readAll(writeFixture(dir, '2023-02-x-street.csv', 'Crime ID,Month\n'))).rejects.toThrow(/no Falls within/);
    await expect(readAll(writeFixture(dir, 'crimes.csv', POLICE_STREET_HEADER.join(',')))).rejects.toThrow(/not a police.uk street file/);
  });
});

const AVON = 'police_uk/avon_and_somerset_2023-01/2023-01-avon-and-somerset-street.csv';
const COL_2023 = 'police_uk/city_of_london_2023-01_release_2023-05/2023-01-city-of-london-street.csv';
const COL_2024 = 'police_uk/city_of_london_2023-01_release_2024-10/2023-01-city-of-london-street.csv';

// Counts checked independently with Python's csv module (DictReader over each file).
describe.skipIf(!hasRaw(AVON))('readPoliceCrime on the real Avon and Somerset month', () => {
  it('reads all 12,566 rows: 1,511 ASB without ID, 758 without position, 2,053 unnamed snap points, 0 rejects', async () => {
    const { rows, rejects } = await readAll(rawPath(AVON));
    expect(rejects.toJSON().by_reason).toEqual({});
    expect(rows).toHaveLength(12_566);
    expect(rows.filter((r) => r.crime_id === undefined)).toHaveLength(1_511);
    expect(rows.filter((r) => r.crime_id === undefined).every((r) => r.crime_type === 'Anti-social behaviour')).toBe(true);
    expect(rows.filter((r) => r.lat === undefined)).toHaveLength(758);
    expect(rows.filter((r) => r.lat === undefined).every((r) => r.lsoa_code === undefined)).toBe(true);
    expect(rows.filter((r) => r.location === undefined)).toHaveLength(2_053);
    expect(new Set(rows.map((r) => r.crime_type)).size).toBe(14);
    expect(rows.filter((r) => r.lsoa_code?.startsWith('W01'))).toHaveLength(1); // Newport, another force's area
    expect(rows[0]).toEqual({ month: '2023-01', release: '2023-01', force: 'avon-and-somerset',
      reported_by: 'Avon and Somerset Constabulary', falls_within: 'Avon and Somerset Constabulary',
      lat: 51.424619, lng: -2.491616, location: 'Julius Place', lsoa_code: 'E01014399',
      lsoa_name: 'Bath and North East Somerset 001A', crime_type: 'Anti-social behaviour' });
  });
});

describe.skipIf(!hasRaw(COL_2023) || !hasRaw(COL_2024))('readPoliceCrime on the two City of London releases of 2023-01', () => {
  it('reads 719 rows from each, tagged with their release; the later has newer outcomes for the same crimes', async () => {
    const early = await readAll(rawPath(COL_2023));
    const late = await readAll(rawPath(COL_2024));
    for (const r of [early, late]) {
      expect(r.rejects.total).toBe(0);
      expect(r.rows).toHaveLength(719);
      expect(r.rows.filter((x) => x.crime_id === undefined)).toHaveLength(56);
      expect(r.rows.filter((x) => x.lat === undefined)).toHaveLength(45);
    }
    expect(new Set(early.rows.map((r) => r.release))).toEqual(new Set(['2023-05']));
    expect(new Set(late.rows.map((r) => r.release))).toEqual(new Set(['2024-10']));
    const ids = (rows: typeof early.rows) => new Set(rows.flatMap((r) => (r.crime_id ? [r.crime_id] : [])));
    expect(ids(late.rows)).toEqual(ids(early.rows));
    const pending = (rows: typeof early.rows) => rows.filter((r) => r.last_outcome === 'Under investigation').length;
    expect(pending(early.rows)).toBe(243);
    expect(pending(late.rows)).toBe(0);
    expect(early.rows.filter((r) => r.location === undefined)).toHaveLength(120);
    expect(late.rows.filter((r) => r.location === undefined)).toHaveLength(104);
  });
});
