import { LRUCache } from 'lru-cache';
import { readSearchIndex, type SearchIndexData } from './format.ts';
import { docWords, NUMBER_RE, parseQuery, type ParsedQuery } from './query.ts';
import { sharedCount, trigrams, wordTrigrams } from './trigram.ts';

export interface AddressMatch {
  uprn: number;
  address: string;
  postcode: string;
  latitude: number;
  longitude: number;
  score: number;
}

/** Results kept per query: the API's cap, so one cached entry answers every `limit`. */
export const MAX_RESULTS = 50;
/** Candidates re-scored by full trigram similarity after the word-index pass. */
const RESCORE = 300;
/** A term whose addresses exceed this is left to the re-scoring (e.g. ROAD at national scale). */
const BIG_TERM = 250_000;
/** Fuzzy word matches below this word similarity are ignored (pg_trgm's default is 0.3). */
const WORD_THRESHOLD = 0.35;
/** Weight of a typed-word prefix ("SALIS" for SALISBURY) and of the postcode term. */
const PREFIX_SIM = 0.9;
const POSTCODE_WEIGHT = 8;
const MAX_PREFIX_WORDS = 500;

interface Term {
  /** Vocabulary ids and their similarity to the typed word, best first; or an ordinal range. */
  words: { id: number; sim: number }[];
  range?: [number, number];
  df: number;
}

const decoder = new TextDecoder();

/**
 * The address search over one build's index file. Two passes: a word-index pass (typed
 * words matched exactly, fuzzily through a trigram index of the vocabulary, or as a prefix
 * for the word being typed; numbers exactly; postcode as an ordinal range) accumulates an
 * IDF-weighted score per address and keeps the best few hundred; those are re-scored by
 * pg_trgm-style similarity adjusted for addresses (numbers exact and in order, postcode
 * first). Queries run synchronously on scratch arrays owned by the instance.
 */
export class SearchIndex {
  readonly n: number;
  private readonly vocab: string[];
  private readonly postcodes: string[];
  private readonly gramIndex = new Map<string, number[]>();
  private readonly gramCount: Uint16Array;
  private readonly acc: Float32Array;
  private readonly seen: Uint32Array;
  private readonly termSeen: Uint32Array;
  private epoch = 0;
  private termEpoch = 0;
  private readonly cache = new LRUCache<string, AddressMatch[]>({ max: 20_000 });

  constructor(private readonly d: SearchIndexData) {
    this.n = d.n;
    this.vocab = decodeList(d.vocabOff, d.vocabBytes);
    this.postcodes = decodeList(d.pcOff, d.pcBytes);
    this.gramCount = new Uint16Array(this.vocab.length);
    this.vocab.forEach((w, id) => {
      if (NUMBER_RE.test(w)) return; // numbers are matched exactly, never fuzzily
      const grams = wordTrigrams(w);
      this.gramCount[id] = grams.size;
      for (const g of grams) {
        let list = this.gramIndex.get(g);
        if (!list) this.gramIndex.set(g, (list = []));
        list.push(id);
      }
    });
    this.acc = new Float32Array(this.n);
    this.seen = new Uint32Array(this.n);
    this.termSeen = new Uint32Array(this.n);
  }

  static load(path: string): SearchIndex {
    return new SearchIndex(readSearchIndex(path));
  }

  get vocabularySize(): number {
    return this.vocab.length;
  }

  search(q: string, limit: number): AddressMatch[] {
    const parsed = parseQuery(q);
    let hits = this.cache.get(parsed.key);
    if (!hits) {
      hits = this.rank(parsed);
      this.cache.set(parsed.key, hits);
    }
    return hits.slice(0, limit);
  }

  private rank(p: ParsedQuery): AddressMatch[] {
    const terms: Term[] = p.words.map((w, i) => this.wordTerm(w, p.partialLast && i === p.words.length - 1));
    if (p.postcodePrefix !== undefined) {
      const range = this.postcodeRange(p.postcodePrefix);
      terms.push({ words: [], range, df: range[1] - range[0] });
    }
    const candidates = this.candidates(terms);
    const scored = candidates.map((ord) => ({ ord, score: this.score(ord, p) }));
    scored.sort((a, b) => b.score - a.score || a.ord - b.ord);
    return scored.slice(0, MAX_RESULTS).map(({ ord, score }) => this.match(ord, score));
  }

  private wordTerm(w: string, partial: boolean): Term {
    const sims = new Map<number, number>();
    const exact = this.find(w);
    if (exact >= 0) sims.set(exact, 1);
    if (partial && w.length >= 2) {
      const [lo, hi] = [lowerBound(this.vocab, w), lowerBound(this.vocab, w + '\uffff')];
      for (let id = lo; id < Math.min(hi, lo + MAX_PREFIX_WORDS); id++) if (!sims.has(id)) sims.set(id, PREFIX_SIM);
    }
    if (!NUMBER_RE.test(w) && w.length >= 3) {
      const grams = wordTrigrams(w);
      const shared = new Map<number, number>();
      for (const g of grams) for (const id of this.gramIndex.get(g) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
      for (const [id, s] of shared) {
        const sim = s / (grams.size + this.gramCount[id]! - s);
        if (sim >= WORD_THRESHOLD && (sims.get(id) ?? 0) < sim) sims.set(id, sim);
      }
    }
    const words = [...sims].map(([id, sim]) => ({ id, sim })).sort((a, b) => b.sim - a.sim);
    let df = 0;
    for (const { id } of words) df += this.d.postOff[id + 1]! - this.d.postOff[id]!;
    return { words, df };
  }

  /** Accumulates IDF-weighted term scores per address; returns the best RESCORE ordinals. */
  private candidates(terms: Term[]): number[] {
    this.epoch++;
    const touched: number[] = [];
    const { acc, seen, termSeen } = this;
    const add = (ord: number, w: number) => {
      if (seen[ord] !== this.epoch) {
        seen[ord] = this.epoch;
        acc[ord] = 0;
        touched.push(ord);
      }
      if (termSeen[ord] === this.termEpoch) return; // one contribution per term, its best word
      termSeen[ord] = this.termEpoch;
      acc[ord] = acc[ord]! + w;
    };
    const usable = terms.filter((t) => t.df > 0).sort((a, b) => a.df - b.df);
    const chosen = usable.filter((t) => t.df <= BIG_TERM);
    if (chosen.length === 0 && usable[0]) chosen.push(usable[0]);
    for (const t of chosen) {
      this.termEpoch++;
      let budget = BIG_TERM;
      if (t.range) {
        for (let o = t.range[0]; o < t.range[1] && budget-- > 0; o++) add(o, POSTCODE_WEIGHT);
        continue;
      }
      const idf = Math.log(1 + this.n / t.df);
      for (const { id, sim } of t.words) {
        const end = this.d.postOff[id + 1]!;
        for (let i = this.d.postOff[id]!; i < end && budget-- > 0; i++) add(this.d.postings[i]!, idf * sim);
      }
    }
    return topK(touched, acc, RESCORE);
  }

  /** Similarity adjusted for addresses, 0–1. */
  private score(ord: number, p: ParsedQuery): number {
    const postcode = this.postcodes[this.d.pcOf[ord]!]!;
    const dw = docWords(this.address(ord), postcode);
    const qw = [...p.words];
    const last = qw[qw.length - 1];
    if (p.partialLast && last !== undefined && !dw.includes(last)) {
      const completed = dw.find((w) => w.startsWith(last));
      if (completed) qw[qw.length - 1] = completed;
    }
    let s = 1;
    if (qw.length > 0) {
      const qt = trigrams(qw.join(' '));
      const dt = trigrams(dw.join(' '));
      const shared = sharedCount(qt, dt);
      s = 0.7 * (shared / qt.size) + 0.3 * (shared / (qt.size + dt.size - shared));
    }
    if (p.numbers.length > 0) {
      const docNums = dw.filter((w) => NUMBER_RE.test(w));
      if (!p.numbers.every((n) => docNums.includes(n))) s *= 0.5;
      else if (!isSubsequence(p.numbers, docNums)) s *= 0.95;
    }
    if (p.postcodePrefix !== undefined) s = postcode.startsWith(p.postcodePrefix) || postcode === p.postcodePrefix.trim() ? 0.5 + 0.5 * s : 0.5 * s;
    return Math.round(s * 10_000) / 10_000;
  }

  private postcodeRange(prefix: string): [number, number] {
    const lo = lowerBound(this.postcodes, prefix);
    const hi = lowerBound(this.postcodes, prefix + '\uffff');
    const first = this.d.pcFirst;
    return [first[lo]!, first[hi]!];
  }

  private find(w: string): number {
    const i = lowerBound(this.vocab, w);
    return this.vocab[i] === w ? i : -1;
  }

  private address(ord: number): string {
    return decoder.decode(this.d.addrBytes.subarray(this.d.addrOff[ord]!, this.d.addrOff[ord + 1]!));
  }

  private match(ord: number, score: number): AddressMatch {
    return {
      uprn: this.d.uprn[ord]!,
      address: this.address(ord),
      postcode: this.postcodes[this.d.pcOf[ord]!]!,
      latitude: this.d.lat[ord]!,
      longitude: this.d.lng[ord]!,
      score,
    };
  }
}

function decodeList(off: Uint32Array, bytes: Uint8Array): string[] {
  const out: string[] = new Array(off.length - 1);
  for (let i = 0; i + 1 < off.length; i++) out[i] = decoder.decode(bytes.subarray(off[i]!, off[i + 1]!));
  return out;
}

/** First index whose value is >= key (JS string order, the order the ETL sorted in). */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function isSubsequence(needle: string[], hay: string[]): boolean {
  let j = 0;
  for (const h of hay) if (j < needle.length && h === needle[j]) j++;
  return j === needle.length;
}

/** The k ordinals with the highest score (min-heap), ties to the lower ordinal. */
function topK(ords: number[], score: Float32Array, k: number): number[] {
  if (ords.length <= k) return ords;
  const heap: number[] = [];
  const less = (a: number, b: number) => score[a]! < score[b]! || (score[a] === score[b] && a > b);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const o of ords) {
    if (heap.length < k) {
      heap.push(o);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >>> 1;
        if (!less(heap[i]!, heap[parent]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (less(heap[0]!, o)) {
      heap[0] = o;
      down(0);
    }
  }
  return heap;
}
