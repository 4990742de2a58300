import { afterAll, describe, expect, it } from 'vitest';
import { readAirbnbListings } from '../../../etl/sources/airbnb_listings/read.ts';
import { readAirbnbReviews } from '../../../etl/sources/airbnb_reviews/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { AIRBNB_REVIEWS_HEADER, AIRBNB_REVIEWS_SUMMARY_HEADER, AirbnbReviewRow } from '../../../schemas/sources/airbnb.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readAirbnbReviews, path);

const DETAILED = AIRBNB_REVIEWS_HEADER.join(',');
const SUMMARY = AIRBNB_REVIEWS_SUMMARY_HEADER.join(',');

describe('readAirbnbReviews on fixtures', () => {
  it('reads the summary file, gzip or not', async () => {
    const text = `${SUMMARY}\n70820,2013-10-18\n1234567890123456789,2020-03-19\n`;
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `sum${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { listing_id: '70820', date: '2013-10-18' },
        { listing_id: '1234567890123456789', date: '2020-03-19' },
      ]);
    }
  });

  it('reads the detailed file with multi-line comments (CR, CRLF, LF) and 19-digit ids', async () => {
    const comment = 'Lovely stay, "spotless".\r\nWould return.\rThanks Sarah!\nBye';
    const text = `${DETAILED}\r\n` +
      `70820,1000000000000000001,2013-10-18,9876543,Anna,"${comment.replace(/"/g, '""')}"\r\n` +
      '70820,1234567890123456789,2025-09-20,555, ,\r\n' +
      '117122,42,2011-07-04,7,Bob,Short and sweet\r\n';
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `det${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { listing_id: '70820', id: '1000000000000000001', date: '2013-10-18', reviewer_id: '9876543', reviewer_name: 'Anna', comments: comment },
        { listing_id: '70820', id: '1234567890123456789', date: '2025-09-20', reviewer_id: '555', reviewer_name: undefined, comments: undefined },
        { listing_id: '117122', id: '42', date: '2011-07-04', reviewer_id: '7', reviewer_name: 'Bob', comments: 'Short and sweet' },
      ]);
      for (const r of rows) expect(AirbnbReviewRow.safeParse(r).success).toBe(true);
    }
  });

  it('rejects malformed detailed rows by reason, with exact counts, and keeps reading', async () => {
    const text = [
      DETAILED,
      'abc,1,2013-10-18,9,Anna,ok', // invalid:listing_id
      '70820,1,18/10/2013,9,Anna,ok', // invalid:date
      '70820,,2013-10-18,9,Anna,ok', // invalid:id
      '70820,1e18,2013-10-18,9,Anna,ok', // invalid:id
      '70820,1,2013-10-18,x9,Anna,ok', // invalid:reviewer_id
      '70820,1,2013-10-18,9,Anna', // column_count
      '70820,1,2013-10-18,9,Anna,"unclosed, quote', // csv_syntax: the quote runs to the end of the file
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad-det.csv', text));
    expect(rows).toEqual([]);
    expect(rejects.toJSON().by_reason).toEqual({
      column_count: 1,
      csv_syntax: 1,
      'invalid:date': 1,
      'invalid:id': 2,
      'invalid:listing_id': 1,
      'invalid:reviewer_id': 1,
    });
  });

  it('rejects malformed summary rows by reason and keeps reading', async () => {
    const text = `${SUMMARY}\n70820,2013-10-18\n-1,2013-10-18\n70820,\n70820,2013-02-30x\n70820\n70820,2013-10-19\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad-sum.csv', text));
    expect(rows.map((r) => r.date)).toEqual(['2013-10-18', '2013-10-19']);
    expect(rejects.toJSON().by_reason).toEqual({ column_count: 1, 'invalid:date': 2, 'invalid:listing_id': 1 });
  });

  it('refuses files that are not Inside Airbnb reviews', async () => {
    const calendar = writeFixture(tmp.dir, 'id-only.csv', 'id,date\n1,2020-01-01\n');
    await expect(readAll(calendar)).rejects.toThrow(/not an Inside Airbnb reviews file \(no listing_id column\)/);
    const partial = writeFixture(tmp.dir, 'partial.csv', 'listing_id,date,comments\n1,2020-01-01,hi\n');
    await expect(readAll(partial)).rejects.toThrow(/not an Inside Airbnb reviews file \(no id column\)/);
  });
});

const REVIEWS = 'airbnb/bristol_2020-05_reviews/reviews.csv.gz';

describe.skipIf(!hasRaw(REVIEWS))('readAirbnbReviews on the real Bristol 2020 summary reviews', () => {
  it('reads 106,751 reviews of 2,447 listings, 2011-07-04 .. 2020-03-19', async () => {
    const { rows, rejects } = await readAll(rawPath(REVIEWS));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(106_751);
    expect(new Set(rows.map((r) => r.listing_id)).size).toBe(2447);
    const dates = rows.map((r) => r.date).sort();
    expect([dates[0], dates.at(-1)]).toEqual(['2011-07-04', '2020-03-19']);
    expect(rows.every((r) => r.id === undefined && r.comments === undefined)).toBe(true);
  });

  it.skipIf(!hasRaw('airbnb/bristol_2025-09-26/listings.csv'))('shares 503 listing ids with the 2025 listings', async () => {
    const ids2025 = new Set<string>();
    for await (const l of readAirbnbListings(rawPath('airbnb/bristol_2025-09-26/listings.csv'), new RejectLog())) ids2025.add(l.id);
    const { rows } = await readAll(rawPath(REVIEWS));
    expect(new Set(rows.map((r) => r.listing_id).filter((id) => ids2025.has(id))).size).toBe(503);
  });
});
