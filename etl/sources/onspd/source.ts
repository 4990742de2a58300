import type { OnspdRow } from '../../../schemas/sources/onspd.ts';
import { notCsv, same, source, type SniffedFile } from '../source.ts';
import { readOnspd } from './read.ts';

/** The postcode products' documentation folders hold CSV files too. */
export const postcodeDocs = (f: SniffedFile) => (f.parts.includes('doc') ? { reason: 'documentation' } : undefined);

const yyyymmToDate = (v: string | undefined) => (v ? `${v.slice(0, 4)}-${v.slice(4, 6)}-01` : undefined);

export const onspd = source<OnspdRow, 'onspd'>({
  kind: 'onspd', version: 1,
  folders: ['postcodes'],
  sniff: async (f) => notCsv(f) ?? postcodeDocs(f) ?? (/^(pcd7|pcd),/.test(await f.head()) || undefined),
  table: 'stg_onspd',
  read: readOnspd,
  columns: [
    ...same<OnspdRow>('VARCHAR', 'pcds', 'dointr', 'doterm'),
    ...same<OnspdRow>('BOOLEAN', 'terminated'),
    ...same<OnspdRow>('DOUBLE', 'oseast1m', 'osnrth1m', 'lat', 'lng'),
    ...same<OnspdRow>('VARCHAR', 'ctry', 'country', 'oslaua', 'osward', 'rgn', 'pcon', 'lsoa21', 'msoa21'),
    ...same<OnspdRow>('INTEGER', 'imd'),
  ],
  date: (r) => yyyymmToDate(r.doterm ?? r.dointr),
});
