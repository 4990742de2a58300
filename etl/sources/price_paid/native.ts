import { PPD_COLUMNS } from '../../../schemas/sources/price-paid.ts';
import { GUID_CELL } from './read.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { type NativeKind } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const pricePaidNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  widthReason: 'wrong_column_count',
  // Only the headerless bulk layout; the report-builder CSV (header, other order, glued header) stays with the TS reader.
  layout(first) {
    if (first.length !== PPD_COLUMNS.length) return undefined;
    const cell = first[0]!.trim();
    const header = cell.toLowerCase() === PPD_COLUMNS[0];
    if (!header && !GUID_CELL.test(cell)) return undefined;
    return { names: first.map((_, i) => `c${i}`), header };
  },
};
