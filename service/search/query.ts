import { normaliseText } from '../../schemas/address-normalise.ts';

/** House numbers, flat numbers and letter-suffixed numbers ("32A", "12-14"): matched exactly. */
export const NUMBER_RE = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;
const OUTCODE_RE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const COMPACT_PC_RE = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/;
const INWARD_RE = /^\d[A-Z]{0,2}$/;

export interface ParsedQuery {
  /** Normalised form: the cache key. */
  key: string;
  /** Words other than the postcode, numbers included, in the order typed. */
  words: string[];
  numbers: string[];
  /** "BS4 1FB", "BS4 1", "BS4 " (a district is followed by its space so BS4 is not BS41). */
  postcodePrefix: string | undefined;
  /** The last word is still being typed: it may be the start of a longer word. */
  partialLast: boolean;
}

export function parseQuery(q: string): ParsedQuery {
  const words = normaliseText(q).split(' ').filter(Boolean);
  let postcodePrefix: string | undefined;
  let pcAt = -1;
  let pcLen = 0;
  for (let i = 0; i < words.length && postcodePrefix === undefined; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const compact = COMPACT_PC_RE.exec(w);
    if (compact) [postcodePrefix, pcAt, pcLen] = [`${compact[1]} ${compact[2]}`, i, 1];
    else if (OUTCODE_RE.test(w) && next !== undefined && INWARD_RE.test(next) && (next.length === 3 || i + 1 === words.length - 1))
      [postcodePrefix, pcAt, pcLen] = [`${w} ${next}`, i, 2];
    else if (OUTCODE_RE.test(w)) [postcodePrefix, pcAt, pcLen] = [`${w} `, i, 1];
  }
  const rest = pcAt < 0 ? words : [...words.slice(0, pcAt), ...words.slice(pcAt + pcLen)];
  const endsTyping = /[A-Za-z0-9]$/.test(q);
  const lastIsPostcode = pcAt >= 0 && pcAt + pcLen === words.length;
  const last = rest[rest.length - 1];
  const partialLast = endsTyping && !lastIsPostcode && last !== undefined && !NUMBER_RE.test(last);
  const numbers = rest.filter((w) => NUMBER_RE.test(w));
  const key = `${rest.join(' ')}|${postcodePrefix ?? ''}|${partialLast ? 1 : 0}`;
  return { key, words: rest, numbers, postcodePrefix, partialLast };
}
