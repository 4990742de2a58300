import { ABBREVIATIONS } from '../../schemas/address-normalise.ts';
import { rng as seededRng } from '../../etl/synth/prng.ts';

/**
 * Typeahead judged as people type (issue 24): homes typed character by character in the
 * habits of the relevance set, an oracle that knows which homes are consistent with the
 * text typed so far, and the keystroke figures of a ranking against that oracle.
 */

/** A home with its structured parts (AddressBase or Price Paid), the target of a typed query. */
export interface Home {
  uprn: number;
  /** The indexed display address, postcode included. */
  address: string;
  postcode: string;
  /** Flat or other secondary part ("FLAT 3"). */
  saon: string | null;
  /** House number or name ("12", "12A", "ROSE COTTAGE"). */
  paon: string | null;
  street: string;
  locality: string | null;
  town: string | null;
}

/** A target's typing: the text as typed (possibly with a typo) and as meant. */
export interface Script {
  uprn: number;
  kind: string;
  typed: string;
  /** The same text without the typo: what the oracle judges consistency against. */
  meant: string;
}

const SHORT: Record<string, string> = { ROAD: 'rd', AVENUE: 'ave', CLOSE: 'cl', DRIVE: 'dr', GARDENS: 'gdns', LANE: 'ln', PLACE: 'pl', STREET: 'st', CRESCENT: 'cres', TERRACE: 'ter', COURT: 'ct', SQUARE: 'sq' };

function typo(word: string, r: () => number): string {
  const i = 1 + Math.floor(r() * (word.length - 2));
  const kind = Math.floor(r() * 3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1); // deletion
  if (kind === 1) return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2); // transposition
  return word.slice(0, i) + 'aeiounrst'[Math.floor(r() * 9)] + word.slice(i + 1); // substitution
}

/**
 * One script per target, in the habits of the relevance set: flat, then number (or house
 * name), then street, then town, postcode, or both; commas or not; street types
 * abbreviated sometimes; a typo in the longest street word sometimes. Lower case. Seeded.
 */
export function typingScripts(homes: readonly Home[], count: number, seed = 24): Script[] {
  const g = seededRng(seed, 'typeahead-scripts');
  const r = () => g.next();
  const out: Script[] = [];
  const used = new Set<number>();
  while (out.length < Math.min(count, homes.length)) {
    const h = homes[Math.floor(r() * homes.length)]!;
    if (used.has(h.uprn)) continue;
    used.add(h.uprn);
    const comma = r() < 0.5 ? ',' : '';
    const head = [h.saon ? `${h.saon}${comma}` : '', h.paon ? (/\d/.test(h.paon) ? h.paon : `${h.paon}${comma}`) : ''].filter(Boolean).join(' ');
    const abbrev = r() < 0.3;
    let street = h.street.split(' ').map((w) => (abbrev && SHORT[w] ? SHORT[w]! : w.toLowerCase()));
    const meantStreet = street.join(' ');
    let kind = abbrev ? 'abbrev' : 'plain';
    if (r() < 0.2) {
      const i = street.reduce((best, w, j) => (w.length > street[best]!.length ? j : best), 0);
      if (street[i]!.length >= 5) {
        street = street.map((w, j) => (j === i ? typo(w, r) : w));
        kind = 'typo';
      }
    }
    const town = (h.town ?? h.locality ?? '').toLowerCase();
    const end = r();
    const tail = end < 0.5 || !town ? [town ? `${comma} ${town}` : '', ` ${h.postcode.toLowerCase()}`] : end < 0.8 ? [`${comma} ${town}`, ''] : [`${comma} ${town}`, ` ${h.postcode.toLowerCase()}`];
    const text = (s: string) => `${head.toLowerCase()} ${s}${tail.join('')}`.replace(/\s+/g, ' ').trim();
    out.push({ uprn: h.uprn, kind, typed: text(street.join(' ')), meant: text(meantStreet) });
  }
  return out;
}

/** Words for consistency: upper case, apostrophes and full stops dropped, other punctuation (not the hyphen) a break. */
function tokens(s: string): string[] {
  return s.toUpperCase().replace(/[’'`.]/g, '').split(/[^A-Z0-9-]+/).filter(Boolean);
}

/** What a complete typed word can stand for in an address. */
function meanings(w: string): string[] {
  if (w === 'ST') return ['STREET', 'SAINT', w];
  return ABBREVIATIONS[w] ? [ABBREVIATIONS[w]!, w] : [w];
}

const ABBREV_KEYS = [...Object.keys(ABBREVIATIONS), 'ST'];

/**
 * Which homes are consistent with a text typed so far, by its words: each completed word
 * (followed by a space or comma) is a distinct word of the address (postcode included, an
 * abbreviation standing for its long form), and the word still being typed is the start
 * of one more (or of an abbreviation of one). Written without the engine's parser, so the
 * figures measured against it mean something: an ideal engine that ranks only consistent
 * homes, equally, has the target first when it is the only one, and in the top 5 when
 * there are at most five.
 */
export class ConsistencyOracle {
  /** Each home's words as ids into `vocab` (sorted), flattened: home i's are wordIds[off[i]..off[i+1]). */
  private readonly off: Uint32Array;
  private readonly wordIds: Uint32Array;
  private readonly vocab: string[];
  private readonly postings: Uint32Array[];
  private readonly seen: Uint32Array;
  private stamp = 0;

  constructor(homes: readonly Home[]) {
    const ids = new Map<string, number>();
    const flat: number[] = [];
    this.off = new Uint32Array(homes.length + 1);
    homes.forEach((h, i) => {
      for (const w of tokens(h.address)) {
        let id = ids.get(w);
        if (id === undefined) ids.set(w, (id = ids.size));
        flat.push(id);
      }
      this.off[i + 1] = flat.length;
    });
    this.vocab = [...ids.keys()].sort();
    const rank = new Uint32Array(ids.size);
    this.vocab.forEach((w, k) => (rank[ids.get(w)!] = k));
    this.wordIds = Uint32Array.from(flat, (id) => rank[id]!);
    const lists: number[][] = this.vocab.map(() => []);
    for (let i = 0; i < homes.length; i++) {
      for (let j = this.off[i]!; j < this.off[i + 1]!; j++) {
        const l = lists[this.wordIds[j]!]!;
        if (l[l.length - 1] !== i) l.push(i);
      }
    }
    this.postings = lists.map((l) => Uint32Array.from(l));
    this.seen = new Uint32Array(homes.length);
  }

  get size(): number {
    return this.seen.length;
  }

  /** Whether home i (its position in the list given) is consistent with the typed text. */
  consistent(i: number, text: string): boolean {
    const q = this.parse(text);
    return q !== undefined && this.matches(i, q);
  }

  /** Homes consistent with the text, counted up to `cap` (the figures need 1, at most 5, or more). */
  count(text: string, cap = 6): number {
    const q = this.parse(text);
    if (!q) return 0;
    // Drive from the rarest completed word's homes, else from the homes with a word the
    // partial word starts (a partial that starts an abbreviation is also its long form).
    let driver: number[] | undefined;
    let size = Infinity;
    for (const alts of q.done) {
      const n = alts.reduce((a, id) => a + this.postings[id]!.length, 0);
      if (n < size) [driver, size] = [alts, n];
    }
    if (!driver) {
      if (!q.partial) return Math.min(cap, this.size);
      driver = [...q.partial];
    }
    const stamp = ++this.stamp;
    let n = 0;
    for (const id of driver) {
      for (const i of this.postings[id]!) {
        if (this.seen[i] === stamp) continue;
        this.seen[i] = stamp;
        if (this.matches(i, q) && ++n >= cap) return n;
      }
    }
    return n;
  }

  /**
   * The text as vocabulary ids: per completed word, the words it can stand for; for the
   * word being typed, every word it can be the start of. Undefined when a completed word
   * is in no address, or the partial starts none (nothing is consistent).
   */
  private parse(text: string): { done: number[][]; partial: Set<number> | undefined } | undefined {
    const { done, partial } = split(text);
    const doneIds: number[][] = [];
    for (const w of done) {
      const alts = meanings(w).map((m) => this.find(m)).filter((id) => id >= 0);
      if (!alts.length) return undefined;
      doneIds.push(alts);
    }
    if (partial === undefined) return { done: doneIds, partial: undefined };
    const ids = new Set<number>();
    for (let k = lowerBound(this.vocab, partial); k < this.vocab.length && this.vocab[k]!.startsWith(partial); k++) ids.add(k);
    for (const a of ABBREV_KEYS) if (a.startsWith(partial)) for (const m of meanings(a)) if (this.find(m) >= 0) ids.add(this.find(m));
    return ids.size ? { done: doneIds, partial: ids } : undefined;
  }

  private find(w: string): number {
    const k = lowerBound(this.vocab, w);
    return this.vocab[k] === w ? k : -1;
  }

  /** Each completed word takes a distinct word of the home; the partial word starts one of the rest. */
  private matches(i: number, q: { done: number[][]; partial: Set<number> | undefined }): boolean {
    const from = this.off[i]!;
    const to = this.off[i + 1]!;
    let used = 0; // bit per word position (addresses have far fewer than 32 words)
    for (const alts of q.done) {
      let j = from;
      for (; j < to; j++) if (!(used & (1 << (j - from))) && alts.includes(this.wordIds[j]!)) break;
      if (j === to) return false;
      used |= 1 << (j - from);
    }
    if (!q.partial) return true;
    for (let j = from; j < to; j++) if (!(used & (1 << (j - from))) && q.partial.has(this.wordIds[j]!)) return true;
    return false;
  }
}

/** Completed words and the word still being typed (none when the text ends in a break). */
function split(text: string): { done: string[]; partial: string | undefined } {
  const ws = tokens(text);
  const typing = /[A-Za-z0-9-]$/.test(text.replace(/[’'`.]+$/, ''));
  return typing ? { done: ws.slice(0, -1), partial: ws[ws.length - 1] } : { done: ws, partial: undefined };
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first keystroke measured: people see suggestions from the third character. */
export const FIRST_KEYSTROKE = 3;

/** One target typed through: the target's rank at each keystroke (-1 when not listed) and what was listed. */
export interface Typed {
  uprn: number;
  /** rank[i]: the target's rank after FIRST_KEYSTROKE + i characters (-1: not in the list). */
  rank: number[];
  /** Keystrokes whose list was empty while some home was consistent with the typed text. */
  emptyWhileConsistent: number;
}

/**
 * Types each script character by character through `rank` (a query at every keystroke from
 * the third; the list it returns, best first) and records where the target is.
 */
export function typeThrough(scripts: readonly Script[], rank: (q: string) => number[], oracle?: ConsistencyOracle): Typed[] {
  return scripts.map((s) => typeOne(s, rank, oracle));
}

export function typeOne(s: Script, rank: (q: string) => number[], oracle?: ConsistencyOracle): Typed {
  const ranks: number[] = [];
  let emptyWhileConsistent = 0;
  for (let k = FIRST_KEYSTROKE; k <= s.typed.length; k++) {
    const q = s.typed.slice(0, k);
    const got = rank(q);
    ranks.push(got.indexOf(s.uprn));
    if (got.length === 0 && oracle && oracle.count(q, 1) > 0) emptyWhileConsistent++;
  }
  return { uprn: s.uprn, rank: ranks, emptyWhileConsistent };
}

/** The oracle's ranks: 0 when the target is the only consistent home, 1–4 when at most five are, else -1. */
export function oracleTyped(scripts: readonly Script[], oracle: ConsistencyOracle): Typed[] {
  return scripts.map((s) => {
    const rank: number[] = [];
    for (let k = FIRST_KEYSTROKE; k <= s.meant.length; k++) {
      const n = oracle.count(s.meant.slice(0, k));
      rank.push(n === 1 ? 0 : n <= 5 ? n - 1 : -1);
    }
    // The typed text may be a different length from the meant one (a deleted letter): the
    // oracle's keystroke figures are on the meant text, which is at least as informative.
    return { uprn: s.uprn, rank, emptyWhileConsistent: 0 };
  });
}

/** Keystrokes (characters typed) from which the target's rank stays below `k` to the end; Infinity if it is not there at the end. */
export function keystrokesTo(rank: readonly number[], k: number): number {
  let i = rank.length;
  while (i > 0 && rank[i - 1]! >= 0 && rank[i - 1]! < k) i--;
  return i === rank.length ? Infinity : FIRST_KEYSTROKE + i;
}

/** Nearest-rank percentile where never-found targets count as Infinity (so a p90 can be "never"). */
function pctAll(v: number[], p: number): number | null {
  const s = [...v].sort((a, b) => a - b);
  const x = s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return x === undefined || !Number.isFinite(x) ? null : x;
}

export interface KeystrokeFigures {
  targets: number;
  /** Keystrokes until the target is first and stays first: median, p90 (null: never for that share), share never first at the end. */
  top1: { median: number | null; p90: number | null; never: number };
  /** The same for the top 5 (the dropdown). */
  top5: { median: number | null; p90: number | null; never: number };
  /** Mean reciprocal rank of the target on the completed query (0 when not listed). */
  mrr: number;
  /** Of the targets that were ever first, the share in the top 5 at every later keystroke. */
  stays_top5_once_first: number;
  keystrokes: number;
  empty_while_consistent: number;
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

export function keystrokeFigures(typed: readonly Typed[]): KeystrokeFigures {
  const to1 = typed.map((t) => keystrokesTo(t.rank, 1));
  const to5 = typed.map((t) => keystrokesTo(t.rank, 5));
  let everFirst = 0;
  let stayed = 0;
  for (const t of typed) {
    const first = t.rank.indexOf(0);
    if (first < 0) continue;
    everFirst++;
    if (t.rank.slice(first).every((r) => r >= 0 && r < 5)) stayed++;
  }
  const n = typed.length;
  const last = (t: Typed) => t.rank[t.rank.length - 1] ?? -1;
  const mrr = typed.reduce((a, t) => a + (last(t) >= 0 ? 1 / (last(t) + 1) : 0), 0) / n;
  return {
    targets: n,
    top1: { median: pctAll(to1, 50), p90: pctAll(to1, 90), never: r4(to1.filter((x) => !Number.isFinite(x)).length / n) },
    top5: { median: pctAll(to5, 50), p90: pctAll(to5, 90), never: r4(to5.filter((x) => !Number.isFinite(x)).length / n) },
    mrr: r4(mrr),
    stays_top5_once_first: everFirst ? r4(stayed / everFirst) : 1,
    keystrokes: typed.reduce((a, t) => a + t.rank.length, 0),
    empty_while_consistent: typed.reduce((a, t) => a + t.emptyWhileConsistent, 0),
  };
}

/**
 * The oracle's MRR on the completed (meant) query: choosing equally among the k consistent
 * homes, the expected reciprocal rank of the target is H(k) / k.
 */
export function oracleMrr(scripts: readonly Script[], oracle: ConsistencyOracle): number {
  let sum = 0;
  for (const s of scripts) {
    const k = oracle.count(s.meant, 1_000);
    let h = 0;
    for (let i = 1; i <= k; i++) h += 1 / i;
    sum += h / k;
  }
  return r4(sum / scripts.length);
}
