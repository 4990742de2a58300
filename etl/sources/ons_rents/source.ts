import type { OnsRentsRow } from '../../../schemas/sources/rents.ts';
import { notCsv, same, source } from '../source.ts';
import { readOnsRents } from './read.ts';

export const onsRents = source<OnsRentsRow, 'ons_rents'>({
  kind: 'ons_rents', version: 1,
  folders: ['rents'],
  sniff: async (f) => notCsv(f) ?? ((await f.head()).includes('bedroom category') || undefined),
  table: 'stg_ons_rents',
  read: readOnsRents,
  columns: [
    ...same<OnsRentsRow>('VARCHAR', 'la_code', 'area_code', 'area_name', 'category'),
    ...same<OnsRentsRow>('INTEGER', 'bedrooms', 'count'),
    ...same<OnsRentsRow>('DOUBLE', 'mean', 'lower_quartile', 'median', 'upper_quartile'),
  ],
});
