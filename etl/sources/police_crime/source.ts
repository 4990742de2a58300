import type { PoliceCrimeRow } from '../../../schemas/sources/police-crime.ts';
import { same, source } from '../source.ts';
import { readPoliceCrime } from './read.ts';

export const policeCrime = source<PoliceCrimeRow, 'police_crime'>({
  kind: 'police_crime', version: 1,
  folders: ['crime', 'police_uk'],
  sniff: (f) => /-street\.csv(\.gz)?$/.test(f.name) || { reason: 'not a police.uk street-level crime file' },
  table: 'stg_police_crime',
  read: readPoliceCrime,
  columns: [
    ...same<PoliceCrimeRow>('VARCHAR', 'crime_id', 'month', 'release', 'force', 'reported_by', 'falls_within'),
    ...same<PoliceCrimeRow>('DOUBLE', 'lat', 'lng'),
    ...same<PoliceCrimeRow>('VARCHAR', 'location', 'lsoa_code', 'lsoa_name', 'crime_type', 'last_outcome'),
  ],
  // A month speaks for its last day; the first is enough for the as-of month.
  date: (r) => `${r.month}-01`,
});
