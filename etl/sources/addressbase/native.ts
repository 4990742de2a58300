import { ADDRESSBASE_COLUMNS, ADDRESSBASE_REQUIRED } from './read.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { has, named, type NativeKind, rolesIn } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const addressbaseNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  widthReason: 'wrong_column_count',
  layout(first) {
    const header = first.map((f) => f.trim().toUpperCase());
    if (!has(header, ADDRESSBASE_REQUIRED)) return undefined;
    return { names: named(first.length, rolesIn(header, ADDRESSBASE_COLUMNS)), header: true };
  },
};
