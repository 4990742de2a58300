import { z } from 'zod';

/**
 * Field helpers for CSV rows. `z.coerce.number()` turns '' into 0, which silently
 * invents data; these treat an empty cell as missing instead.
 */
const emptyToUndef = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** Missing: undefined, or a string of white space only. */
export const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');

/** A number that must be present. */
export const num = () => z.preprocess(emptyToUndef, z.coerce.number());
/** A number that may be blank (undefined when blank). */
export const optNum = () => z.preprocess(emptyToUndef, z.coerce.number().optional());
/** A non-empty trimmed string. */
export const str = () => z.string().trim().min(1);
/** A string that may be blank (undefined when blank). */
export const optStr = () => z.preprocess(emptyToUndef, z.string().trim().optional());
/** ISO calendar date `YYYY-MM-DD`. */
export const isoDate = () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/** A UK postcode in canonical form: upper case, one space before the inward code. */
export const POSTCODE_RE = /^[A-Z]{1,2}[0-9][A-Z0-9]? [0-9][A-Z]{2}$/;

/**
 * Upper case with one space before the last three characters (`bs1  4dj`, `BS14DJ`,
 * Code-Point's padded `BS1  1AA` → `BS1 4DJ` / `BS1 1AA`). Too short to be a postcode: returned
 * trimmed and upper-cased, so the schema's POSTCODE_RE rejects it visibly.
 */
export function formatPostcode(raw: string): string {
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  if (compact.length < 5 || compact.length > 7) return raw.trim().toUpperCase();
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

/** A required UK postcode, formatted then checked. */
export const postcode = () =>
  z.preprocess((v) => (typeof v === 'string' ? formatPostcode(v) : v), z.string().regex(POSTCODE_RE, 'expected a UK postcode'));

/** An optional UK postcode: blank → undefined; otherwise formatted and checked. */
export const optPostcode = () =>
  z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? formatPostcode(v) : v),
    z.string().regex(POSTCODE_RE, 'expected a UK postcode').optional(),
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
