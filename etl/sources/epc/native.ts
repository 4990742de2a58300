import { EPC_DIRECT, EPC_ID_COLUMNS, EPC_REQUIRED } from './read.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { has, named, type NativeKind, rolesIn } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const epcNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  candidates: { sql: sqlFolder(import.meta.dirname), macro: 'native_macro_epc_get' },
  widthReason: 'wrong_column_count',
  layout(first) {
    const header = first.map((f) => f.trim().toUpperCase());
    const id = EPC_ID_COLUMNS.find((c) => header.includes(c));
    if (id === undefined || !has(header, EPC_REQUIRED)) return undefined;
    const roles = rolesIn(header, { ...EPC_DIRECT, uprn: 'UPRN', building_reference_number: 'BUILDING_REFERENCE_NUMBER', id });
    return { names: named(first.length, roles), header: true };
  },
};
