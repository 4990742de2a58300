import { z } from 'zod';
import { anyDate, optPostcode, optStr } from './fields.ts';

/**
 * HM Land Registry Price Paid Data. Two published layouts: the headerless bulk CSV
 * (`pp-complete.csv`, `pp-YYYY.csv`, monthly updates) and the report-builder CSV with a
 * header. The synthetic-region generator writes both with these constants.
 */

/** Bulk CSV columns, in file order (the file itself has no header row). */
export const PPD_COLUMNS = [
  'transaction_id',
  'price',
  'date_of_transfer',
  'postcode',
  'property_type',
  'old_new',
  'duration',
  'paon',
  'saon',
  'street',
  'locality',
  'town_city',
  'district',
  'county',
  'ppd_category_type',
  'record_status',
] as const;

/** Report-builder CSV header as published: SAON before PAON, no record status, plus the linked-data URI. */
export const PPD_REPORT_BUILDER_HEADER = [
  'unique_id',
  'price_paid',
  'deed_date',
  'postcode',
  'property_type',
  'new_build',
  'estate_type',
  'saon',
  'paon',
  'street',
  'locality',
  'town',
  'district',
  'county',
  'transaction_category',
  'linked_data_uri',
] as const;


const GUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/**
 * One normalised Price Paid transaction. Built from the raw cells of either layout:
 * ids lose their braces and are upper-cased, `Y`/`N` becomes a boolean, the date is ISO.
 * Monthly-update semantics (A add, C change, D delete) are applied by the ETL, not here.
 */
export const PricePaidRow = z.object({
  transaction_id: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().replace(/^\{(.*)\}$/, '$1').toUpperCase() : v),
    z.string().regex(GUID, 'expected a GUID'),
  ),
  price: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number().int().positive(),
  ),
  date: anyDate(),
  postcode: optPostcode(),
  property_type: z.enum(['D', 'S', 'T', 'F', 'O']),
  new_build: z.preprocess((v) => (v === 'Y' ? true : v === 'N' ? false : v), z.boolean()),
  tenure: z.enum(['F', 'L', 'U']),
  paon: optStr(),
  saon: optStr(),
  street: optStr(),
  locality: optStr(),
  town: optStr(),
  district: optStr(),
  county: optStr(),
  category: z.enum(['A', 'B']),
  record_status: z.enum(['A', 'C', 'D']),
});
export type PricePaidRow = z.infer<typeof PricePaidRow>;
