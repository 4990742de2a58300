import { closeSync, openSync, rmSync, writeSync } from 'node:fs';

/**
 * A binary file of named typed arrays that a reader uses in place (views over the one file
 * buffer, no per-row objects): 8 bytes of magic, the JSON header's length, the JSON header
 * (caller's metadata plus each section's offset and length), then each section 8-byte
 * aligned. The search index and the property record file are both this.
 */
export const SECTION_TYPES = { f64: Float64Array, f32: Float32Array, u32: Uint32Array, u16: Uint16Array, u8: Uint8Array } as const;
export type SectionType = keyof typeof SECTION_TYPES;
export type SectionArray = Float64Array<ArrayBufferLike> | Float32Array<ArrayBufferLike> | Uint32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike> | Uint8Array<ArrayBufferLike>;

const pad8 = (n: number) => (8 - (n % 8)) % 8;

/** Writes all of `bytes` at the file's current position (writeSync may write less than asked). */
export function writeAll(fd: number, bytes: Uint8Array): number {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
  return bytes.length;
}

function typeOf(a: SectionArray): SectionType {
  for (const [t, C] of Object.entries(SECTION_TYPES)) if (a instanceof C) return t as SectionType;
  throw new Error('unsupported section array');
}

/**
 * A section to write without holding it whole: its type and element count (enough for the
 * header's layout), and `write`, which hands its bytes over in order, in pieces of any size.
 */
export interface SectionSource {
  name: string;
  type: SectionType;
  length: number;
  write(emit: (bytes: Uint8Array) => void): void;
}

/** A whole typed array as a section source. */
export function arraySource(name: string, a: SectionArray): SectionSource {
  return { name, type: typeOf(a), length: a.length, write: (emit) => emit(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)) };
}

/** Writes `sections` in the given order after `meta`; returns the bytes written. */
export function writeSectionsFile(path: string, magic: string, meta: object, sections: ReadonlyArray<readonly [string, SectionArray]>): number {
  return writeSectionSources(path, magic, meta, sections.map(([name, a]) => arraySource(name, a)));
}

/**
 * Writes the sections `sources` give, in order, after `meta`; returns the bytes written. The
 * header comes from the declared lengths, so a source writing another number of bytes throws
 * (and the partial file is removed).
 */
export function writeSectionSources(path: string, magic: string, meta: object, sources: readonly SectionSource[]): number {
  if (magic.length !== 8) throw new Error('magic must be 8 characters');
  const layout: Record<string, [number, number, SectionType]> = {};
  let off = 0;
  for (const { name, type, length } of sources) {
    const byteLength = length * SECTION_TYPES[type].BYTES_PER_ELEMENT;
    layout[name] = [off, length, type];
    off += byteLength + pad8(byteLength);
  }
  const header = Buffer.from(JSON.stringify({ meta, layout }), 'utf8');
  const head = Buffer.alloc(16 + header.length + pad8(16 + header.length));
  head.write(magic, 0, 'latin1');
  head.writeUInt32LE(header.length, 8);
  header.copy(head, 16);
  const fd = openSync(path, 'w');
  try {
    let bytes = writeAll(fd, head);
    const zeros = Buffer.alloc(8);
    for (const { name, type, length, write } of sources) {
      const want = length * SECTION_TYPES[type].BYTES_PER_ELEMENT;
      let got = 0;
      write((piece) => {
        got += writeAll(fd, piece);
      });
      if (got !== want) throw new Error(`section ${name} wrote ${got} bytes, its header says ${want}`);
      bytes += got + writeAll(fd, zeros.subarray(0, pad8(got)));
    }
    closeSync(fd);
    return bytes;
  } catch (e) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw e;
  }
}

export interface SectionsFile<M> {
  meta: M;
  /** The named section as a typed view; throws when it is missing or truncated. */
  section<T extends SectionArray>(name: string): T;
  names: string[];
}

/** Parses a sections file from its bytes; a wrong magic or a truncated file throws, naming `what`. */
export function readSectionsFile<M>(buf: Uint8Array, magic: string, what: string, path: string): SectionsFile<M> {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.length < 16 || b.toString('latin1', 0, 8) !== magic) throw new Error(`${path} is not ${what} (${magic})`);
  const hlen = b.readUInt32LE(8);
  if (16 + hlen > b.length) throw new Error(`${path} is truncated (header)`);
  const { meta, layout } = JSON.parse(b.toString('utf8', 16, 16 + hlen)) as { meta: M; layout: Record<string, [number, number, SectionType]> };
  const base = 16 + hlen + pad8(16 + hlen);
  // Typed views need an aligned start; readFile's buffer normally is, copy if not.
  const ab: Uint8Array = buf.byteOffset % 8 === 0 ? buf : new Uint8Array(buf);
  return {
    meta,
    names: Object.keys(layout),
    section<T extends SectionArray>(name: string): T {
      const entry = layout[name];
      if (!entry) throw new Error(`${path} has no section ${name}`);
      const [off, len, type] = entry;
      const C = SECTION_TYPES[type];
      if (!C) throw new Error(`${path}: section ${name} has unknown type ${type}`);
      if (base + off + len * C.BYTES_PER_ELEMENT > ab.length) throw new Error(`${path} is truncated (${name})`);
      return new C(ab.buffer as ArrayBuffer, ab.byteOffset + base + off, len) as T;
    },
  };
}

const encoder = new TextEncoder();

/** A byte buffer that grows as UTF-8 strings are appended (for a file's string blobs). */
export class GrowableBytes {
  private buf = new Uint8Array(1 << 16);
  length = 0;
  push(s: string): void {
    const need = this.length + s.length * 3;
    if (need > this.buf.length) {
      const next = new Uint8Array(Math.max(need, this.buf.length * 2));
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.length += encoder.encodeInto(s, this.buf.subarray(this.length)).written;
  }
  bytes(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
