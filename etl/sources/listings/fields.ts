import { PER_MONTH, type RentFrequency } from '../../../schemas/sources/listings.ts';

/**
 * Field conversions shared by the BLM and RTDF readers, so a listing sent either way
 * becomes the same row. Each returns the raw text when it cannot convert, for the
 * schema to reject under the field's name.
 */

/** `159,950` → 159950; `-500,000` → -500000 (the schema rejects it); blank → undefined. */
export function feedPrice(raw: string | undefined): number | string | undefined {
  const t = raw?.trim() ?? '';
  if (t === '') return undefined;
  const plain = t.replace(/,(?=\d{3}(\D|$))/g, '');
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : t;
}

/** BLM `YYYY-MM-DD HH:MM:SS` or RTDF `dd-MM-yyyy HH:mm:ss` (time optional) → `YYYY-MM-DDTHH:MM:SS`. */
export function feedDateTime(raw: string | undefined | null): string | undefined {
  const t = raw?.trim() ?? '';
  if (t === '') return undefined;
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  let parts: string[] | undefined;
  if (m) parts = [m[1]!, m[2]!, m[3]!, m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'];
  else {
    m = /^(\d{2})-(\d{2})-(\d{4})(?: (\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
    if (m) parts = [m[3]!, m[2]!, m[1]!, m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'];
  }
  if (!parts) return t;
  const [y, mo, d, h, mi, s] = parts;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}`;
  const dt = new Date(`${iso}Z`);
  return !Number.isNaN(dt.getTime()) && dt.toISOString().slice(0, 19) === iso ? iso : t;
}

/** A rent per calendar month, to the penny. */
export function perMonth(amount: number, frequency: RentFrequency): number {
  return Math.round(amount * PER_MONTH[frequency] * 100) / 100;
}

/** `UB9` + `6NR` → `UB9 6NR` (upper case, trimmed); missing halves are left for the schema to reject. */
export function joinPostcode(out: string | undefined, inward: string | undefined): string {
  return `${(out ?? '').trim().toUpperCase()} ${(inward ?? '').trim().toUpperCase()}`.trim();
}

/** A blank or whitespace-only text → undefined, else trimmed. */
export function text(v: string | undefined | null): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

/** BLM feeds often carry tenure only in a feature bullet (`Tenure: leasehold`), as the shared sample does. */
export function tenureFromFeatures(features: (string | undefined)[]): string | undefined {
  for (const f of features) {
    const m = /^\s*tenure\s*:\s*(share of freehold|freehold|leasehold|commonhold)\b/i.exec(f ?? '');
    if (m) return m[1]!.toLowerCase().replace(/^./, (c) => c.toUpperCase()).replace(' of freehold', ' of Freehold');
  }
  return undefined;
}
