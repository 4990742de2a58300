import { ABBREVIATIONS, normaliseText } from '../../schemas/address-normalise.ts';

/** House numbers, flat numbers and letter-suffixed numbers ("32A", "12-14"): matched exactly. */
export const NUMBER_RE = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;
const OUTCODE_RE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const COMPACT_PC_RE = /^([A-Z]{1,2}\d[A-Z\d]?)(\d[A-Z]{2})$/;
const INWARD_RE = /^\d[A-Z]{0,2}$/;
/** A query still being typed: it ends in a letter, digit or hyphen ("weston-"), not a space or comma. */
const TYPING_RE = /[A-Za-z0-9-]$/;
/** A house number then the first letter of the next word, still being typed ("12 h"). */
const NUMBER_THEN_LETTER_RE = /\d\s+[A-Za-z]$/;

export interface ParsedQuery {
  /** Normalised form: the cache key. */
  key: string;
  /** Words other than the postcode, numbers included, in the order typed. */
  words: string[];
  /** Positions in `words` of the house and flat numbers (the last one may be partial: "6" on the way to "63"). */
  numberAt: number[];
  /**
   * "BS4 1FB", "BS4 1", "BS4 " (a complete district is followed by its space so BS4 is not
   * BS41), or "BS1" for an outward code still being typed (BS1, BS10–BS19 and BS1x).
   */
  postcodePrefix: string | undefined;
  /** The last word is still being typed: it may be the start of a longer word. */
  partialLast: boolean;
  /**
   * Long forms of the last word when it is being typed as typed, not expanded: "pl" may be
   * PLACE or the start of PLOUGH, "rd" ROAD (the last word is then "PL", "RD"); and a final
   * "ST", typed or complete, may be STREET or SAINT.
   */
  lastMayBe: string[];
}

/**
 * The query's words, postcode and whether its last word is still being typed. The last
 * word is a prefix until a space or comma follows it: a number ("6" may become 63), a
 * single letter, a hyphenated part ("weston-"), an outward code ("bs1" may become BS16).
 * A house number followed by one letter being typed ("12 h") is two words, not the house
 * number 12H, while the letter may start the street.
 */
export function parseQuery(q: string): ParsedQuery {
  const typing = TYPING_RE.test(q);
  const split = typing && NUMBER_THEN_LETTER_RE.test(q);
  const text = split ? `${normaliseText(q.slice(0, -1))} ${q.slice(-1).toUpperCase()}` : normaliseText(q);
  const words = text.split(' ').filter(Boolean);
  // A trailing hyphen continues the word ("weston-" is the start of WESTON-SUPER-MARE, not
  // WESTON), and a number then a hyphen is a range being typed, spaces or not ("23 - ").
  const range = /\d\s*-\s*$/.test(q);
  if ((typing && q.endsWith('-')) || range) if (words.length > 0) words[words.length - 1] += '-';
  let postcodePrefix: string | undefined;
  let pcAt = -1;
  let pcLen = 0;
  for (let i = 0; i < words.length && postcodePrefix === undefined; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    const last = i === words.length - 1;
    const compact = COMPACT_PC_RE.exec(w);
    if (compact) [postcodePrefix, pcAt, pcLen] = [`${compact[1]} ${compact[2]}`, i, 1];
    else if (OUTCODE_RE.test(w) && next !== undefined && INWARD_RE.test(next) && (next.length === 3 || i + 1 === words.length - 1))
      [postcodePrefix, pcAt, pcLen] = [`${w} ${next}`, i, 2];
    else if (OUTCODE_RE.test(w)) [postcodePrefix, pcAt, pcLen] = [last && typing ? w : `${w} `, i, 1];
  }
  const rest = pcAt < 0 ? words : [...words.slice(0, pcAt), ...words.slice(pcAt + pcLen)];
  const lastIsPostcode = pcAt >= 0 && pcAt + pcLen === words.length;
  const partialLast = (typing || range) && !lastIsPostcode && rest.length > 0;
  // A word being typed is what was typed; the abbreviation it may be is one more reading.
  let lastMayBe: string[] = [];
  const rawLast = q.trim().split(/[\s,]+/).pop()?.toUpperCase().replace(/[^A-Z0-9-]/g, '') ?? '';
  const expanded = rawLast === 'ST' ? ['STREET', 'SAINT'] : ABBREVIATIONS[rawLast] ? [ABBREVIATIONS[rawLast]!] : [];
  // "ST" at the end is STREET or SAINT whatever follows (the normaliser, seeing nothing after it, reads STREET).
  if ((partialLast || rawLast === 'ST') && expanded.includes(rest[rest.length - 1]!)) {
    rest[rest.length - 1] = rawLast;
    lastMayBe = expanded;
  }
  const numberAt = rest.flatMap((w, i) => (NUMBER_RE.test(w) || (partialLast && i === rest.length - 1 && /^\d/.test(w)) ? [i] : []));
  const key = `${rest.join(' ')}|${postcodePrefix ?? ''}|${partialLast ? 1 : 0}`;
  return { key, words: rest, numberAt, postcodePrefix, partialLast, lastMayBe };
}
