import { writeSearchIndexSources } from '../../../../lib/files/search-index-format.ts';
import { bytesOf, SpilledSection, SpillFolder, spillBufferBytes, type SpillOptions } from '../../../../lib/files/section-spill.ts';
import { arraySource, type SectionSource, type SectionType } from '../../../../lib/files/sections-file.ts';
import { SpillReader } from '../../../../lib/files/spill-reader.ts';
import type { IndexRow } from './build.ts';
import { DocWordsCache } from './doc-words.ts';
import { stringTable } from './string-table.ts';

/** Bytes of postings one pass of the inversion fills (a word with more is a pass of its own). */
export const POSTINGS_PASS_BYTES = 64 << 20;

export interface SearchIndexSpillOptions extends SpillOptions {
  /** Bytes of postings filled per pass over the spilled words (default POSTINGS_PASS_BYTES); tests pass small ones. */
  postingsPassBytes?: number;
}

/**
 * Writes the search index file (`lib/files/search-index-format.ts`) from address rows ordered by
 * postcode then address, the same bytes as `writeSearchIndex(path, await buildSearchIndex(…))`
 * (build.ts), without holding the per-address sections: the uprns, coordinates, addresses,
 * postcode ids and each address's word ids (first-seen ids) are appended through bounded
 * buffers spilled to a temporary folder of `spillDir` (`lib/files/section-spill.ts`), removed
 * before this returns or throws. In memory: the postcodes, the vocabulary, and per word its
 * postings count. At the end the word ids are remapped to the sorted vocabulary's as they are
 * streamed out, and the postings are filled a range of words at a time (`postingsPassBytes`
 * of them), each pass reading the spilled words back.
 */
export async function writeSearchIndexSpilled(
  path: string,
  rows: AsyncIterable<IndexRow> | Iterable<IndexRow>,
  expected: number,
  opts: SearchIndexSpillOptions = {},
): Promise<{ bytes: number; words: number; passes: number }> {
  const bufferBytes = spillBufferBytes(opts);
  const passBytes = opts.postingsPassBytes ?? POSTINGS_PASS_BYTES;
  const folder = new SpillFolder(opts.spillDir, '.search-index-spill-');
  try {
    const section = (name: string, type: SectionType) => new SpilledSection(folder, name, type, bufferBytes);
    const uprn = section('uprn', 'f64');
    const lat = section('lat', 'f64');
    const lng = section('lng', 'f64');
    const addrOff = section('addrOff', 'u32');
    const addrBytes = section('addrBytes', 'u8');
    const pcOf = section('pcOf', 'u32');
    const docOff = section('docOff', 'u32');
    const docList = section('docWords', 'u32');
    addrOff.push(0);
    docOff.push(0);
    const postcodes: string[] = [];
    const pcFirstList: number[] = [];
    const wordIds = new Map<string, number>();
    // Per word (first-seen id): its postings (addresses containing it, each once) and the last address counted.
    const postCount: number[] = [];
    const lastDoc: number[] = [];
    const docWords = new DocWordsCache();
    let n = 0;
    for await (const r of rows) {
      if (n >= expected) throw new Error(`more address rows than the ${expected} counted`);
      if (postcodes[postcodes.length - 1] !== r.postcode) {
        if (postcodes.length > 0 && postcodes[postcodes.length - 1]! > r.postcode) throw new Error('address rows must be ordered by postcode');
        postcodes.push(r.postcode);
        pcFirstList.push(n);
      }
      uprn.push(r.uprn);
      lat.push(r.lat);
      lng.push(r.lng);
      pcOf.push(postcodes.length - 1);
      addrBytes.pushText(r.address);
      addrOff.push(addrBytes.length);
      for (const w of docWords.withAliases(r)) {
        let id = wordIds.get(w);
        if (id === undefined) {
          wordIds.set(w, (id = wordIds.size));
          postCount.push(0);
          lastDoc.push(-1);
        }
        docList.push(id);
        if (lastDoc[id] !== n) {
          lastDoc[id] = n;
          postCount[id]!++;
        }
      }
      docOff.push(docList.length);
      n++;
    }
    if (n !== expected) throw new Error(`expected ${expected} address rows, read ${n}`);
    const pcs = stringTable(postcodes);
    const vocab = [...wordIds.keys()].sort();
    const voc = stringTable(vocab);
    const sortedId = new Uint32Array(vocab.length);
    vocab.forEach((w, i) => (sortedId[wordIds.get(w)!] = i));
    const postOff = new Uint32Array(vocab.length + 1);
    for (let id = 0; id < vocab.length; id++) postOff[sortedId[id]! + 1] = postCount[id]!;
    for (let w = 0; w < vocab.length; w++) postOff[w + 1]! += postOff[w]!;
    const postings = postingsSource(docOff, docList, sortedId, postOff, n, passBytes, bufferBytes);
    const bytes = writeSearchIndexSources(path, n, {
      uprn: uprn.source('uprn'),
      lat: lat.source('lat'),
      lng: lng.source('lng'),
      addrOff: addrOff.source('addrOff'),
      addrBytes: addrBytes.source('addrBytes'),
      pcOf: pcOf.source('pcOf'),
      pcFirst: arraySource('pcFirst', Uint32Array.from([...pcFirstList, n])),
      pcOff: arraySource('pcOff', pcs.off),
      pcBytes: arraySource('pcBytes', pcs.bytes),
      vocabOff: arraySource('vocabOff', voc.off),
      vocabBytes: arraySource('vocabBytes', voc.bytes),
      postOff: arraySource('postOff', postOff),
      postings: postings.source,
      docOff: docOff.source('docOff'),
      docWords: docList.mappedSource('docWords', 'u32', sortedId),
    });
    return { bytes, words: vocab.length, passes: postings.passes() };
  } finally {
    folder.remove();
  }
}

/**
 * The postings section: per word (sorted id), the ordinals whose words include it, ascending,
 * each once. Filled for a range of words at a time, at most `passBytes` of postings (or one
 * word's, when more), each pass reading every address's words back from the spill in step
 * with their offsets; a range's postings are written out before the next is filled.
 */
function postingsSource(
  docOff: SpilledSection,
  docList: SpilledSection,
  sortedId: Uint32Array,
  postOff: Uint32Array,
  n: number,
  passBytes: number,
  bufferBytes: number,
): { source: SectionSource; passes: () => number } {
  const words = postOff.length - 1;
  let passes = 0;
  const write = (emit: (bytes: Uint8Array) => void) => {
    const lastDoc = new Int32Array(words);
    let out = new Uint32Array(0);
    for (let lo = 0; lo < words;) {
      let hi = lo + 1;
      while (hi < words && (postOff[hi + 1]! - postOff[lo]!) * 4 <= passBytes) hi++;
      const base = postOff[lo]!;
      const size = postOff[hi]! - base;
      if (out.length < size) out = new Uint32Array(size);
      // Where the next posting of word lo + j goes, relative to the range's first.
      const next = postOff.slice(lo, hi).map((o) => o - base);
      lastDoc.fill(-1, lo, hi);
      const offs = new SpillReader(docOff, bufferBytes);
      const ids = new SpillReader(docList, bufferBytes);
      let k = offs.next();
      for (let i = 0; i < n; i++) {
        for (const end = offs.next(); k < end; k++) {
          const w = sortedId[ids.next()]!;
          if (w >= lo && w < hi && lastDoc[w] !== i) {
            lastDoc[w] = i;
            out[next[w - lo]!++] = i;
          }
        }
      }
      emit(bytesOf(out.subarray(0, size)));
      passes++;
      lo = hi;
    }
  };
  return { source: { name: 'postings', type: 'u32', length: postOff[words]!, write }, passes: () => passes };
}
