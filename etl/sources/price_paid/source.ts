import type { PricePaidRow } from '../../../schemas/sources/price-paid.ts';
import { notCsv, same, source } from '../source.ts';
import { pricePaidNative } from './native.ts';
import { readPricePaid } from './read.ts';

export const pricePaid = source<PricePaidRow, 'price_paid'>({
  kind: 'price_paid', version: 1,
  folders: ['ppd'],
  sniff: (f) => notCsv(f) ?? true,
  table: 'stg_price_paid',
  read: readPricePaid,
  native: pricePaidNative,
  columns: [
    ...same<PricePaidRow>('VARCHAR', 'transaction_id'),
    ...same<PricePaidRow>('BIGINT', 'price'),
    ...same<PricePaidRow>('VARCHAR', 'date', 'postcode', 'property_type'),
    ...same<PricePaidRow>('BOOLEAN', 'new_build'),
    ...same<PricePaidRow>('VARCHAR', 'tenure', 'paon', 'saon', 'street', 'locality', 'town', 'district', 'county',
      'category', 'record_status'),
  ],
  date: (r) => r.date,
});
