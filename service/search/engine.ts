import { LRUCache } from 'lru-cache';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { readSearchIndex, type SearchIndexData } from '../../lib/files/search-index-format.ts';
import { heapRows, openPagedSearchIndex, type SearchIndexHeapParts, type SearchIndexRows } from '../../lib/files/search-index-paged.ts';
import { lowerBound } from '../../schemas/sorted-search.ts';
import { NUMBER_RE, parseQuery, type ParsedQuery } from './query.ts';
import { startWithinOneEdit, withinOneEdit } from './edits.ts';
import { SparseScores } from './sparse-scores.ts';
import { wordTrigrams } from './trigram.ts';

export interface AddressMatch {
  uprn: number;
  address: string;
  postcode: string;
  latitude: number;
  longitude: number;
  score: number;
}

/** How the candidate pass keeps its scores: per address in the index (dense, 12 bytes each) or per address touched (sparse-scores.ts). */
export type ScratchKind = 'dense' | 'sparse';
export interface SearchIndexOptions {
  /** Default: dense up to SPARSE_FROM addresses, sparse above. */
  scratch?: ScratchKind;
}
/**
 * Above this many addresses the candidate pass keeps its scores sparse: the dense scratch would
 * be over 24 MB a process (360 MB at 30M), and once it outgrows the processor's caches it is
 * also the slower one (bench/results/candidate-scratch.json: about half the time at 10M and
 * 30M, 1.8 times it at 1M).
 */
export const SPARSE_FROM = 2_000_000;

/** Results kept per query: the API's cap, so one cached entry answers every `limit`. */
export const MAX_RESULTS = 50;
/** Queries whose ranked hits are kept (about 1 KB each). */
export const SEARCH_CACHE_ENTRIES = 20_000;
/** Candidates kept from the word-index pass and scored word by word. */
const CANDIDATES = 1_000;
/** Further (more common) terms are read into the candidate pass only while fewer addresses than this are touched. */
const ENOUGH_TOUCHED = 20_000;
/** Postings read to order the addresses of a postcode larger than the candidate places. */
const WITHIN_POSTINGS = 60_000;
/** A term whose addresses exceed this is not accumulated, only scored on the candidates (e.g. ROAD nationally). */
const BIG_TERM = 250_000;
/** Fuzzy word matches below this word similarity are ignored (pg_trgm's default is 0.3). */
const WORD_THRESHOLD = 0.35;
/** Weight of a word one slip away (a swap, a missing, extra or wrong letter), and of a word whose start is one slip from a word being typed. */
const ONE_EDIT_SIM = 0.8;
const ONE_EDIT_PREFIX_SIM = 0.75;
/** Weight kept by a word being typed right after a house number when it matches a word not right after that number (a town). */
const NOT_AFTER_NUMBER = 0.9;
/** Shortest typed word matched within one slip (shorter words have too many neighbours); one less for a word being typed. */
const ONE_EDIT_MIN_LENGTH = 4;
/** Weight of a typed-word prefix ("SALIS" for SALISBURY). */
const PREFIX_SIM = 0.9;
/** Weight of a partial word of one or two letters at the end that starts the address's postcode ("…, bristol b"). */
const POSTCODE_START_SIM = 0.8;
/**
 * Candidate-pass weight of an address in the postcode typed: above any sum of word weights
 * (each at most ln(1 + n), 17 at 10M), so the best candidates are in the postcode whenever
 * any is, and scoring then puts them first.
 */
const POSTCODE_WEIGHT = 1_000;
/** Words a prefix may stand for: enough for a single letter ("…road, b") in a national vocabulary. */
const MAX_PREFIX_WORDS = 5_000;

/** A query's ranked hits, best first (at most MAX_RESULTS). */
export interface Ranked {
  ords: Uint32Array;
  scores: Float64Array;
}

interface Term {
  /** Vocabulary ids matching the typed word and their word similarity (1 exact, fuzzy, prefix). */
  sims: Map<number, number>;
  /** Trigram count of the typed word: its weight in the address similarity. */
  grams: number;
  range?: [number, number];
  /** A partial word of one or two letters at the end may be the start of the postcode ("B" for BS16): its ordinal range. */
  pcStart?: [number, number];
  /** The candidate pass reads `pcStart`'s run too (it is not huge): the area's homes are candidates, at POSTCODE_START_SIM. */
  readPcStart?: boolean;
  /**
   * The words whose postings the candidate pass reads, best first: all of `sims`, but only
   * the exact word and its prefix extensions when the typed word is itself in the
   * vocabulary (it is then not a typo; its fuzzy neighbours still score, on the candidates).
   */
  scan: number[];
  /** Addresses in the scanned words' postings (the term's rarity: order and IDF weight). */
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
  private readonly wordLen: Uint16Array;
  /**
   * Candidate-pass scratch, two 4-byte slots per address in one buffer: [2·ord] the stamp of
   * the last term that reached it, [2·ord + 1] its accumulated score. Interleaved so that a
   * posting costs one cache line, not one per array: at 10M addresses the pass reads
   * postings all over 80 MB, and the misses are most of its time.
   */
  private readonly stamps: Uint32Array;
  private readonly acc: Float32Array;
  /** The addresses the current query's candidate pass touched (first nTouched entries). */
  private readonly touched: Uint32Array;
  /** With `scratch: 'sparse'`, the candidate pass's scores per address touched instead of the three arrays above (empty then). */
  private readonly sparse: SparseScores | undefined;
  /** Per query term slot, the word similarity by vocabulary id (reset after each query). */
  private readonly simSlots: Float64Array[] = [];
  /** Shared-trigram counts by vocabulary id for the fuzzy word match (reset after each word). */
  private readonly gramHits: Uint16Array;
  private readonly gramHitIds: Uint32Array;
  private stamp = 0;
  /**
   * Ranked hits per normalised query as ordinals and scores in typed arrays, not result
   * objects: 20,000 cached queries of 50 objects with their address strings were a million
   * long-lived objects, and the old-generation collections they caused (tens of ms at 10M)
   * made the search latency's tail. Objects are made for the `limit` asked for.
   */
  private readonly cache: LRUCache<string, Ranked>;

  private readonly d: SearchIndexHeapParts;
  /** Per-address data and postings: in the heap, or read where they lie (`SearchIndex.paged`). */
  private readonly rows: SearchIndexRows;

  /**
   * `source`: the whole index in the heap, or its heap parts and paged rows
   * (lib/files/search-index-paged.ts). `cache`: the build's (service/build/cache.ts); a private
   * one of the same size otherwise.
   */
  constructor(source: SearchIndexData | { parts: SearchIndexHeapParts; rows: SearchIndexRows }, cache?: LRUCache<string, Ranked>, opts: SearchIndexOptions = {}) {
    if ('rows' in source) [this.d, this.rows] = [source.parts, source.rows];
    else [this.d, this.rows] = [source, heapRows(source)];
    const d = this.d;
    this.cache = cache ?? new LRUCache<string, Ranked>({ max: SEARCH_CACHE_ENTRIES });
    this.n = d.n;
    this.vocab = decodeList(d.vocabOff, d.vocabBytes);
    this.postcodes = decodeList(d.pcOff, d.pcBytes);
    this.gramCount = new Uint16Array(this.vocab.length);
    this.wordLen = Uint16Array.from(this.vocab, (w) => w.length);
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
    if ((opts.scratch ?? (d.n > SPARSE_FROM ? 'sparse' : 'dense')) === 'sparse') this.sparse = new SparseScores();
    const scratch = new ArrayBuffer(this.sparse ? 0 : this.n * 8);
    this.stamps = new Uint32Array(scratch);
    this.acc = new Float32Array(scratch);
    this.touched = new Uint32Array(this.sparse ? 0 : this.n);
    // Written once now so the pages are mapped at load: a fresh zeroed buffer is mapped
    // lazily, and the first queries on a new build would otherwise take the page faults.
    this.stamps.fill(0);
    this.touched.fill(0);
    this.gramHits = new Uint16Array(this.vocab.length);
    this.gramHitIds = new Uint32Array(this.vocab.length);
  }

  static load(path: string): SearchIndex {
    return new SearchIndex(readSearchIndex(path));
  }

  /** The index file at `path` read where it lies, its pages through `pages` (the build's block cache). */
  static paged(path: string, pages: BlockCache, cache?: LRUCache<string, Ranked>, opts: SearchIndexOptions = {}): SearchIndex {
    return new SearchIndex(openPagedSearchIndex(path, pages), cache, opts);
  }

  /** Closes the file a paged index reads (nothing for one in the heap). */
  close(): void {
    this.rows.close();
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
    const out: AddressMatch[] = [];
    for (let i = 0; i < Math.min(limit, hits.ords.length); i++) out.push(this.match(hits.ords[i]!, hits.scores[i]!));
    return out;
  }

  private rank(p: ParsedQuery): Ranked {
    const terms: Term[] = p.words.map((w, i) => this.wordTerm(w, p.partialLast && i === p.words.length - 1, i === p.words.length - 1 ? p.lastMayBe : []));
    const last = p.words[p.words.length - 1];
    if (p.partialLast && p.postcodePrefix === undefined && last !== undefined && /^[A-Z]{1,2}$/.test(last)) {
      // The letters may start the postcode's area ("…, penburton ab" on the way to AB1 4SD):
      // its homes are read into the candidates like the word's, as one term (an address
      // counts once, by its better reading), unless the run is huge (a one-letter area
      // nationally), when it still scores on the candidates.
      const t = terms[terms.length - 1]!;
      const pc = (t.pcStart = this.postcodeRange(last));
      const size = pc[1] - pc[0];
      if (size > 0 && t.df + size <= BIG_TERM) {
        t.readPcStart = true;
        t.df += size;
      }
    }
    const pcTerm: Term[] = [];
    if (p.postcodePrefix !== undefined) {
      const range = this.postcodeRange(p.postcodePrefix);
      pcTerm.push({ sims: new Map(), grams: 0, range, scan: [], df: range[1] - range[0] });
    }
    const candidates = this.candidates([...terms, ...pcTerm]);
    const sims = terms.map((t, j) => this.simSlot(j, t));
    try {
      // The best MAX_RESULTS by score, ties to the lower ordinal, kept sorted by insertion
      // (most candidates score below the last kept and cost one comparison).
      const ords = new Uint32Array(Math.min(MAX_RESULTS, candidates.length));
      const scores = new Float64Array(ords.length);
      let kept = 0;
      for (const ord of candidates) {
        const sc = this.score(ord, p, terms, sims);
        if (kept === ords.length && !better(sc, ord, scores[kept - 1]!, ords[kept - 1]!)) continue;
        let i = kept < ords.length ? kept++ : kept - 1;
        for (; i > 0 && better(sc, ord, scores[i - 1]!, ords[i - 1]!); i--) {
          scores[i] = scores[i - 1]!;
          ords[i] = ords[i - 1]!;
        }
        scores[i] = sc;
        ords[i] = ord;
      }
      return { ords, scores };
    } finally {
      terms.forEach((t, j) => { for (const id of t.sims.keys()) sims[j]![id] = 0; });
    }
  }

  /** Term j's word similarities as an array by vocabulary id (an array read, not a Map lookup, per address word). */
  private simSlot(j: number, t: Term): Float64Array {
    const a = (this.simSlots[j] ??= new Float64Array(this.vocab.length));
    for (const [id, sim] of t.sims) a[id] = sim;
    return a;
  }

  private wordTerm(w: string, partial: boolean, mayBe: string[] = []): Term {
    const sims = new Map<number, number>();
    // A partly typed abbreviation's long forms rank with its prefix extensions, not above them.
    for (const long of mayBe) if (this.find(long) >= 0) sims.set(this.find(long), partial ? PREFIX_SIM : 1);
    const exact = this.find(w);
    // A single letter being typed is the start of a word as much as the word itself ("UNIT B").
    if (exact >= 0) sims.set(exact, partial && w.length === 1 ? PREFIX_SIM : 1);
    if (partial) {
      const [lo, hi] = [lowerBound(this.vocab, w), lowerBound(this.vocab, w + '\uffff')];
      for (let id = lo; id < Math.min(hi, lo + MAX_PREFIX_WORDS); id++) if (!sims.has(id)) sims.set(id, PREFIX_SIM);
    }
    if (!NUMBER_RE.test(w) && w.length >= 3) {
      // Shared trigrams per vocabulary word, counted in a typed array (a Map here cost about
      // a millisecond a word with a 10,000-name vocabulary).
      const grams = wordTrigrams(w);
      const { gramHits, gramHitIds } = this;
      let nHit = 0;
      for (const g of grams) {
        for (const id of this.gramIndex.get(g) ?? []) if (gramHits[id]!++ === 0) gramHitIds[nHit++] = id;
      }
      for (let k = 0; k < nHit; k++) {
        const id = gramHitIds[k]!;
        const c = gramHits[id]!;
        gramHits[id] = 0;
        const sim = c / (grams.size + this.gramCount[id]! - c);
        if (sim >= WORD_THRESHOLD && (sims.get(id) ?? 0) < sim) sims.set(id, sim);
      }
    }
    // (Not for a word in the vocabulary: it is not a slip. Not for a word ending in a hyphen: the hyphen says the word goes on, as typed.)
    if (exact < 0 && !NUMBER_RE.test(w) && w.length >= ONE_EDIT_MIN_LENGTH - (partial ? 1 : 0) && !w.endsWith('-')) this.oneEditWords(w, partial, sims);
    const scan = [...sims].filter(([, sim]) => exact < 0 || sim >= PREFIX_SIM).sort((a, b) => b[1] - a[1]).map(([id]) => id);
    let df = 0;
    for (const id of scan) df += this.d.postOff[id + 1]! - this.d.postOff[id]!;
    return { sims, grams: w.length + 1, scan, df };
  }

  /**
   * Words one slip from the typed word (or, for the word being typed, whose start is), among
   * the vocabulary words with its first letter: a slip in the first letter is rare, and the
   * range is a few hundred words. Kept when better than the trigram similarity found.
   */
  private oneEditWords(w: string, partial: boolean, sims: Map<number, number>): void {
    const [lo, hi] = [lowerBound(this.vocab, w[0]!), lowerBound(this.vocab, w[0]! + '\uffff')];
    for (let id = lo; id < hi; id++) {
      const v = this.vocab[id]!;
      const sim = withinOneEdit(w, v) ? ONE_EDIT_SIM : partial && startWithinOneEdit(w, v) ? ONE_EDIT_PREFIX_SIM : 0;
      if (sim > (sims.get(id) ?? 0)) sims.set(id, sim);
    }
  }

  /**
   * Accumulates IDF-weighted term scores per address, rarest term first, and returns the
   * best CANDIDATES ordinals. The two rarest terms are always read (a typo in one is then
   * still found through the other); further terms only while the candidate set is small.
   * Every term is scored on the candidates afterwards, so stopping early loses no word.
   */
  private candidates(terms: Term[]): number[] {
    // Stamps only grow: one below the query's first term stamp means "not yet touched by
    // this query". Near the 32-bit limit the buffer is cleared and stamps start again.
    if (this.stamp > 0xffff_0000) {
      this.stamps.fill(0);
      this.stamp = 0;
    }
    const first = this.stamp + 1;
    const touched = this.touched;
    let nTouched = 0;
    const { acc, stamps, sparse } = this;
    sparse?.begin();
    const { postOff } = this.d;
    const rows = this.rows;
    const usable = terms.filter((t) => t.df > 0).sort((a, b) => a.df - b.df);
    // The postcode is read first whenever it is not huge (a district is one contiguous run of
    // ordinals, cheap to read): its addresses must be candidates for it to rank them first.
    // When it holds more addresses than there are candidate places, the words are then read
    // within it only (they order its addresses, and add no others), rarest first, while
    // their postings fit WITHIN_POSTINGS (FLAT, in a fifth of all addresses, would cost more
    // than it orders).
    const pcFirst = usable.findIndex((t) => t.range !== undefined && t.df <= BIG_TERM);
    if (pcFirst > 0) usable.unshift(...usable.splice(pcFirst, 1));
    const within = pcFirst >= 0 && usable[0]!.df > CANDIDATES ? usable[0]!.range : undefined;
    const pcRead = pcFirst >= 0;
    let withinLeft = WITHIN_POSTINGS;
    for (let k = 0; k < usable.length; k++) {
      const t = usable[k]!;
      if (k >= 1 && t.df > BIG_TERM) continue;
      if (!within && k >= 2 && nTouched >= ENOUGH_TOUCHED) break;
      if (within && k > 0 && (withinLeft -= t.df) < 0) continue;
      // While every address touched is a candidate anyway (a full postcode touches ~15), a
      // term with more addresses than there are candidate places only adds an arbitrary few
      // of them (a house number: 1 in 30 of all addresses), so it is left to the scoring.
      if (nTouched > 0 && nTouched <= CANDIDATES && t.df > CANDIDATES) continue;
      const stamp = ++this.stamp;
      // Only a first term can be this common (a house number and nothing rarer): any
      // ENOUGH_TOUCHED of its addresses are as good candidates as all of them.
      let budget = t.df > BIG_TERM ? ENOUGH_TOUCHED : t.df;
      // A postcode term is one run of ordinals; a word term, the postings of each scanned word.
      const idf = Math.log(1 + this.n / t.df);
      // [first, end, weight, word]: a run of ordinals (word −1), or the first end − first postings of a word.
      const runs: Array<[number, number, number, number]> = t.range
        ? [[t.range[0], t.range[1], POSTCODE_WEIGHT, -1]]
        : t.scan.map((id) => [0, postOff[id + 1]! - postOff[id]!, idf * t.sims.get(id)!, id]);
      // The postcode area being typed, among the words by weight (best first: an address
      // keeps its best reading).
      if (t.readPcStart) {
        const at = runs.findIndex((r) => r[2] < idf * POSTCODE_START_SIM);
        runs.splice(at < 0 ? runs.length : at, 0, [t.pcStart![0], t.pcStart![1], idf * POSTCODE_START_SIM, -1]);
      }
      for (const [from, to, w, word] of runs) {
        // A word's postings are read at once, only as many as the budget lets the loop reach.
        const list = word >= 0 && budget > 0 ? rows.postings(word, Math.min(to - from, budget)) : undefined;
        for (let i = from; i < to && budget-- > 0; i++) {
          const ord = list ? list[i]! : i;
          if (within && k > 0 && (ord < within[0] || ord >= within[1])) continue;
          if (sparse) {
            sparse.add(ord, stamp, w);
            continue;
          }
          const slot = ord << 1;
          const last = stamps[slot]!;
          if (last === stamp) continue; // one contribution per term, its best word
          stamps[slot] = stamp;
          if (last < first) {
            acc[slot + 1] = w;
            touched[nTouched++] = ord;
          } else acc[slot + 1] = acc[slot + 1]! + w;
        }
      }
      if (sparse) nTouched = sparse.count;
    }
    // A postcode too big to read (an outward code being typed at national scale: "BS1" is
    // BS1 and BS10–BS19) still lifts the touched addresses in it.
    const range = terms.find((t) => t.range)?.range;
    if (range && !pcRead && sparse) {
      for (let n = 0; n < nTouched; n++) {
        const ord = sparse.ords[n]!;
        if (ord >= range[0] && ord < range[1]) sparse.lift(n, POSTCODE_WEIGHT);
      }
    } else if (range && !pcRead) {
      for (let n = 0; n < nTouched; n++) {
        const ord = touched[n]!;
        if (ord >= range[0] && ord < range[1]) acc[(ord << 1) + 1] = acc[(ord << 1) + 1]! + POSTCODE_WEIGHT;
      }
    }
    if (sparse) return topK(sparse.ords.subarray(0, nTouched), sparse.scores, CANDIDATES, true);
    return topK(touched.subarray(0, nTouched), acc, CANDIDATES, false);
  }

  /**
   * Similarity adjusted for addresses, 0–1, computed on vocabulary ids: each typed word
   * counts with its trigram count times its best word similarity in the address (pg_trgm
   * shared trigrams at word grain); 0.7 × share of the query found + 0.3 × shared ÷ union
   * (so a shorter address that holds the query ranks first). Numbers must be present and
   * in order; a postcode given puts its addresses above all others.
   */
  private score(ord: number, p: ParsedQuery, terms: Term[], sims: Float64Array[]): number {
    const docWords = this.rows.words(ord);
    const from = this.rows.rowFrom;
    const to = this.rows.rowTo;
    let s = 1;
    if (terms.length > 0) {
      let qW = 0;
      let matched = 0;
      for (let j = 0; j < terms.length; j++) {
        const t = terms[j]!;
        const sim = sims[j]!;
        qW += t.grams;
        let best = 0;
        // A word typed right after a house number is read as the street's first word before
        // any other ("10 cromash": CROMASHGLEN ROAD before SANDY DRIVE, CROMASHTON).
        const afterNumber = j > 0 && p.numberAt.includes(j - 1) && !p.numberAt.includes(j) ? sims[j - 1]! : undefined;
        if (afterNumber) {
          for (let i = from; i < to; i++) {
            const v = sim[docWords[i]!]! * (i > from && afterNumber[docWords[i - 1]!]! > 0 ? 1 : NOT_AFTER_NUMBER);
            if (v > best) best = v;
          }
        } else {
          for (let i = from; i < to && best < 1; i++) {
            const v = sim[docWords[i]!]!;
            if (v > best) best = v;
          }
        }
        if (t.pcStart && best < POSTCODE_START_SIM && ord >= t.pcStart[0] && ord < t.pcStart[1]) best = POSTCODE_START_SIM;
        matched += t.grams * best;
      }
      let dW = 0;
      for (let i = from; i < to; i++) dW += this.wordLen[docWords[i]!]! + 1;
      s = 0.7 * (matched / qW) + 0.3 * (matched / (qW + dW - matched));
    }
    // A number matches its own word only (a partial last number, its extensions): by the
    // term's similarities, which for numbers hold nothing else.
    const nums = p.numberAt;
    if (nums.length > 0) {
      let j = 0;
      let present = 0;
      for (const k of nums) {
        const sim = sims[k]!;
        for (let i = from; i < to; i++) if (sim[docWords[i]!]! > 0) { present++; break; }
      }
      for (let i = from; i < to && j < nums.length; i++) if (sims[nums[j]!]![docWords[i]!]! > 0) j++;
      if (present < nums.length) s *= 0.5;
      else if (j < nums.length) s *= 0.95;
    }
    if (p.postcodePrefix !== undefined) {
      const postcode = this.postcodes[this.rows.pcOf(ord)]!;
      s = postcode.startsWith(p.postcodePrefix) ? 0.5 + 0.5 * s : 0.5 * s;
    }
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

  private match(ord: number, score: number): AddressMatch {
    const r = this.rows;
    return { uprn: r.uprn(ord), address: r.address(ord), postcode: this.postcodes[r.pcOf(ord)]!, latitude: r.lat(ord), longitude: r.lng(ord), score };
  }
}

/** (score a, ordinal a) ranks above (score b, ordinal b): a higher score, or the same score and a lower ordinal. */
const better = (as: number, ao: number, bs: number, bo: number) => as > bs || (as === bs && ao < bo);

function decodeList(off: Uint32Array, bytes: Uint8Array): string[] {
  const out: string[] = new Array(off.length - 1);
  for (let i = 0; i + 1 < off.length; i++) out[i] = decoder.decode(bytes.subarray(off[i]!, off[i + 1]!));
  return out;
}


/**
 * The k ordinals with the highest score (min-heap on typed arrays, ordered by `better`),
 * ties to the lower ordinal. `score` is the candidate pass's interleaved scratch: ordinal
 * o's score at 2o + 1; or, `parallel`, the sparse scores, ords[n]'s at 2n + 1. Most touched addresses score below the heap's minimum and are
 * rejected by one comparison against its root.
 */
export function topK(ords: Uint32Array, score: Float32Array, k: number, parallel: boolean): number[] {
  if (ords.length <= k) return Array.from(ords);
  const hs = new Float32Array(k);
  const ho = new Uint32Array(k);
  let size = 0;
  for (let n = 0; n < ords.length; n++) {
    const o = ords[n]!;
    const sc = score[parallel ? 2 * n + 1 : (o << 1) + 1]!;
    let i: number;
    if (size < k) {
      // Sift up from the end.
      i = size++;
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (!better(hs[parent]!, ho[parent]!, sc, o)) break;
        hs[i] = hs[parent]!;
        ho[i] = ho[parent]!;
        i = parent;
      }
    } else {
      if (!better(sc, o, hs[0]!, ho[0]!)) continue;
      // Replace the root and sift down.
      i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= k) break;
        const r = l + 1;
        const m = r < k && better(hs[l]!, ho[l]!, hs[r]!, ho[r]!) ? r : l;
        if (!better(sc, o, hs[m]!, ho[m]!)) break;
        hs[i] = hs[m]!;
        ho[i] = ho[m]!;
        i = m;
      }
    }
    hs[i] = sc;
    ho[i] = o;
  }
  return Array.from(ho);
}
