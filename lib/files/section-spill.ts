import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECTION_TYPES, writeAll, type SectionArray, type SectionSource, type SectionType } from './sections-file.ts';

/**
 * Sections of a sections file (`sections-file.ts`) built by appending values without holding
 * them: each section fills a bounded buffer, flushed to a temporary file when full, and is
 * streamed back in buffer-sized pieces when the final file is assembled. What a writer holds
 * is then its buffers, whatever the number of rows.
 */

/** Bytes a section's buffer grows to before it is flushed (tests pass small ones to force many flushes). */
export const SPILL_BUFFER_BYTES = 1 << 20;
/** A buffer starts this small and doubles up to its limit, so a writer of a few rows stays small. */
const FIRST_BUFFER_BYTES = 4096;

/** A typed array's bytes, as a view. */
export const bytesOf = (a: SectionArray): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * The temporary folder of one writer's spilled sections: made at the first flush (a writer
 * that never fills a buffer touches no disk), inside `parent` (the build folder in a build,
 * else the OS temporary folder), and removed with every file in it by `remove`.
 */
export class SpillFolder {
  private dir: string | undefined;
  private files = 0;
  private readonly fds = new Set<number>();
  private removed = false;

  constructor(private readonly parent: string = tmpdir(), private readonly prefix = '.section-spill-') {}

  /** Opens a new file in the folder for writing and reading back. */
  open(): number {
    if (this.removed) throw new Error('the spill folder was removed (the writer was finished or discarded)');
    this.dir ??= mkdtempSync(join(this.parent, this.prefix));
    const fd = openSync(join(this.dir, String(this.files++)), 'w+');
    this.fds.add(fd);
    return fd;
  }

  /** Closes and deletes every file; safe to call more than once. */
  remove(): void {
    this.removed = true;
    for (const fd of this.fds) {
      try {
        closeSync(fd);
      } catch {
        // already closed: the files go with the folder regardless
      }
    }
    this.fds.clear();
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface SpillOptions {
  /** Where the temporary folder goes (default: the OS temporary folder). */
  spillDir?: string;
  /** Each section's buffer limit in bytes (default SPILL_BUFFER_BYTES); a multiple of 8. */
  bufferBytes?: number;
}

export function spillBufferBytes(opts: SpillOptions): number {
  const b = opts.bufferBytes ?? SPILL_BUFFER_BYTES;
  if (!Number.isInteger(b) || b < 8 || b % 8 !== 0) throw new Error(`a spill buffer must be a positive multiple of 8 bytes, got ${b}`);
  return b;
}

const encoder = new TextEncoder();

/** One section's values, appended through a bounded buffer and spilled to a file of `folder`. */
export class SpilledSection {
  private buf: SectionArray;
  private used = 0;
  private flushed = 0;
  private fd = -1;

  constructor(
    private readonly folder: SpillFolder,
    private readonly name: string,
    readonly type: SectionType,
    private readonly maxBytes: number,
  ) {
    this.buf = new SECTION_TYPES[type](Math.min(FIRST_BUFFER_BYTES, maxBytes) / SECTION_TYPES[type].BYTES_PER_ELEMENT);
  }

  /** Values appended so far. */
  get length(): number {
    return this.flushed + this.used;
  }

  /** Bytes of memory the section holds (its buffer). */
  heldBytes(): number {
    return this.buf.byteLength;
  }

  /** Appends one value, converted as an assignment to the section's typed array converts it. */
  push(v: number): void {
    if (this.used === this.buf.length) this.makeRoom();
    this.buf[this.used++] = v;
  }

  /** Appends the first `count` values of `src` (a typed array: copied a buffer's worth at a time). */
  pushAll(src: Float64Array | Float32Array, count: number): void {
    for (let at = 0; at < count;) {
      if (this.used === this.buf.length) this.makeRoom();
      const m = Math.min(count - at, this.buf.length - this.used);
      this.buf.set(src.subarray(at, at + m), this.used);
      this.used += m;
      at += m;
    }
  }

  /** Appends `s` as UTF-8 (a `u8` section only); returns the bytes appended. */
  pushText(s: string): number {
    if (this.type !== 'u8') throw new Error(`section ${this.name} is ${this.type}, not bytes`);
    // At most 3 bytes per UTF-16 unit: make room for that, or write a longer string straight out.
    if (this.used + s.length * 3 > this.buf.length) this.makeRoom(s.length * 3);
    if (s.length * 3 > this.buf.length - this.used) {
      const bytes = encoder.encode(s);
      this.flush();
      writeAll(this.file(), bytes);
      this.flushed += bytes.length;
      return bytes.length;
    }
    const written = encoder.encodeInto(s, (this.buf as Uint8Array).subarray(this.used)).written;
    this.used += written;
    return written;
  }

  /**
   * Calls `visit` with every value in order, a buffer's worth at a time (the views are reused:
   * read them before returning).
   */
  forEachPiece(visit: (values: SectionArray) => void): void {
    if (this.fd < 0) {
      if (this.used > 0) visit(this.buf.subarray(0, this.used));
      return;
    }
    this.flush();
    // The buffer, now empty, is the read buffer: no second one.
    for (let index = 0; index < this.flushed;) {
      const got = this.read(index, this.buf);
      visit(this.buf.subarray(0, got));
      index += got;
    }
  }

  /**
   * Copies the values from `index` on into `into` (of the section's type), as many as fit;
   * returns how many.
   */
  read(index: number, into: SectionArray): number {
    const count = Math.max(0, Math.min(into.length, this.length - index));
    if (count === 0) return 0;
    if (this.fd < 0) {
      into.set(this.buf.subarray(index, index + count) as never);
      return count;
    }
    this.flush();
    const per = this.buf.BYTES_PER_ELEMENT;
    const bytes = new Uint8Array(into.buffer, into.byteOffset, count * per);
    for (let got = 0; got < bytes.length;) {
      const r = readSync(this.fd, bytes, got, bytes.length - got, index * per + got);
      if (r === 0) throw new Error(`spilled section ${this.name} is shorter than written (${index * per + got} of ${this.flushed * per} bytes)`);
      got += r;
    }
    return count;
  }

  /** The section as a source of the final file (`sections-file.ts`), named `name` there. */
  source(name: string): SectionSource {
    return { name, type: this.type, length: this.length, write: (emit) => this.forEachPiece((v) => emit(bytesOf(v))) };
  }

  /**
   * The section as a source whose values are `map[value]`, written as `type`: codes given in
   * first-seen order remapped to a sorted dictionary's, a piece at a time.
   */
  mappedSource(name: string, type: SectionType, map: ArrayLike<number>): SectionSource {
    const write = (emit: (bytes: Uint8Array) => void) => {
      let out = new SECTION_TYPES[type](0);
      this.forEachPiece((piece) => {
        if (out.length < piece.length) out = new SECTION_TYPES[type](piece.length);
        const o = out.subarray(0, piece.length);
        for (let k = 0; k < piece.length; k++) o[k] = map[piece[k]!]!;
        emit(bytesOf(o));
      });
    };
    return { name, type, length: this.length, write };
  }

  /** Grows the buffer while under its limit, else flushes it; `atLeast` bytes are free after, when the limit allows. */
  private makeRoom(atLeast = 1): void {
    const per = this.buf.BYTES_PER_ELEMENT;
    const need = this.used * per + atLeast;
    if (this.buf.byteLength < this.maxBytes) {
      let size = this.buf.byteLength;
      while (size < need && size < this.maxBytes) size *= 2;
      const next = new SECTION_TYPES[this.type](Math.min(size, this.maxBytes) / per);
      next.set(this.buf.subarray(0, this.used) as never);
      this.buf = next;
    }
    if (this.used * per + atLeast > this.buf.byteLength) this.flush();
  }

  private flush(): void {
    if (this.used === 0) return;
    writeAll(this.file(), bytesOf(this.buf.subarray(0, this.used)));
    this.flushed += this.used;
    this.used = 0;
  }

  private file(): number {
    if (this.fd < 0) this.fd = this.folder.open();
    return this.fd;
  }
}
