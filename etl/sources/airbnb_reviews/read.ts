import {
  AIRBNB_REVIEWS_HEADER,
  AIRBNB_REVIEWS_SUMMARY_HEADER,
  type AirbnbReviewRow,
  isIsoDate,
  parseId,
} from '../../../schemas/sources/airbnb.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';

/** Column indexes in header order; `detailed` when the file has the reviewer and comment columns. */
interface Layout {
  detailed: boolean;
  width: number;
  listingId: number;
  date: number;
  id: number;
  reviewerId: number;
  reviewerName: number;
  comments: number;
}

function layout(header: string[], path: string): Layout {
  const col = headerIndex(header).index;
  const detailed = col.has('comments');
  const need = detailed ? AIRBNB_REVIEWS_HEADER : AIRBNB_REVIEWS_SUMMARY_HEADER;
  for (const c of need) {
    if (!col.has(c)) throw new Error(`${path}: not an Inside Airbnb reviews file (no ${c} column)`);
  }
  const at = (c: string) => col.get(c) ?? -1;
  return {
    detailed,
    width: header.length,
    listingId: at('listing_id'),
    date: at('date'),
    id: at('id'),
    reviewerId: at('reviewer_id'),
    reviewerName: at('reviewer_name'),
    comments: at('comments'),
  };
}

/**
 * Streams Inside Airbnb reviews: the summary `reviews.csv` (listing_id, date) or the detailed
 * `reviews.csv.gz` (listing_id, id, date, reviewer_id, reviewer_name, comments; comments span
 * lines), told apart by header. Ids stay decimal strings. Hand-checked like the calendar, since
 * a city has hundreds of thousands of reviews. Blank comments or reviewer names are undefined.
 */
export async function* readAirbnbReviews(path: string, rejects: RejectLog): AsyncGenerator<AirbnbReviewRow> {
  let L: Layout | undefined;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!L) {
      L = layout(fields, path);
      continue;
    }
    if (fields.length !== L.width) {
      rejects.add('column_count', line, `${fields.length} fields, header has ${L.width}`);
      continue;
    }
    const listing_id = parseId(fields[L.listingId]);
    if (listing_id === undefined) { rejects.add('invalid:listing_id', line, fields[L.listingId]); continue; }
    const date = fields[L.date]!;
    if (!isIsoDate(date)) { rejects.add('invalid:date', line, date); continue; }
    if (!L.detailed) {
      yield { listing_id, date };
      continue;
    }
    const id = parseId(fields[L.id]);
    if (id === undefined) { rejects.add('invalid:id', line, fields[L.id]); continue; }
    const reviewer_id = parseId(fields[L.reviewerId]);
    if (reviewer_id === undefined) { rejects.add('invalid:reviewer_id', line, fields[L.reviewerId]); continue; }
    const name = fields[L.reviewerName]!.trim();
    const comments = fields[L.comments]!;
    yield {
      listing_id,
      date,
      id,
      reviewer_id,
      reviewer_name: name === '' ? undefined : name,
      comments: comments.trim() === '' ? undefined : comments,
    };
  }
}
