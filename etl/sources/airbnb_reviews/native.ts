import { AIRBNB_REVIEWS_HEADER, AIRBNB_REVIEWS_SUMMARY_HEADER } from '../../../schemas/sources/airbnb.ts';
import { sqlFolder } from '../../pipeline/sql.ts';
import { has, named, type NativeKind, rolesIn } from '../native-layout.ts';

/** The native path (DuckDB's CSV reader, then `native_check.sql` and `native_insert.sql` here). */
export const airbnbReviewsNative: NativeKind = {
  sql: sqlFolder(import.meta.dirname),
  widthReason: 'column_count',
  layout(first) {
    const header = first.map((f) => f.trim());
    const detailed = header.includes('comments');
    if (!has(header, detailed ? AIRBNB_REVIEWS_HEADER : AIRBNB_REVIEWS_SUMMARY_HEADER)) return undefined;
    const roles = rolesIn(header, { listing_id: 'listing_id', date: 'date', ...(detailed ? { id: 'id', reviewer_id: 'reviewer_id' } : {}) });
    return { names: named(first.length, roles), header: true, params: { detailed } };
  },
};
