import { readFileSync } from 'node:fs';
import { arraySource, readSectionsFile, writeSectionSources, type SectionSource } from './sections-file.ts';

/**
 * The search index file a build publishes (`search-index.bin`), read by the service
 * without rebuilding anything: a sections file (`sections-file.ts`) of typed arrays used
 * in place.
 *
 * Addresses are ordered by postcode then address, so a postcode, a sector or a district
 * is a contiguous ordinal range. The word index is a sorted vocabulary of normalised
 * address words (postcode excluded) with, per word, the sorted ordinals containing it.
 */
export const SEARCH_INDEX_FILE = 'search-index.bin';
export const SEARCH_INDEX_MAGIC = 'PISRCH03';
const MAGIC = SEARCH_INDEX_MAGIC;

export interface SearchIndexData {
  n: number;
  uprn: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  /** Display address (UTF-8) of ordinal i: addrBytes[addrOff[i] .. addrOff[i+1]). */
  addrOff: Uint32Array;
  addrBytes: Uint8Array;
  /** Postcode id of each ordinal; postcodes sorted, pcFirst[p] is the first ordinal of postcode p (length P+1). */
  pcOf: Uint32Array;
  pcFirst: Uint32Array;
  pcOff: Uint32Array;
  pcBytes: Uint8Array;
  /** Sorted vocabulary (ASCII) and its postings: ordinals of word w are postings[postOff[w] .. postOff[w+1]). */
  vocabOff: Uint32Array;
  vocabBytes: Uint8Array;
  postOff: Uint32Array;
  postings: Uint32Array;
  /** The words of ordinal i in order, as vocabulary ids: docWords[docOff[i] .. docOff[i+1]). */
  docOff: Uint32Array;
  docWords: Uint32Array;
}

const SECTIONS = ['uprn', 'lat', 'lng', 'addrOff', 'addrBytes', 'pcOf', 'pcFirst', 'pcOff', 'pcBytes', 'vocabOff', 'vocabBytes', 'postOff', 'postings', 'docOff', 'docWords'] as const;
export type SearchIndexSection = (typeof SECTIONS)[number];
type Section = SearchIndexSection;

export function writeSearchIndex(path: string, data: SearchIndexData): number {
  return writeSearchIndexSources(path, data.n, Object.fromEntries(SECTIONS.map((s) => [s, arraySource(s, data[s])])) as Record<Section, SectionSource>);
}

/** Writes the index of `n` addresses from a source per section (streamed, not held whole: the ETL's spilling writer); returns the bytes written. */
export function writeSearchIndexSources(path: string, n: number, sources: Readonly<Record<SearchIndexSection, SectionSource>>): number {
  return writeSectionSources(path, MAGIC, { n }, SECTIONS.map((s) => ({ ...sources[s], name: s })));
}

/** Reads the file into one buffer and returns typed views over it; a wrong file throws. */
export function readSearchIndex(path: string): SearchIndexData {
  return readSearchIndexBuffer(readFileSync(path), path);
}

export function readSearchIndexBuffer(buf: Buffer, path: string): SearchIndexData {
  const file = readSectionsFile<{ n: number }>(buf, MAGIC, 'a search index', path);
  const data = { n: file.meta.n } as SearchIndexData;
  for (const s of SECTIONS) (data as unknown as Record<Section, unknown>)[s] = file.section(s);
  return data;
}
