import { numbersAgree, wordSimilarity, type AddressKey } from './keys.ts';

export interface Candidate {
  uprn: number;
  postcode: string;
  town: string;
  key: AddressKey;
}

export type MatchResult =
  | { uprn: number; method: 'postcode' | 'street'; score: number }
  | { uprn: null; reason: 'no_postcode_candidates' | 'no_number_match' | 'ambiguous' | 'low_similarity' };

/** Word similarity below which a candidate that agrees on numbers is still not accepted. */
export const MIN_SIMILARITY = 0.34;
/** In the street fallback (postcode wrong or missing) the words must agree more. */
export const MIN_STREET_SIMILARITY = 0.5;

/**
 * Matches addresses (sales, certificates) to address-base UPRNs. Candidates are those in
 * the record's postcode; if none agrees on the numbers (a mistyped or missing postcode),
 * those on the same normalised street in the same town. Among candidates that agree on
 * every number the best word similarity wins; a tie is ambiguous and left unmatched,
 * because a wrong UPRN is worse than none.
 */
export class AddressMatcher {
  private readonly byPostcode = new Map<string, Bucket>();
  private readonly byStreet = new Map<string, Bucket>();

  add(c: Candidate): void {
    bucket(this.byPostcode, c.postcode).add(c);
    if (c.key.street) bucket(this.byStreet, `${c.key.street}|${c.town}`).add(c);
  }

  /** Whether some candidate is in this postcode (then the match never leaves its outcode). */
  hasPostcode(postcode: string): boolean {
    return this.byPostcode.has(postcode);
  }

  /**
   * The answer when the postcode's own addresses decide it (one of them matches, or two tie):
   * `match` then never looks at the street, so a caller holding only the postcode's
   * addresses knows the record's match. Undefined when the street fallback would run.
   */
  decideInPostcode(postcode: string | undefined, key: AddressKey): MatchResult | undefined {
    return decided(best(this.inPostcode(postcode), key, MIN_SIMILARITY));
  }

  private inPostcode(postcode: string | undefined): Bucket {
    return (postcode && this.byPostcode.get(postcode)) || NO_BUCKET;
  }

  match(postcode: string | undefined, town: string, key: AddressKey): MatchResult {
    const inPostcode = this.inPostcode(postcode);
    const first = best(inPostcode, key, MIN_SIMILARITY);
    const inPostcodeAlone = decided(first);
    if (inPostcodeAlone) return inPostcodeAlone;
    const onStreet = (key.street && this.byStreet.get(`${key.street}|${town}`)) || NO_BUCKET;
    // A live postcode (it has addresses) is more likely right than the address: a flat sold
    // without its flat number must not become a house of that number in another district.
    // So the street search leaves the outcode only when the postcode matched nothing at all
    // (mistyped or terminated).
    const outcode = inPostcode.size > 0 && postcode ? postcode.split(' ')[0] : undefined;
    const inOutcode = outcode === undefined ? undefined : (c: Candidate) => c.postcode.split(' ')[0] === outcode;
    // A town can have two streets of one name; the nearer postcode (same sector, then
    // outcode) breaks that tie, e.g. for a sale recorded under a since-terminated postcode.
    const second = best(onStreet, key, MIN_STREET_SIMILARITY, postcode, inOutcode);
    if (second.uprn !== null) return { ...second, method: 'street' };
    if (inPostcode.size === 0 && onStreet.size === 0) return { uprn: null, reason: 'no_postcode_candidates' };
    return first.uprn === null && first.reason === 'no_number_match' && second.reason !== 'ambiguous' ? first : second;
  }
}

/** A bucket's candidates by numbersText (exact) and by looseText (loose). */
type Filed = { exact: Map<string, Candidate[]>; loose: Map<string, Candidate[]> };

/**
 * The candidates of one postcode or street. Those agreeing with a record's numbers (exactly,
 * or once the unit is read as the first number) are looked up by the key's number texts, in
 * the order they were added, instead of testing each candidate: at 1M addresses every record
 * was compared with each candidate of its postcode twice, a fifth of matching's time. The
 * lookup is made when the bucket is first asked (most streets never are).
 */
class Bucket {
  private readonly all: Candidate[] = [];
  /** Made on the first lookup. */
  private filed: Filed | undefined;

  get size(): number {
    return this.all.length;
  }

  add(c: Candidate): void {
    this.all.push(c);
    if (this.filed) file(this.filed, c);
  }

  /** The candidates that agree on every number (numbersAgree), in the order they were added. */
  agreeing(key: AddressKey): readonly Candidate[] {
    return this.index().exact.get(key.numbersText) ?? NONE;
  }

  /** The candidates that agree only once the unit is read as the first number (numbersAgreeLoosely and not numbersAgree), in order. */
  agreeingLoosely(key: AddressKey): readonly Candidate[] {
    const list = key.looseText === undefined ? undefined : this.index().loose.get(key.looseText);
    return list ? list.filter((c) => !numbersAgree(c.key, key)) : NONE;
  }

  private index(): Filed {
    if (!this.filed) {
      this.filed = { exact: new Map(), loose: new Map() };
      for (const c of this.all) file(this.filed, c);
    }
    return this.filed;
  }
}

function file(filed: Filed, c: Candidate): void {
  push(filed.exact, c.key.numbersText, c);
  if (c.key.looseText !== undefined) push(filed.loose, c.key.looseText, c);
}

const NONE: readonly Candidate[] = [];
const NO_BUCKET = new Bucket();

function bucket(m: Map<string, Bucket>, k: string): Bucket {
  let b = m.get(k);
  if (!b) m.set(k, (b = new Bucket()));
  return b;
}

/** The postcode pass's answer when it stands: a match, or a tie (a wrong UPRN is worse than none). */
function decided(first: Best): MatchResult | undefined {
  if (first.uprn !== null) return { ...first, method: 'postcode' };
  return first.reason === 'ambiguous' ? first : undefined;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

type Best = { uprn: number; score: number } | { uprn: null; reason: 'no_number_match' | 'ambiguous' | 'low_similarity' };

/** 2 for the same postcode sector, 1 for the same outcode, 0 otherwise. */
function nearness(a: string | undefined, b: string): number {
  if (!a) return 0;
  const [ao = '', ai = ''] = a.split(' ');
  const [bo = '', bi = ''] = b.split(' ');
  if (ao !== bo) return 0;
  return ai[0] === bi[0] ? 2 : 1;
}

/** How much better the words must fit for a loose reading to win over an exact one. */
export const LOOSE_MARGIN = 0.25;
/**
 * Word similarity a loose reading needs: a unit number read as a house number is only
 * believed when the building's name is on both sides (flat 84 of Shire House, keyed
 * without the building's street number, is not 84 Napier Street: similarity 0.5).
 */
export const LOOSE_MIN_SIMILARITY = 0.6;

/**
 * The best candidate that agrees on every number, unless one that agrees only once the unit
 * is read as the first number (a flat's number written as a house number: "10 Cedar Lodge,
 * Brighton Road" against SAON 10, PAON CEDAR LODGE) fits the words clearly better. The
 * loose reading needs the full word evidence, with no allowance for a lone candidate.
 * `keep`: only the candidates it keeps count (the street's, within the record's outcode).
 */
function best(cands: Bucket, key: AddressKey, min: number, near?: string, keep?: (c: Candidate) => boolean): Best {
  const kept = (list: readonly Candidate[]) => (keep ? list.filter(keep) : list);
  const exact = bestBy(kept(cands.agreeing(key)), key, min, near);
  const loose = bestBy(kept(cands.agreeingLoosely(key)), key, min, near);
  if (loose.uprn !== null && loose.score >= Math.max(min, LOOSE_MIN_SIMILARITY) && (exact.topScore < 0 || loose.score >= exact.topScore + LOOSE_MARGIN)) return result(loose);
  if (loose.uprn === null && loose.reason === 'ambiguous' && exact.uprn === null && exact.reason === 'no_number_match') return result(loose);
  return result(exact);
}

type Scored = Best & { topScore: number };

function result(b: Scored): Best {
  return b.uprn !== null ? { uprn: b.uprn, score: b.score } : { uprn: null, reason: b.reason };
}

/** The best of candidates that all agree on the numbers (the way `best` asked). */
function bestBy(agreeing: readonly Candidate[], key: AddressKey, min: number, near?: string): Scored {
  let top: Candidate | undefined;
  let topScore = -1;
  let topRank = -1;
  let tie = false;
  for (const c of agreeing) {
    const s = wordSimilarity(c.key.words, key.words);
    const rank = s * 100 + (near === undefined ? 0 : nearness(near, c.postcode));
    if (rank > topRank) {
      top = c;
      topScore = s;
      topRank = rank;
      tie = false;
    } else if (rank === topRank && c.uprn !== top?.uprn) {
      tie = true;
    }
  }
  if (!top) return { uprn: null, reason: 'no_number_match', topScore };
  if (tie) return { uprn: null, reason: 'ambiguous', topScore };
  // A single candidate with the right numbers in the right postcode needs less word evidence.
  if (topScore < min && !(agreeing.length === 1 && topScore > 0)) return { uprn: null, reason: 'low_similarity', topScore };
  return { uprn: top.uprn, score: topScore, topScore };
}
