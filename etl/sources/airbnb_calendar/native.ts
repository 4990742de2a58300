import { AIRBNB_CALENDAR_HEADER } from '../../../schemas/sources/airbnb.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { byOwnNames, type NativeKind } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const airbnbCalendarNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  widthReason: 'column_count',
  layout: (first) => byOwnNames(first, AIRBNB_CALENDAR_HEADER),
};
