import type { AirbnbCalendarRow } from '../../../schemas/sources/airbnb.ts';
import { notCsv, same, source } from '../source.ts';
import { airbnbCalendarNative } from './native.ts';
import { readAirbnbCalendar } from './read.ts';

export const airbnbCalendar = source<AirbnbCalendarRow, 'airbnb_calendar'>({
  kind: 'airbnb_calendar', version: 1,
  folders: ['airbnb'],
  sniff: (f) => notCsv(f) ?? (f.name.startsWith('calendar') || undefined),
  table: 'stg_airbnb_calendar',
  read: readAirbnbCalendar,
  native: airbnbCalendarNative,
  columns: [
    ...same<AirbnbCalendarRow>('VARCHAR', 'listing_id', 'date'),
    ...same<AirbnbCalendarRow>('BOOLEAN', 'available'),
    ...same<AirbnbCalendarRow>('DOUBLE', 'price_gbp', 'adjusted_price_gbp'),
    ...same<AirbnbCalendarRow>('INTEGER', 'minimum_nights', 'maximum_nights'),
  ],
  // The calendar looks forward from the scrape: its first day is the as-of date, not its last.
});
