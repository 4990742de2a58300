import type { GiasSchoolRow } from '../../../schemas/sources/gias.ts';
import { notCsv, same, source } from '../source.ts';
import { readGiasSchools } from './read.ts';

export const giasSchools = source<GiasSchoolRow, 'gias_schools'>({
  kind: 'gias_schools', version: 1,
  folders: ['gias'],
  sniff: async (f) => notCsv(f) ?? ((await f.head()).includes('"establishmentname"') || { reason: 'not a GIAS establishments extract (the links extract, say)' }),
  table: 'stg_gias_schools',
  read: readGiasSchools,
  columns: [
    ...same<GiasSchoolRow>('INTEGER', 'urn'),
    ...same<GiasSchoolRow>('VARCHAR', 'name', 'type', 'status', 'phase'),
    ...same<GiasSchoolRow>('INTEGER', 'low_age', 'high_age', 'pupils', 'capacity'),
    ...same<GiasSchoolRow>('VARCHAR', 'ofsted_rating', 'ofsted_date', 'open_date', 'close_date', 'street', 'town', 'postcode', 'la_name', 'district_code'),
    ...same<GiasSchoolRow>('BIGINT', 'uprn'),
    ...same<GiasSchoolRow>('DOUBLE', 'easting', 'northing', 'lat', 'lng'),
  ],
  date: (r) => r.ofsted_date,
});
