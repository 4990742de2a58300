import { OsUprnRow } from '../../schemas/sources/os-uprn.ts';
import { headerIndex, readCsvRecords } from './csv.ts';
import type { RejectLog } from './rejects.ts';
import { validateRow } from './validate.ts';

/** Streams OS Open UPRN (`osopenuprn_*.csv`): header row, then UPRN, X, Y, LATITUDE, LONGITUDE. */
export async function* readOsUprn(path: string, rejects: RejectLog): AsyncGenerator<OsUprnRow> {
  let col: Map<string, number> | undefined;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields).index;
      for (const need of ['UPRN', 'X_COORDINATE', 'Y_COORDINATE', 'LATITUDE', 'LONGITUDE']) {
        if (!col.has(need)) throw new Error(`${path}: not an OS Open UPRN file (no ${need} column)`);
      }
      continue;
    }
    const get = (name: string) => fields[col!.get(name)!]?.trim() ?? '';
    const row = validateRow(
      OsUprnRow,
      { uprn: get('UPRN'), x: get('X_COORDINATE'), y: get('Y_COORDINATE'), lat: get('LATITUDE'), lng: get('LONGITUDE') },
      rejects,
      line,
    );
    if (row) yield row;
  }
}
