import {
  AIRBNB_CALENDAR_HEADER,
  type AirbnbCalendarRow,
  isIsoDate,
  parseCount,
  parseId,
  parsePrice,
  parseTf,
} from '../../../schemas/sources/airbnb.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';

/**
 * Streams Inside Airbnb `calendar.csv(.gz)`: one row per listing per day. A real file has a
 * million rows, so cells are checked with the plain parsers rather than a zod schema per row;
 * the result satisfies `AirbnbCalendarRow` and rejects use the same `invalid:<field>` reasons.
 * `price`/`adjusted_price` are blank in recent scrapes and come out undefined.
 */
export async function* readAirbnbCalendar(path: string, rejects: RejectLog): AsyncGenerator<AirbnbCalendarRow> {
  let ix: number[] | undefined;
  let width = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!ix) {
      const col = headerIndex(fields).index;
      ix = AIRBNB_CALENDAR_HEADER.map((c) => {
        const i = col.get(c);
        if (i === undefined) throw new Error(`${path}: not an Inside Airbnb calendar file (no ${c} column)`);
        return i;
      });
      width = fields.length;
      continue;
    }
    if (fields.length !== width) {
      rejects.add('column_count', line, `${fields.length} fields, header has ${width}`);
      continue;
    }
    const [iId, iDate, iAvail, iPrice, iAdj, iMin, iMax] = ix as [number, number, number, number, number, number, number];
    const listing_id = parseId(fields[iId]);
    if (listing_id === undefined) { rejects.add('invalid:listing_id', line, fields[iId]); continue; }
    const date = fields[iDate]!;
    if (!isIsoDate(date)) { rejects.add('invalid:date', line, date); continue; }
    const available = parseTf(fields[iAvail]);
    if (available == null) { rejects.add('invalid:available', line, fields[iAvail]); continue; }
    const price_gbp = parsePrice(fields[iPrice]);
    if (price_gbp === null) { rejects.add('invalid:price_gbp', line, fields[iPrice]); continue; }
    const adjusted_price_gbp = parsePrice(fields[iAdj]);
    if (adjusted_price_gbp === null) { rejects.add('invalid:adjusted_price_gbp', line, fields[iAdj]); continue; }
    const minimum_nights = parseCount(fields[iMin]);
    if (minimum_nights === null) { rejects.add('invalid:minimum_nights', line, fields[iMin]); continue; }
    const maximum_nights = parseCount(fields[iMax]);
    if (maximum_nights === null) { rejects.add('invalid:maximum_nights', line, fields[iMax]); continue; }
    yield { listing_id, date, available, price_gbp, adjusted_price_gbp, minimum_nights, maximum_nights };
  }
}
