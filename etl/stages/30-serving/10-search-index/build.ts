import type { SearchIndexData } from '../../../../lib/files/search-index-format.ts';
import { GrowableBytes } from '../../../../lib/files/sections-file.ts';
import { DocWordsCache } from './doc-words.ts';
import { stringTable } from './string-table.ts';

export interface IndexRow {
  uprn: number;
  address: string;
  postcode: string;
  lat: number;
  lng: number;
  /**
   * Other wordings of the address (an open-data build's certificate variants and Price Paid
   * forms: docs/open-data.md), '|'-separated; their words the address lacks are searchable too.
   */
  aliases?: string | null;
}

/** A Uint32Array that grows as values are appended (a number[] of the same values takes twice the memory or more). */
class GrowableU32 {
  private buf = new Uint32Array(1 << 16);
  length = 0;
  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Uint32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }
  view(): Uint32Array {
    return this.buf.subarray(0, this.length);
  }
}

/**
 * Builds the index arrays from address rows that arrive ordered by postcode then address
 * (the published `addresses` table read with that ORDER BY), so each postcode is one
 * contiguous ordinal range. Words are the shared normalised address words (`docWords`,
 * each address part normalised once: `doc-words.ts`).
 */
export async function buildSearchIndex(rows: AsyncIterable<IndexRow> | Iterable<IndexRow>, expected: number): Promise<SearchIndexData> {
  const uprn = new Float64Array(expected);
  const lat = new Float64Array(expected);
  const lng = new Float64Array(expected);
  const addrOff = new Uint32Array(expected + 1);
  const pcOf = new Uint32Array(expected);
  const addr = new GrowableBytes();
  const postcodes: string[] = [];
  const pcFirstList: number[] = [];
  const wordIds = new Map<string, number>();
  const docOff = new Uint32Array(expected + 1);
  // Each address's word ids in order; the postings are inverted from it afterwards, into
  // typed arrays, rather than grown as a list per word.
  const docList = new GrowableU32();
  const docWords = new DocWordsCache();
  let n = 0;
  for await (const r of rows) {
    if (n >= expected) throw new Error(`more address rows than the ${expected} counted`);
    if (postcodes[postcodes.length - 1] !== r.postcode) {
      if (postcodes.length > 0 && postcodes[postcodes.length - 1]! > r.postcode) throw new Error('address rows must be ordered by postcode');
      postcodes.push(r.postcode);
      pcFirstList.push(n);
    }
    uprn[n] = r.uprn;
    lat[n] = r.lat;
    lng[n] = r.lng;
    pcOf[n] = postcodes.length - 1;
    addr.push(r.address);
    addrOff[n + 1] = addr.length;
    for (const w of docWords.withAliases(r)) {
      let id = wordIds.get(w);
      if (id === undefined) wordIds.set(w, (id = wordIds.size));
      docList.push(id);
    }
    docOff[n + 1] = docList.length;
    n++;
  }
  if (n !== expected) throw new Error(`expected ${expected} address rows, read ${n}`);
  const pcFirst = Uint32Array.from([...pcFirstList, n]);
  const pcs = stringTable(postcodes);
  const vocab = [...wordIds.keys()].sort();
  const voc = stringTable(vocab);
  const sortedId = new Uint32Array(vocab.length);
  vocab.forEach((w, i) => (sortedId[wordIds.get(w)!] = i));
  const docWordIds = docList.view().map((id) => sortedId[id]!);
  const { postOff, postings } = invert(docWordIds, docOff, n, vocab.length);
  return {
    n, uprn, lat, lng, addrOff, addrBytes: addr.bytes(), pcOf, pcFirst, pcOff: pcs.off, pcBytes: pcs.bytes,
    vocabOff: voc.off, vocabBytes: voc.bytes, postOff, postings, docOff, docWords: docWordIds,
  };
}

/**
 * Per word (sorted id), the ordinals whose words include it, ascending, each once (a word
 * twice in one address is posted once): a count, then a fill, over the addresses' words.
 */
function invert(docWords: Uint32Array, docOff: Uint32Array, n: number, words: number): { postOff: Uint32Array; postings: Uint32Array } {
  const lastDoc = new Int32Array(words).fill(-1);
  const postOff = new Uint32Array(words + 1);
  for (let i = 0; i < n; i++) {
    for (let k = docOff[i]!; k < docOff[i + 1]!; k++) {
      const w = docWords[k]!;
      if (lastDoc[w] !== i) {
        lastDoc[w] = i;
        postOff[w + 1]!++;
      }
    }
  }
  for (let w = 0; w < words; w++) postOff[w + 1]! += postOff[w]!;
  const postings = new Uint32Array(postOff[words]!);
  const next = postOff.slice(0, words);
  lastDoc.fill(-1);
  for (let i = 0; i < n; i++) {
    for (let k = docOff[i]!; k < docOff[i + 1]!; k++) {
      const w = docWords[k]!;
      if (lastDoc[w] !== i) {
        lastDoc[w] = i;
        postings[next[w]!++] = i;
      }
    }
  }
  return { postOff, postings };
}
