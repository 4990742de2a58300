import { afterAll, describe, expect, it } from 'vitest';
import { readAirbnbCalendar } from '../../../etl/sources/airbnb_calendar/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { AIRBNB_CALENDAR_HEADER, AirbnbCalendarRow } from '../../../schemas/sources/airbnb.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readAirbnbCalendar, path);

const HEADER = AIRBNB_CALENDAR_HEADER.join(',');

describe('readAirbnbCalendar on fixtures', () => {
  it('reads days, gzip or not, blank prices as undefined, priced days as GBP', async () => {
    const text = `${HEADER}\r\n` +
      '70820,2025-09-26,f,,,4,30\r\n' +
      '1234567890123456789,2025-09-27,t,"$1,040.00",$950.00,1,365\r\n' +
      '70820,2025-09-28,t,,,,';
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(writeFixture(tmp.dir, `cal${gz ? '.csv.gz' : '.csv'}`, text, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([
        { listing_id: '70820', date: '2025-09-26', available: false, price_gbp: undefined, adjusted_price_gbp: undefined, minimum_nights: 4, maximum_nights: 30 },
        { listing_id: '1234567890123456789', date: '2025-09-27', available: true, price_gbp: 1040, adjusted_price_gbp: 950, minimum_nights: 1, maximum_nights: 365 },
        { listing_id: '70820', date: '2025-09-28', available: true, price_gbp: undefined, adjusted_price_gbp: undefined, minimum_nights: undefined, maximum_nights: undefined },
      ]);
      for (const r of rows) expect(AirbnbCalendarRow.safeParse(r).success).toBe(true);
    }
  });

  it('finds the columns by name whatever their order', async () => {
    const text = 'date,listing_id,available,minimum_nights,maximum_nights,price,adjusted_price\n2025-09-26,5,t,2,30,$40.00,\n';
    const { rows } = await readAll(writeFixture(tmp.dir, 'order.csv', text));
    expect(rows).toEqual([
      { listing_id: '5', date: '2025-09-26', available: true, price_gbp: 40, adjusted_price_gbp: undefined, minimum_nights: 2, maximum_nights: 30 },
    ]);
  });

  it('rejects malformed rows by reason, with exact counts, and keeps reading', async () => {
    const text = [
      HEADER,
      '7.08e4,2025-09-26,f,,,4,30', // invalid:listing_id
      ',2025-09-26,f,,,4,30', // invalid:listing_id
      '70820,26/09/2025,f,,,4,30', // invalid:date
      '70820,2025-13-01,f,,,4,30', // invalid:date
      '70820,2025-09-26,yes,,,4,30', // invalid:available
      '70820,2025-09-26,,,,4,30', // invalid:available
      '70820,2025-09-26,t,forty,,4,30', // invalid:price_gbp
      '70820,2025-09-26,t,$40.00,-5,4,30', // invalid:adjusted_price_gbp
      '70820,2025-09-26,t,,,1.5,30', // invalid:minimum_nights
      '70820,2025-09-26,t,,,1,-1', // invalid:maximum_nights
      '70820,2025-09-26,t,,,1,2147483648', // invalid:maximum_nights (beyond 32-bit)
      '70820,2025-09-26,t,,,1,2147483647', // kept: scrapes write this for "no maximum"
      '70820,2025-09-26,t,,,1', // column_count
      '70820,2025-09-26,t,,,1,30,extra', // column_count
      '70820,2025-09-27,t,,,1,30',
    ].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', text));
    expect(rows.map((r) => [r.date, r.maximum_nights])).toEqual([['2025-09-26', 2147483647], ['2025-09-27', 30]]);
    expect(rejects.toJSON().by_reason).toEqual({
      column_count: 2,
      'invalid:adjusted_price_gbp': 1,
      'invalid:available': 2,
      'invalid:date': 2,
      'invalid:listing_id': 2,
      'invalid:maximum_nights': 2,
      'invalid:minimum_nights': 1,
      'invalid:price_gbp': 1,
    });
    expect(rejects.samples[0]).toEqual({ reason: 'invalid:listing_id', line: 2, detail: '7.08e4' });
  });

  it('refuses a file that is not an Inside Airbnb calendar', async () => {
    const listings = writeFixture(tmp.dir, 'listings.csv', 'id,name,host_id\n1,x,2\n');
    await expect(readAll(listings)).rejects.toThrow(/not an Inside Airbnb calendar file \(no listing_id column\)/);
    const noAdjusted = writeFixture(tmp.dir, 'old.csv', 'listing_id,date,available,price\n1,2025-09-26,t,$40.00\n');
    await expect(readAll(noAdjusted)).rejects.toThrow(/no adjusted_price column/);
  });
});

const CAL = 'airbnb/bristol_2025-09-26/calendar.csv.gz';

describe.skipIf(!hasRaw(CAL))('readAirbnbCalendar on the real Bristol 2025-09-26 calendar', () => {
  it('reads 1,038,425 days: 2,845 listings x 365 days, 2025-09-26 .. 2026-09-25, no prices', async () => {
    const rejects = new RejectLog();
    const days = new Map<string, number>();
    let n = 0;
    let priced = 0;
    let available = 0;
    let min = '9999-99-99';
    let max = '';
    for await (const r of readAirbnbCalendar(rawPath(CAL), rejects)) {
      n++;
      days.set(r.listing_id, (days.get(r.listing_id) ?? 0) + 1);
      if (r.price_gbp !== undefined || r.adjusted_price_gbp !== undefined) priced++;
      if (r.available) available++;
      if (r.date < min) min = r.date;
      if (r.date > max) max = r.date;
    }
    expect(rejects.total).toBe(0);
    expect(n).toBe(1_038_425);
    expect(days.size).toBe(2845);
    expect([...days.values()].every((d) => d === 365)).toBe(true);
    expect([min, max]).toEqual(['2025-09-26', '2026-09-25']);
    expect(priced).toBe(0);
    expect(available).toBe(490_852);
    expect([...days.keys()].some((id) => id.length === 19)).toBe(true);
  });
});
