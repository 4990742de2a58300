import { z } from 'zod';

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

const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');

const UK_POSTCODE = /^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$/;

/**
 * Upper case, single inward/outward space (`bs1  4dj`, `BS14DJ` → `BS1 4DJ`). Returns the
 * input unchanged when it cannot be a postcode, so the validator rejects it visibly.
 */
export function normalisePostcode(v: string): string {
  const compact = v.replace(/\s+/g, '').toUpperCase();
  if (compact.length < 5 || compact.length > 7) return v.trim().toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** An optional UK postcode: blank → undefined; otherwise normalised and checked. Shared by the address sources. */
export const optPostcode = () =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? normalisePostcode(v) : v),
    z.string().regex(UK_POSTCODE, 'expected a UK postcode').optional(),
  );

/** A required UK postcode, normalised as above. */
export const postcode = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? normalisePostcode(v) : v),
    z.string().regex(UK_POSTCODE, 'expected a UK postcode'),
  );

/**
 * A calendar date from `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS]` (bulk PPD, EPC datetimes) or
 * `DD/MM/YYYY[ HH:MM[:SS]]` (EPC data warehouse), as ISO `YYYY-MM-DD`; undefined if it is
 * not one or names a day that does not exist (2015-02-30).
 */
export function toIsoDate(v: string): string | undefined {
  const t = v.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(t);
  let y: string | undefined, mo: string | undefined, d: string | undefined;
  if (m) [, y, mo, d] = m;
  else {
    m = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{2}:\d{2}(?::\d{2})?)?$/.exec(t);
    if (m) [, d, mo, y] = m;
  }
  if (!y || !mo || !d) return undefined;
  const iso = `${y}-${mo}-${d}`;
  const dt = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(dt.getTime()) || dt.toISOString().slice(0, 10) !== iso ? undefined : iso;
}

/** A required date in any of the formats `toIsoDate` accepts, as ISO. */
export const anyDate = () =>
  z.string().transform((s, ctx) => {
    const iso = toIsoDate(s);
    if (iso === undefined) {
      ctx.addIssue({ code: 'custom', message: 'expected a real date (YYYY-MM-DD or DD/MM/YYYY)' });
      return z.NEVER;
    }
    return iso;
  });

/** The same, blank → undefined. */
export const optDate = () => z.preprocess((v) => (blank(v) ? undefined : v), anyDate().optional());

/** Text that may be blank: trimmed, blank → undefined. */
const optText = () => z.preprocess((v) => (blank(v) ? undefined : v), z.string().trim().optional());

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
  paon: optText(),
  saon: optText(),
  street: optText(),
  locality: optText(),
  town: optText(),
  district: optText(),
  county: optText(),
  category: z.enum(['A', 'B']),
  record_status: z.enum(['A', 'C', 'D']),
});
export type PricePaidRow = z.infer<typeof PricePaidRow>;
