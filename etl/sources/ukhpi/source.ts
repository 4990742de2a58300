import type { UkHpiRow } from '../../../schemas/sources/ukhpi.ts';
import { notCsv, same, source } from '../source.ts';
import { readUkHpi } from './read.ts';

export const ukhpi = source<UkHpiRow, 'ukhpi'>({
  kind: 'ukhpi', version: 1,
  folders: ['hpi', 'ukhpi'],
  // The full file, or the HPI app's download (quoted or not).
  sniff: async (f) => {
    const notOurs = notCsv(f);
    if (notOurs) return notOurs;
    const h = await f.head();
    const ours = h.startsWith('date,regionname,areacode') || h.startsWith('"name","uri","region gss code","period"') || h.startsWith('name,uri,region gss code,period');
    return ours || { reason: 'not a UK HPI full file or app download' };
  },
  table: 'stg_ukhpi',
  read: readUkHpi,
  columns: [
    ...same<UkHpiRow>('VARCHAR', 'month', 'region_name', 'area_code'),
    ...same<UkHpiRow>('DOUBLE', 'average_price', 'index', 'change_1m_pct', 'change_12m_pct'),
    ...same<UkHpiRow>('INTEGER', 'sales_volume'),
    ...same<UkHpiRow>('DOUBLE', 'detached_price', 'detached_index', 'semi_detached_price', 'semi_detached_index',
      'terraced_price', 'terraced_index', 'flat_price', 'flat_index'),
  ],
  date: (r) => `${r.month}-01`,
});
