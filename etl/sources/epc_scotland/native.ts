import { join } from 'node:path';
import { SCOTTISH_EPC_DIRECT, scottishEpcHeader } from './read.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { named, type NativeKind, rolesAt } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, `native_candidates.sql` here, then `../epc/`'s check and insert). */
export const epcScotlandNative: NativeKind = {
  // The certificates' checking and inserting SQL is England and Wales's, fed by this file's candidates.
  sql: sqlFolder(join(import.meta.dirname, '..', 'epc')),
  candidates: { sql: sqlFolder(import.meta.dirname), macro: 'native_macro_epc_scotland_get' },
  widthReason: 'wrong_column_count',
  // The reader takes either header row first and skips a second one, mapping columns from
  // the row that names them (rather than describes them).
  layout(first, second) {
    const one = scottishEpcHeader(first);
    // The reader takes the record after a refused one as its second: left to it.
    if (!one || second === 'refused') return undefined;
    const two = second && scottishEpcHeader(second.fields);
    // DuckDB skips lines, not records: a second header row is skipped only if it is line 2; and
    // it has the first's width, or DuckDB would refuse it as a row where the reader skips it.
    if (two && (second.line !== 2 || second.fields.length !== first.length)) return undefined;
    const header = two && !one.named && two.named ? two : one;
    const roles = rolesAt(header.col, { report: 'REPORT_REFERENCE_NUMBER', brn: 'BUILDING_REFERENCE_NUMBER', osg: 'OSG_REFERENCE_NUMBER', ...SCOTTISH_EPC_DIRECT });
    return { names: named(first.length, roles), header: true, skip: two ? 1 : 0 };
  },
};
