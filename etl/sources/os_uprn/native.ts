import { OS_UPRN_HEADER } from '../../../schemas/sources/os-uprn.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { has, named, type NativeKind, rolesIn } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const osUprnNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  layout(first) {
    const header = first.map((f) => f.trim());
    if (!has(header, OS_UPRN_HEADER)) return undefined;
    const roles = rolesIn(header, { uprn: 'UPRN', x: 'X_COORDINATE', y: 'Y_COORDINATE', lat: 'LATITUDE', lng: 'LONGITUDE' });
    return { names: named(first.length, roles), header: true };
  },
};
