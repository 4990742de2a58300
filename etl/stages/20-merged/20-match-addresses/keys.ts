import { isFloorUnit, normaliseText, unitKey as unitKeyOf } from '../../../../schemas/address-normalise.ts';

/** Distinct texts remembered per thread before the memory is emptied (a few MB). */
const REMEMBERED = 50_000;

/** `f` (pure) with its answers remembered, the memory emptied when full. */
function remembered(f: (s: string | undefined) => string): (s: string | undefined) => string {
  const memo = new Map<string, string>();
  return (s) => {
    if (!s) return f(s);
    let v = memo.get(s);
    if (v === undefined) {
      if (memo.size >= REMEMBERED) memo.clear();
      v = f(s);
      memo.set(s, v);
    }
    return v;
  };
}

/**
 * normaliseText, remembered: matching normalises the same streets, towns and house numbers
 * over and over (each address's street three times, every address of a street alike), and
 * the text normalisation was most of its time (splitWords alone a quarter, profiled at
 * 100,000 addresses).
 */
export const normalise = remembered(normaliseText);
const unitKey = remembered(unitKeyOf);

/**
 * The parts of an address that decide a match. Numbers decide (32A is not 32, flat 2 is not
 * flat 3); words only rank candidates that agree on every number and tolerate typos.
 */
export interface AddressKey {
  /** Flat or unit identifier ("2", "2A", "GROUND FLOOR"), '' for none. */
  unit: string;
  /** House numbers and ranges of the primary address, in order ("1", "32A", "12-14"). */
  numbers: string[];
  /** Distinct words of building name and street, without numbers. */
  words: Set<string>;
  /**
   * The unit and numbers as one text (numbersAgree), and the unit followed by the numbers as
   * one, undefined when there are neither (numbersAgreeLoosely); made once per key, so the
   * matcher files its candidates under them (matcher.ts, Bucket). Unit and numbers are
   * normalised text (A-Z, 0-9, '-', ' ', a number never empty), so the separators cannot
   * occur in them: equal texts, equal lists.
   */
  numbersText: string;
  looseText: string | undefined;
  /** Normalised street, for the fallback search outside the postcode. */
  street: string;
}

const NUMBER = /^\d+[A-Z]?(-\d+[A-Z]?)?$/;
/** Words that say what kind of unit or building it is, not which. */
const NOISE = new Set(['FLAT', 'APARTMENT', 'UNIT', 'PLOT', 'THE', 'OF', 'AND']);

function words(...parts: (string | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const p of parts) {
    for (const w of normalise(p).split(' ')) if (w && !NUMBER.test(w) && !NOISE.has(w)) out.add(w);
  }
  return out;
}

/**
 * Number tokens in order. A number after PLOT is a developer's plot number on a new-build
 * sale, not the house number the address later gets, so it becomes `PLOT9` and agrees only
 * with another plot number.
 */
function numbers(...parts: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    const ws = normalise(p).split(' ');
    ws.forEach((w, i) => {
      if (NUMBER.test(w)) out.push(ws[i - 1] === 'PLOT' ? `PLOT${w}` : w);
    });
  }
  return out;
}

/** Key of a price-paid sale: SAON is the unit, PAON and street the primary address. */
export function saleKey(saon: string | undefined, paon: string | undefined, street: string | undefined): AddressKey {
  return key(unitKey(saon), numbers(paon), words(paon, street), normalise(street));
}

/** Key of an address-base record from its structured fields. */
export function addressBaseKey(a: {
  sub_building?: string | null; building_name?: string | null; building_number?: string | null; street_name?: string | null;
}): AddressKey {
  return key(
    unitKey(a.sub_building ?? undefined),
    numbers(a.building_name ?? undefined, a.building_number ?? undefined),
    words(a.building_name ?? undefined, a.street_name ?? undefined),
    normalise(a.street_name ?? undefined),
  );
}

/** A key from its parts, with its number texts. */
function key(unit: string, nums: string[], ws: Set<string>, street: string): AddressKey {
  const loose = unit ? [unit, ...nums] : nums;
  return { unit, numbers: nums, words: ws, street, numbersText: `${unit}\u0000${nums.join('\u0001')}`, looseText: loose.length > 0 ? loose.join('\u0001') : undefined };
}

const UNIT_LINE = /^(FLAT|APARTMENT|UNIT|STUDIO|MAISONETTE)\b/;
const UNIT_ID = /^(\d+[A-Z]?|[A-Z])$/;

/**
 * Key of an energy certificate's free-text lines (ADDRESS1..3). Assessors write the flat on
 * its own line ("Flat 2", "Highbury Court, 1 Grange Walk"), in front of the rest ("Flat 2,
 * 1 Grange Walk"), in front of the building's name ("Flat 84 Shire House, 98 Napier
 * Street": the unit is 84, the building and street number follow) or as a floor ("Ground
 * Floor Flat, 102 Reedley Road"). A leading unit part is the unit, the rest primary.
 */
export function epcKey(lines: (string | undefined)[]): AddressKey {
  const parts = lines.flatMap((l) => (l ?? '').split(',')).map((p) => normalise(p)).filter(Boolean);
  let unit = '';
  // "Flat, First Floor": a unit word on its own belongs with the part after it.
  if (parts.length > 1 && /^(FLAT|APARTMENT|UNIT|STUDIO|MAISONETTE)$/.test(parts[0]!)) parts.splice(0, 2, `${parts[0]} ${parts[1]}`);
  const first = parts[0];
  if (first && isFloorUnit(first)) unit = unitKey(parts.shift());
  else if (first && UNIT_LINE.test(first)) {
    const ws = first.split(' ');
    if (ws.length > 2 && UNIT_ID.test(ws[1]!)) {
      unit = unitKey(ws.slice(0, 2).join(' '));
      parts[0] = ws.slice(2).join(' ');
    } else unit = unitKey(parts.shift());
  }
  const rest = parts.join(' ');
  const streetPart = parts.at(-1) ?? '';
  return key(unit, numbers(rest), words(rest), normalise(streetPart.replace(/^[\d\s\-A-Z]*?\d+[A-Z]?\s+/, '')));
}

/** How a kind of record's parts read as a key: its name travels to the matching threads (a function cannot). */
export type KeyKind = 'sale' | 'epc' | 'register';

/**
 * A record's key from its parts by kind: `sale` (SAON, PAON, street), `epc` (a certificate's
 * or listing's three lines), `register` (an HMO register's one line, then its post town).
 */
export function recordKey(kind: KeyKind, parts: readonly (string | undefined)[]): AddressKey {
  switch (kind) {
    case 'sale': return saleKey(parts[0], parts[1], parts[2]);
    case 'epc': return epcKey([...parts]);
    case 'register': return registerKey(parts[0] ?? '', parts[1]);
    default: throw new Error(`unknown record key kind: ${String(kind)}`);
  }
}

/**
 * Jaccard similarity of two word sets, where a word one side writes as two ("MAES MAELOR")
 * and the other as one ("MAESMAELOR") counts as the same word. The sets keep the address's
 * word order, so neighbours in the set are neighbours in the address.
 */
export function wordSimilarity(a: Set<string>, b: Set<string>): number {
  const ja = joinSplitWords(a, b);
  const jb = joinSplitWords(b, a);
  if (ja.size === 0 && jb.size === 0) return 1;
  let shared = 0;
  for (const w of ja) if (jb.has(w)) shared++;
  return shared / (ja.size + jb.size - shared);
}

/** `words` with each run of two to four neighbours whose joined form is a word of `other` joined ("HEOL Y DERI" → "HEOLYDERI"). */
function joinSplitWords(words: Set<string>, other: Set<string>): Set<string> {
  const list = [...words];
  const out = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    let run = 0;
    if (!other.has(list[i]!)) {
      for (let k = Math.min(4, list.length - i); k >= 2 && run === 0; k--) if (other.has(list.slice(i, i + k).join(''))) run = k;
    }
    if (run > 0) {
      out.add(list.slice(i, i + run).join(''));
      i += run - 1;
    } else out.add(list[i]!);
  }
  return out;
}

/** Whether two keys agree on every number: the unit, and the primary numbers in order. */
export function numbersAgree(a: AddressKey, b: AddressKey): boolean {
  return a.numbersText === b.numbersText;
}

/**
 * Whether two keys carry the same numbers in the same order once the unit is read as the
 * first of them. Real addresses put a flat's number where the other source puts a house
 * number ("9 Aveley House, Iliffe Close" against SAON 9, PAON AVELEY HOUSE; "86 Apex
 * Apartments"); the matcher accepts this only when no candidate agrees exactly.
 */
export function numbersAgreeLoosely(a: AddressKey, b: AddressKey): boolean {
  return a.looseText !== undefined && a.looseText === b.looseText;
}

/**
 * Key of a council HMO register's one-line address ("18 Abbey Road Oxford Oxfordshire OX2 0AE",
 * "Flat 1b, 1 Abbeydale Road, S7 1FA"): the trailing postcode is dropped, and so is the post
 * town with anything after it (a county) when `town` is known (the postcode's post town),
 * so the rest keys like a certificate's lines: a leading flat is the unit, the rest primary.
 */
export function registerKey(address: string, town?: string): AddressKey {
  let text = normalise(address.replace(/[\s,]*[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}[\s.,]*$/i, ''));
  const t = normalise(town);
  if (t) {
    const at = ` ${text} `.lastIndexOf(` ${t} `);
    // Only a town after the street: "12 OXFORD ROAD" keeps its OXFORD.
    if (at > 0 && /\d/.test(text.slice(0, at))) text = text.slice(0, at - 1);
  }
  return epcKey(address.includes(',') ? splitLike(address, text) : [text]);
}

/** The cut text split at the commas the original had (normaliseText drops them). */
function splitLike(original: string, cut: string): string[] {
  const parts = original.split(',').map((p) => normalise(p)).filter(Boolean);
  const out: string[] = [];
  let left = cut;
  for (const p of parts) {
    if (!left) break;
    const take = left.startsWith(p) ? p : left;
    out.push(take);
    left = left.slice(take.length).trim();
  }
  return out;
}
