import { OS_UPRN_HEADER, OsUprnRow } from '../../../schemas/sources/os-uprn.ts';
import { readHeadedCsv } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Streams OS Open UPRN (`osopenuprn_*.csv`): header row, then UPRN, X, Y, LATITUDE, LONGITUDE. */
export async function* readOsUprn(path: string, rejects: RejectLog): AsyncGenerator<OsUprnRow> {
  const records = readHeadedCsv(path, rejects, { what: 'an OS Open UPRN file', required: OS_UPRN_HEADER });
  for await (const r of records) {
    const get = (name: string) => r.get(name)?.trim() ?? '';
    const row = validateRow(
      OsUprnRow,
      { uprn: get('UPRN'), x: get('X_COORDINATE'), y: get('Y_COORDINATE'), lat: get('LATITUDE'), lng: get('LONGITUDE') },
      rejects,
      r.line,
    );
    if (row) yield row;
  }
}
