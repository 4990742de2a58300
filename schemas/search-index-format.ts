import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

/**
 * The search index file a build publishes (`search-index.bin`), read by the service
 * without rebuilding anything: a small JSON header then 8-byte-aligned typed arrays that
 * are used in place (views over the one file buffer, no per-row objects).
 *
 * Addresses are ordered by postcode then address, so a postcode, a sector or a district
 * is a contiguous ordinal range. The word index is a sorted vocabulary of normalised
 * address words (postcode excluded) with, per word, the sorted ordinals containing it.
 */
export const SEARCH_INDEX_FILE = 'search-index.bin';
const MAGIC = 'PISRCH02';

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
type Section = (typeof SECTIONS)[number];
const CTORS = {
  uprn: Float64Array, lat: Float64Array, lng: Float64Array, addrOff: Uint32Array, addrBytes: Uint8Array, pcOf: Uint32Array,
  pcFirst: Uint32Array, pcOff: Uint32Array, pcBytes: Uint8Array, vocabOff: Uint32Array, vocabBytes: Uint8Array,
  postOff: Uint32Array, postings: Uint32Array, docOff: Uint32Array, docWords: Uint32Array,
} as const;

const pad8 = (n: number) => (8 - (n % 8)) % 8;

export function writeSearchIndex(path: string, data: SearchIndexData): number {
  const layout: Record<string, [number, number]> = {};
  let off = 0;
  for (const s of SECTIONS) {
    const len = data[s].length;
    layout[s] = [off, len];
    off += data[s].byteLength + pad8(data[s].byteLength);
  }
  const header = Buffer.from(JSON.stringify({ n: data.n, layout }), 'utf8');
  const head = Buffer.alloc(16 + header.length + pad8(16 + header.length));
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 16);
  const fd = openSync(path, 'w');
  try {
    let bytes = writeSync(fd, head);
    const zeros = Buffer.alloc(8);
    for (const s of SECTIONS) {
      const a = data[s];
      bytes += writeSync(fd, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
      bytes += writeSync(fd, zeros, 0, pad8(a.byteLength));
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** Reads the file into one buffer and returns typed views over it; a wrong file throws. */
export function readSearchIndex(path: string): SearchIndexData {
  return readSearchIndexBuffer(readFileSync(path), path);
}

export function readSearchIndexBuffer(buf: Buffer, path: string): SearchIndexData {
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error(`${path} is not a search index (${MAGIC})`);
  const hlen = buf.readUInt32LE(8);
  if (16 + hlen > buf.length) throw new Error(`${path} is truncated (header)`);
  const { n, layout } = JSON.parse(buf.toString('utf8', 16, 16 + hlen)) as { n: number; layout: Record<Section, [number, number]> };
  let base = 16 + hlen;
  base += pad8(base);
  // Typed views need an 8-aligned start; readFileSync's buffer normally is, copy if not.
  const ab: Uint8Array = buf.byteOffset % 8 === 0 ? buf : new Uint8Array(buf);
  const view = <S extends Section>(s: S) => {
    const [off, len] = layout[s];
    const C = CTORS[s];
    if (base + off + len * C.BYTES_PER_ELEMENT > ab.length) throw new Error(`${path} is truncated (${s})`);
    return new C(ab.buffer as ArrayBuffer, ab.byteOffset + base + off, len) as SearchIndexData[S];
  };
  const data = { n } as SearchIndexData;
  for (const s of SECTIONS) (data as unknown as Record<Section, unknown>)[s] = view(s);
  return data;
}
