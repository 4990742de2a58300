import type { AirbnbReviewRow } from '../../../schemas/sources/airbnb.ts';
import { notCsv, same, source } from '../source.ts';
import { airbnbReviewsNative } from './native.ts';
import { readAirbnbReviews } from './read.ts';

export const airbnbReviews = source<AirbnbReviewRow, 'airbnb_reviews'>({
  kind: 'airbnb_reviews', version: 1,
  folders: ['airbnb'],
  sniff: (f) => notCsv(f) ?? (f.name.startsWith('reviews') || undefined),
  unclaimed: 'unknown Inside Airbnb file',
  table: 'stg_airbnb_reviews',
  read: readAirbnbReviews,
  native: airbnbReviewsNative,
  columns: [...same<AirbnbReviewRow>('VARCHAR', 'listing_id', 'date', 'id', 'reviewer_id')],
  date: (r) => r.date,
});
