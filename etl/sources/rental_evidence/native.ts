import { RENTAL_EVIDENCE_HEADER } from '../../../schemas/sources/rents.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { byOwnNames, type NativeKind } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const rentalEvidenceNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  // No widthReason: the reader reads a short row's missing cells as blank, so such a file is read by it.
  layout: (first) => byOwnNames(first, RENTAL_EVIDENCE_HEADER),
};
