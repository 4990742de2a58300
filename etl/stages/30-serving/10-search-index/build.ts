import { docWords } from '../../../../schemas/address-normalise.ts';
import type { SearchIndexData } from '../../../../schemas/search-index-format.ts';
import { GrowableBytes } from '../../../../schemas/sections-file.ts';

export interface IndexRow {
  uprn: number;
  address: string;
  postcode: string;
  lat: number;
  lng: number;
}

function stringTable(list: readonly string[]): { off: Uint32Array; bytes: Uint8Array } {
  const off = new Uint32Array(list.length + 1);
  const blob = new GrowableBytes();
  list.forEach((s, i) => {
    blob.push(s);
    off[i + 1] = blob.length;
  });
  return { off, bytes: blob.bytes() };
}

/**
 * Builds the index arrays from address rows that arrive ordered by postcode then address
 * (the published `addresses` table read with that ORDER BY), so each postcode is one
 * contiguous ordinal range. Words are the shared normalised address words.
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
  const wordPostings: number[][] = [];
  const docOff = new Uint32Array(expected + 1);
  const docList: number[] = [];
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
    for (const w of docWords(r.address, r.postcode)) {
      let id = wordIds.get(w);
      if (id === undefined) {
        wordIds.set(w, (id = wordPostings.length));
        wordPostings.push([]);
      }
      const list = wordPostings[id]!;
      if (list[list.length - 1] !== n) list.push(n); // a word twice in one address is posted once
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
  const postOff = new Uint32Array(vocab.length + 1);
  vocab.forEach((w, i) => (postOff[i + 1] = postOff[i]! + wordPostings[wordIds.get(w)!]!.length));
  const postings = new Uint32Array(postOff[vocab.length]!);
  const sortedId = new Uint32Array(vocab.length);
  vocab.forEach((w, i) => {
    postings.set(wordPostings[wordIds.get(w)!]!, postOff[i]!);
    sortedId[wordIds.get(w)!] = i;
  });
  const docWordIds = Uint32Array.from(docList, (id) => sortedId[id]!);
  return {
    n, uprn, lat, lng, addrOff, addrBytes: addr.bytes(), pcOf, pcFirst, pcOff: pcs.off, pcBytes: pcs.bytes,
    vocabOff: voc.off, vocabBytes: voc.bytes, postOff, postings, docOff, docWords: docWordIds,
  };
}
