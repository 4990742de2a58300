import type { OsUprnRow } from '../../../schemas/sources/os-uprn.ts';
import { notCsv, same, source } from '../source.ts';
import { osUprnNative } from './native.ts';
import { readOsUprn } from './read.ts';

export const osUprn = source<OsUprnRow, 'os_uprn'>({
  kind: 'os_uprn', version: 1,
  folders: ['uprn'],
  sniff: (f) => notCsv(f) ?? true,
  table: 'stg_os_uprn',
  read: readOsUprn,
  native: osUprnNative,
  columns: [...same<OsUprnRow>('BIGINT', 'uprn'), ...same<OsUprnRow>('DOUBLE', 'x', 'y', 'lat', 'lng')],
});
