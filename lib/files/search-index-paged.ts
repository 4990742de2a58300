import { LRUCache } from 'lru-cache';
import { BlockFile, BlockFileError, type BlockCache } from './block-file.ts';
import { SEARCH_INDEX_MAGIC, type SearchIndexData } from './search-index-format.ts';
import { SECTION_TYPES, type SectionType } from './sections-file.ts';

/**
 * The search index file read where it lies (issue 46, ADR 0015 step 3): the sections whose size
 * is per word or per postcode (vocabulary, postcodes, posting offsets) are read into the heap
 * at open; the per-address sections (uprn, lat, lng, addresses, postcode of each, words of each)
 * and the postings are read by positioned reads through the build's block cache. The file
 * format is unchanged (its sections are 8-byte aligned, so a value never straddles a block
 * unaligned to its size); a build made before this reads as it is.
 */

/** The parts of the index kept in the heap: their size grows with the vocabulary and the postcodes, not the addresses. */
export type SearchIndexHeapParts = Pick<SearchIndexData, 'n' | 'pcFirst' | 'pcOff' | 'pcBytes' | 'vocabOff' | 'vocabBytes' | 'postOff'>;

/** What the engine reads per address and per word: from the heap (`heapRows`) or paged (`PagedSearchRows`). */
export interface SearchIndexRows {
  /**
   * The words of ordinal `ord` as vocabulary ids: `array[rowFrom .. rowTo)`, valid until the
   * next call (the paged reader copies them into one scratch array).
   */
  words(ord: number): Uint32Array;
  rowFrom: number;
  rowTo: number;
  /** Ordinals of word `word`'s postings, from its first to at most `count` of them (ascending), valid until the next call. */
  postings(word: number, count: number): Uint32Array;
  uprn(ord: number): number;
  lat(ord: number): number;
  lng(ord: number): number;
  address(ord: number): string;
  pcOf(ord: number): number;
  close(): void;
}

const decoder = new TextDecoder();

/** The rows of an index held whole in the heap (tests, the ETL's own checks, and the bench's in-heap reader). */
export function heapRows(d: SearchIndexData): SearchIndexRows {
  return {
    rowFrom: 0,
    rowTo: 0,
    words(ord) {
      this.rowFrom = d.docOff[ord]!;
      this.rowTo = d.docOff[ord + 1]!;
      return d.docWords;
    },
    postings: (word, count) => {
      const from = d.postOff[word]!;
      return d.postings.subarray(from, from + Math.min(count, d.postOff[word + 1]! - from));
    },
    uprn: (ord) => d.uprn[ord]!,
    lat: (ord) => d.lat[ord]!,
    lng: (ord) => d.lng[ord]!,
    address: (ord) => decoder.decode(d.addrBytes.subarray(d.addrOff[ord]!, d.addrOff[ord + 1]!)),
    pcOf: (ord) => d.pcOf[ord]!,
    close: () => undefined,
  };
}

/** Sections read paged and the type each must have. */
const PAGED = { uprn: 'f64', lat: 'f64', lng: 'f64', addrOff: 'u32', addrBytes: 'u8', pcOf: 'u32', docOff: 'u32', docWords: 'u32', postings: 'u32' } as const;
/** Sections read into the heap at open. */
const HEAP = { pcFirst: 'u32', pcOff: 'u32', pcBytes: 'u8', vocabOff: 'u32', vocabBytes: 'u8', postOff: 'u32' } as const;
type PagedSection = keyof typeof PAGED;

/** Decoded posting lists kept for the words read most (a common street word is read by many queries). */
export const POSTINGS_CACHE_BYTES = 8 * 1048576;
/** Lists shorter than this come from the block cache as they are; longer ones are kept decoded (`POSTINGS_CACHE_BYTES`). */
const KEEP_LIST_FROM = 1024;
/** Longest run of words an address has in practice; longer ones grow the scratch. */
const WORDS_SCRATCH = 64;

/** The search index opened for positioned reads on `cache`: its heap parts and its paged rows. */
export function openPagedSearchIndex(path: string, cache: BlockCache, postingsCacheBytes = POSTINGS_CACHE_BYTES): { parts: SearchIndexHeapParts; rows: PagedSearchRows } {
  const file = BlockFile.open(path, cache);
  try {
    if (file.size < 16 || file.copy(0, 8).toString('latin1') !== SEARCH_INDEX_MAGIC) throw new BlockFileError(`${path} is not a search index (${SEARCH_INDEX_MAGIC})`);
    const hlen = file.u32(8);
    if (16 + hlen > file.size) throw new BlockFileError(`${path} is truncated (header)`);
    let header: { meta: { n: number }; layout: Record<string, [number, number, SectionType]> };
    try {
      header = JSON.parse(file.copy(16, hlen).toString('utf8')) as typeof header;
    } catch (e) {
      throw new BlockFileError(`${path}: its header cannot be read (${(e as Error).message})`);
    }
    const base = 16 + hlen + ((8 - ((16 + hlen) % 8)) % 8);
    const n = header.meta?.n;
    if (!Number.isInteger(n) || n < 0) throw new BlockFileError(`${path}: its header has no address count`);
    /** Section `name`'s byte offset and length in the file, checked against its type and the file's size. */
    const where = (name: string, type: SectionType): { at: number; length: number } => {
      const entry = header.layout?.[name];
      if (!entry) throw new BlockFileError(`${path} has no section ${name}`);
      const [off, length, t] = entry;
      if (t !== type) throw new BlockFileError(`${path}: section ${name} is ${t}, not ${type}`);
      const at = base + off;
      if (at + length * SECTION_TYPES[type].BYTES_PER_ELEMENT > file.size) throw new BlockFileError(`${path} is truncated (${name})`);
      return { at, length };
    };
    const heap = {} as Record<keyof typeof HEAP, Uint32Array | Uint8Array>;
    for (const [name, type] of Object.entries(HEAP) as Array<[keyof typeof HEAP, 'u32' | 'u8']>) {
      const { at, length } = where(name, type);
      const bytes = file.copy(at, length * SECTION_TYPES[type].BYTES_PER_ELEMENT);
      // A copy of its own: an exact-size buffer (not a view into Buffer's shared pool) that is aligned.
      heap[name] = type === 'u8' ? new Uint8Array(bytes) : new Uint32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    }
    const at = {} as Record<PagedSection, number>;
    const len = {} as Record<PagedSection, number>;
    for (const [name, type] of Object.entries(PAGED) as Array<[PagedSection, SectionType]>) ({ at: at[name], length: len[name] } = where(name, type));
    const parts: SearchIndexHeapParts = { n, ...(heap as Pick<SearchIndexData, keyof typeof HEAP>) };
    // The lengths that tie the sections together: a file of another shape fails here, not with a wrong answer later.
    const words = parts.vocabOff.length - 1;
    const postcodes = parts.pcOff.length - 1;
    const bad = [
      len.uprn !== n && 'uprn', len.lat !== n && 'lat', len.lng !== n && 'lng', len.pcOf !== n && 'pcOf',
      len.addrOff !== n + 1 && 'addrOff', len.docOff !== n + 1 && 'docOff',
      (words < 0 || parts.postOff.length !== words + 1 || parts.postOff[words] !== len.postings) && 'postOff',
      (postcodes < 0 || parts.pcFirst.length !== postcodes + 1 || parts.pcFirst[postcodes] !== n) && 'pcFirst',
      file.u32(at.docOff + 4 * n) !== len.docWords && 'docWords', file.u32(at.addrOff + 4 * n) !== len.addrBytes && 'addrBytes',
    ].filter(Boolean);
    if (bad.length > 0) throw new BlockFileError(`${path}: sections do not agree with each other (${bad.join(', ')}): not a search index this service can read`);
    return { parts, rows: new PagedSearchRows(file, parts, at, postingsCacheBytes) };
  } catch (e) {
    file.close();
    throw e;
  }
}

/** The per-address sections and the postings of an open index file, read through the block cache. */
export class PagedSearchRows implements SearchIndexRows {
  rowFrom = 0;
  rowTo = 0;
  private scratch = new Uint32Array(WORDS_SCRATCH);
  private readonly listScratch = new Uint32Array(KEEP_LIST_FROM);
  /** Decoded long posting lists by word: the longest prefix read so far. */
  private readonly lists: LRUCache<number, Uint32Array>;

  constructor(
    private readonly file: BlockFile,
    private readonly parts: SearchIndexHeapParts,
    private readonly at: Readonly<Record<PagedSection, number>>,
    postingsCacheBytes: number,
  ) {
    this.lists = new LRUCache<number, Uint32Array>({ maxSize: Math.max(1, postingsCacheBytes), sizeCalculation: (a) => Math.max(1, a.byteLength) });
  }

  private readonly pair = new Uint32Array(2);

  words(ord: number): Uint32Array {
    this.file.u32s(this.at.docOff + 4 * ord, 2, this.pair);
    const from = this.pair[0]!;
    const count = this.pair[1]! - from;
    if (count < 0) throw new BlockFileError(`${this.file.path}: the words of address ${ord} end before they start`);
    if (count > this.scratch.length) this.scratch = new Uint32Array(count);
    this.file.u32s(this.at.docWords + 4 * from, count, this.scratch);
    this.rowFrom = 0;
    this.rowTo = count;
    return this.scratch;
  }

  postings(word: number, count: number): Uint32Array {
    const from = this.parts.postOff[word]!;
    const want = Math.min(count, this.parts.postOff[word + 1]! - from);
    const kept = this.lists.get(word);
    if (kept && kept.length >= want) return kept.subarray(0, want);
    if (want < KEEP_LIST_FROM) {
      // A short list into the reused scratch: the caller reads it before the next call.
      this.file.u32s(this.at.postings + 4 * from, want, this.listScratch);
      return this.listScratch.subarray(0, want);
    }
    const list = new Uint32Array(want);
    this.file.u32s(this.at.postings + 4 * from, want, list);
    this.lists.set(word, list);
    return list;
  }

  uprn(ord: number): number {
    return this.file.f64(this.at.uprn + 8 * ord);
  }

  lat(ord: number): number {
    return this.file.f64(this.at.lat + 8 * ord);
  }

  lng(ord: number): number {
    return this.file.f64(this.at.lng + 8 * ord);
  }

  address(ord: number): string {
    this.file.u32s(this.at.addrOff + 4 * ord, 2, this.pair);
    const from = this.pair[0]!;
    const length = this.pair[1]! - from;
    if (length < 0) throw new BlockFileError(`${this.file.path}: the address of ${ord} ends before it starts`);
    return this.file.utf8(this.at.addrBytes + from, length);
  }

  pcOf(ord: number): number {
    this.file.u32s(this.at.pcOf + 4 * ord, 1, this.pair);
    return this.pair[0]!;
  }

  /** Bytes of decoded posting lists held. */
  get listBytes(): number {
    return this.lists.calculatedSize;
  }

  close(): void {
    this.lists.clear();
    this.file.close();
  }
}
