import { afterAll, describe, expect, it } from 'vitest';
import { readAirbnbListings } from '../../../etl/sources/airbnb_listings/read.ts';
import { AIRBNB_LISTINGS_HEADER, AIRBNB_LISTINGS_SUMMARY_HEADER } from '../../../schemas/sources/airbnb.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readAirbnbListings, path);

/** One CSV line, quoting as Inside Airbnb does: only cells with a comma, quote or line break. */
function csvLine(cells: readonly string[]): string {
  return cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
}

/** A detailed-listing record: every column blank except the given ones. */
function detailed(values: Record<string, string>, columns: readonly string[] = AIRBNB_LISTINGS_HEADER): string {
  return csvLine(columns.map((c) => values[c] ?? ''));
}

const BASE: Record<string, string> = {
  id: '1234567890123456789', // 19 digits: beyond Number.MAX_SAFE_INTEGER
  name: 'Harbour flat',
  host_id: '360195',
  host_since: '2011-01-24',
  host_is_superhost: 't',
  host_response_rate: '95%',
  host_acceptance_rate: 'N/A',
  host_listings_count: '5',
  neighbourhood_cleansed: 'Windmill Hill',
  latitude: '51.43843',
  longitude: '-2.59183',
  property_type: 'Entire rental unit',
  room_type: 'Entire home/apt',
  accommodates: '4',
  bathrooms: '1.5',
  bathrooms_text: '1.5 baths',
  bedrooms: '2',
  beds: '3',
  amenities: '["Wifi", "Free washer \\u2013 In unit", "Kitchen"]',
  price: '$1,040.00',
  minimum_nights: '2',
  maximum_nights: '365',
  availability_30: '3',
  availability_60: '10',
  availability_90: '40',
  availability_365: '200',
  number_of_reviews: '206',
  number_of_reviews_ltm: '10',
  number_of_reviews_l30d: '1',
  first_review: '2013-10-18',
  last_review: '2025-08-31',
  review_scores_rating: '4.78',
  review_scores_accuracy: '4.89',
  review_scores_cleanliness: '4.67',
  review_scores_checkin: '4.96',
  review_scores_communication: '4.95',
  review_scores_location: '4.77',
  review_scores_value: '5.0',
  instant_bookable: 'f',
  calculated_host_listings_count: '5',
  reviews_per_month: '1.42',
  estimated_occupancy_l365d: '80',
  estimated_revenue_l365d: '3200',
  last_scraped: '2025-09-26',
  license: '',
};

const HEADER = AIRBNB_LISTINGS_HEADER.join(',');

describe('readAirbnbListings on fixtures', () => {
  it('reads every field of a detailed listing, gzip or not, ids as strings', async () => {
    const text = `${HEADER}\r\n${detailed(BASE)}\r\n`;
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `one${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        {
          id: '1234567890123456789',
          name: 'Harbour flat',
          description: undefined,
          host_id: '360195',
          host_since: '2011-01-24',
          host_is_superhost: true,
          host_response_rate: 0.95,
          host_acceptance_rate: undefined,
          host_listings_count: 5,
          neighbourhood_cleansed: 'Windmill Hill',
          latitude: 51.43843,
          longitude: -2.59183,
          property_type: 'Entire rental unit',
          room_type: 'Entire home/apt',
          accommodates: 4,
          bathrooms: 1.5,
          bathrooms_text: '1.5 baths',
          bedrooms: 2,
          beds: 3,
          amenities: ['Wifi', 'Free washer \u2013 In unit', 'Kitchen'],
          price_gbp: 1040,
          minimum_nights: 2,
          maximum_nights: 365,
          availability_30: 3,
          availability_60: 10,
          availability_90: 40,
          availability_365: 200,
          number_of_reviews: 206,
          number_of_reviews_ltm: 10,
          number_of_reviews_l30d: 1,
          first_review: '2013-10-18',
          last_review: '2025-08-31',
          review_scores_rating: 4.78,
          review_scores_accuracy: 4.89,
          review_scores_cleanliness: 4.67,
          review_scores_checkin: 4.96,
          review_scores_communication: 4.95,
          review_scores_location: 4.77,
          review_scores_value: 5,
          license: undefined,
          instant_bookable: false,
          calculated_host_listings_count: 5,
          reviews_per_month: 1.42,
          estimated_occupancy_l365d: 80,
          estimated_revenue_l365d: 3200,
          last_scraped: '2025-09-26',
        },
      ]);
    }
  });

  it('keeps multi-line descriptions with CR, CRLF and LF intact', async () => {
    const description = 'First line\r\nsecond, with "quotes"\rthird\nfourth';
    const text = `${HEADER}\n${detailed({ ...BASE, id: '1', description })}\n${detailed({ ...BASE, id: '2' })}\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'multiline.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => r.id)).toEqual(['1', '2']);
    expect(rows[0]!.description).toBe(description);
  });

  it('treats blank cells as missing: empty price, blank flags and scores, N/A rate', async () => {
    const blanks = { ...BASE, price: '', host_is_superhost: '', review_scores_rating: '', bathrooms: '', amenities: '' };
    const text = `${HEADER}\n${detailed(blanks)}\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'blank.csv', text));
    expect(rejects.total).toBe(0);
    const r = rows[0]!;
    expect([r.price_gbp, r.host_is_superhost, r.review_scores_rating, r.bathrooms]).toEqual([undefined, undefined, undefined, undefined]);
    expect(r.amenities).toEqual([]);
  });

  it('reads plain, comma-grouped and pound-signed prices', async () => {
    const prices = ['$40.00', '$1,040.00', '$12,345.5', '75', '£99.00'];
    const text = [HEADER, ...prices.map((price, i) => detailed({ ...BASE, id: String(i + 1), price }))].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'prices.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => r.price_gbp)).toEqual([40, 1040, 12345.5, 75, 99]);
  });

  it('keeps a listing with malformed amenities as an empty list and counts a warning', async () => {
    const text = [
      HEADER,
      detailed({ ...BASE, id: '1', amenities: '["Wifi", "Kitchen"' }), // truncated JSON
      detailed({ ...BASE, id: '2', amenities: '{"Wifi": true}' }), // not a list
      detailed({ ...BASE, id: '3', amenities: '["Wifi", 3]' }), // not all strings
      detailed({ ...BASE, id: '4', amenities: '[]' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'amenities.csv', text));
    expect(rows.map((r) => [r.id, r.amenities])).toEqual([['1', []], ['2', []], ['3', []], ['4', []]]);
    expect(rejects.toJSON().by_reason).toEqual({ 'warn:amenities_malformed': 3 });
  });

  it('rejects malformed rows by reason, with exact counts, and keeps reading', async () => {
    const text = [
      HEADER,
      detailed({ ...BASE, id: '12a45' }), // invalid:id
      detailed({ ...BASE, id: '-7' }), // invalid:id
      detailed({ ...BASE, id: '' }), // invalid:id
      detailed({ ...BASE, host_id: '1.5e9' }), // invalid:host_id
      detailed({ ...BASE, price: 'USD 40' }), // invalid:price_gbp
      detailed({ ...BASE, price: '$40.0.0' }), // invalid:price_gbp
      detailed({ ...BASE, price: '-$40.00' }), // invalid:price_gbp
      detailed({ ...BASE, room_type: 'Tent' }), // invalid:room_type
      detailed({ ...BASE, latitude: '40.7' }), // invalid:latitude (not the UK)
      detailed({ ...BASE, longitude: '' }), // invalid:longitude
      detailed({ ...BASE, host_is_superhost: 'yes' }), // invalid:host_is_superhost
      detailed({ ...BASE, host_response_rate: '150%' }), // invalid:host_response_rate
      detailed({ ...BASE, host_since: '24/01/2011' }), // invalid:host_since
      detailed({ ...BASE, bedrooms: '2.5' }), // invalid:bedrooms
      detailed({ ...BASE, review_scores_rating: '96' }), // invalid:review_scores_rating (0-5 scale)
      detailed({ ...BASE, amenities: 'not json', price: 'bad' }), // invalid:price_gbp only, no warning
      detailed({ ...BASE, id: '42' }, AIRBNB_LISTINGS_HEADER.slice(0, 40)), // column_count
      detailed({ ...BASE, id: '43' }),
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => r.id)).toEqual(['43']);
    expect(rejects.toJSON().by_reason).toEqual({
      column_count: 1,
      'invalid:bedrooms': 1,
      'invalid:host_id': 1,
      'invalid:host_is_superhost': 1,
      'invalid:host_response_rate': 1,
      'invalid:host_since': 1,
      'invalid:id': 3,
      'invalid:latitude': 1,
      'invalid:longitude': 1,
      'invalid:price_gbp': 4,
      'invalid:review_scores_rating': 1,
      'invalid:room_type': 1,
    });
  });

  it('counts a stray quote as csv_syntax and reads on', async () => {
    const text = `${HEADER}\n${detailed({ ...BASE, id: '1' })}\n2,na"me${',x'.repeat(78)}\n${detailed({ ...BASE, id: '3' })}\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'quote.csv', text));
    expect(rows.map((r) => r.id)).toEqual(['1', '3']);
    expect(rejects.toJSON().by_reason).toEqual({ csv_syntax: 1 });
  });

  it('reads the 18-column summary file, integer price, undefined where it lacks a column', async () => {
    const text = `${AIRBNB_LISTINGS_SUMMARY_HEADER.join(',')}\n` +
      "70820,City View - Sarah's double room.,360195,Sarah,,Windmill Hill,51.43843,-2.59183,Private room,40,4,206,2025-08-31,1.42,5,22,10,\n" +
      '1234567890123456789,No price yet,591555,Marcus,,Hotwells & Harbourside,51.44976,-2.61,Hotel room,,1,0,,,1,350,0,\n';
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'listings.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows[0]).toEqual({
      id: '70820',
      name: "City View - Sarah's double room.",
      host_id: '360195',
      neighbourhood_cleansed: 'Windmill Hill',
      latitude: 51.43843,
      longitude: -2.59183,
      room_type: 'Private room',
      price_gbp: 40,
      minimum_nights: 4,
      number_of_reviews: 206,
      last_review: '2025-08-31',
      reviews_per_month: 1.42,
      calculated_host_listings_count: 5,
      availability_365: 22,
      number_of_reviews_ltm: 10,
      license: undefined,
    });
    expect(rows[0]!.amenities).toBeUndefined();
    expect(rows[0]!.accommodates).toBeUndefined();
    expect(rows[1]).toMatchObject({ id: '1234567890123456789', room_type: 'Hotel room', price_gbp: undefined, last_review: undefined });
  });

  it('refuses files that are not Inside Airbnb listings', async () => {
    const calendar = writeFixture(tmp.dir, 'calendar.csv', 'listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights\n1,2025-09-26,t,,,1,30\n');
    await expect(readAll(calendar)).rejects.toThrow(/not an Inside Airbnb listings file \(no id column\)/);
    const noPrice = AIRBNB_LISTINGS_HEADER.filter((c) => c !== 'price').join(',');
    await expect(readAll(writeFixture(tmp.dir, 'noprice.csv', `${noPrice}\n`))).rejects.toThrow(/no price column/);
    const noAmenities = AIRBNB_LISTINGS_HEADER.filter((c) => c !== 'amenities').join(',');
    await expect(readAll(writeFixture(tmp.dir, 'noam.csv', `${noAmenities}\n`))).rejects.toThrow(/no amenities column/);
  });
});

const DIR = 'airbnb/bristol_2025-09-26';

describe.skipIf(!hasRaw(`${DIR}/listings.csv.gz`))('readAirbnbListings on the real Bristol 2025-09-26 detailed file', () => {
  let read: ReturnType<typeof readAll> | undefined;
  const detailedRows = () => (read ??= readAll(rawPath(`${DIR}/listings.csv.gz`)));

  it('reads all 2,845 listings without a reject, unique digit-string ids', async () => {
    const { rows, rejects } = await detailedRows();
    expect(rejects.toJSON()).toEqual({ total: 0, by_reason: {}, samples: [] });
    expect(rows).toHaveLength(2845);
    expect(new Set(rows.map((r) => r.id)).size).toBe(2845);
    expect(rows.every((r) => /^\d+$/.test(r.id) && /^\d+$/.test(r.host_id))).toBe(true);
    // Ids beyond the safe integer range survive digit for digit.
    expect(rows.some((r) => BigInt(r.id) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
  });

  it('has the room types, wards and coordinate ranges SOURCES.md gives', async () => {
    const { rows } = await detailedRows();
    const rooms: Record<string, number> = {};
    for (const r of rows) rooms[r.room_type] = (rooms[r.room_type] ?? 0) + 1;
    expect(rooms).toEqual({ 'Entire home/apt': 2032, 'Private room': 804, 'Hotel room': 9 });
    expect(new Set(rows.map((r) => r.neighbourhood_cleansed)).size).toBe(34);
    const lat = rows.map((r) => r.latitude);
    const lng = rows.map((r) => r.longitude);
    // SOURCES.md rounds to three places.
    const range = (v: number[]) => [Math.min(...v).toFixed(3), Math.max(...v).toFixed(3)];
    expect(range(lat)).toEqual(['51.402', '51.514']);
    expect(range(lng)).toEqual(['-2.701', '-2.512']);
    expect(rows.every((r) => r.last_scraped === '2025-09-26' && r.license === undefined)).toBe(true);
  });

  it('reads prices as GBP numbers, blank prices as undefined, amenities as lists', async () => {
    const { rows } = await detailedRows();
    const first = rows[0]!;
    expect(first).toMatchObject({ id: '70820', price_gbp: 40, host_response_rate: 1, host_is_superhost: true, instant_bookable: false });
    expect(first.amenities).toContain('Free washer \u2013 In building');
    expect(rows.filter((r) => r.price_gbp === undefined)).toHaveLength(640);
    expect(rows.filter((r) => (r.price_gbp ?? 0) >= 1000).length).toBe(12); // `$1,040.00` style
    expect(rows.every((r) => Array.isArray(r.amenities))).toBe(true);
    expect(rows.filter((r) => r.host_response_rate === undefined).length).toBeGreaterThanOrEqual(500); // N/A
  });

  it('reads records whose multi-line host_about mixes CR, CRLF and LF without shifting a cell', async () => {
    // The real multi-line cells are in host_about (descriptions use <br />); the listings
    // right after them are read with their own coordinates.
    const { rows } = await detailedRows();
    expect(rows[203]).toMatchObject({ id: '17863124', latitude: 51.46975, room_type: 'Private room' });
    expect(rows[216]).toMatchObject({ id: '18169604', latitude: 51.46932, room_type: 'Entire home/apt' });
    expect(rows[994]).toMatchObject({ id: '605136419703256223', latitude: 51.47029, room_type: 'Private room' });
    expect(rows[1]!.description).toMatch(/^My Harbourside apartment centrally located .*<br \/>/);
  });

  it.skipIf(!hasRaw(`${DIR}/listings.csv`))('the summary listings.csv has the same 2,845 ids and prices', async () => {
    const { rows } = await detailedRows();
    const summary = await readAll(rawPath(`${DIR}/listings.csv`));
    expect(summary.rejects.total).toBe(0);
    expect(summary.rows.map((r) => r.id).sort()).toEqual(rows.map((r) => r.id).sort());
    const byId = new Map(rows.map((r) => [r.id, r]));
    const mismatched = summary.rows.filter((s) => {
      const d = byId.get(s.id)!;
      const p = d.price_gbp === undefined ? undefined : Math.round(d.price_gbp);
      return s.room_type !== d.room_type || s.neighbourhood_cleansed !== d.neighbourhood_cleansed || s.price_gbp !== p;
    });
    expect(mismatched).toEqual([]);
  });
});
