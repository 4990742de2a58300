import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { createGzip, type Gzip } from 'node:zlib';
import { createHash, type Hash } from 'node:crypto';
import yazl from 'yazl';

/** Quote only when needed (RFC 4180, as Python's csv module and most publishers write). */
export function csvMin(v: string | number | undefined): string {
  if (v === undefined) return '';
  // A number's text never holds a quote, comma or line break: skip the scan (a hot path).
  if (typeof v === 'number') return String(v);
  return NEEDS_QUOTES.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** Quote every field (HM Land Registry bulk files). */
export function csvAll(v: string | number | undefined): string {
  return `"${v === undefined ? '' : String(v).replace(/"/g, '""')}"`;
}

export function csvRow(cells: (string | number | undefined)[]): string {
  // Concatenation rather than map/join: no intermediate array per row (most of the generator's time is rows).
  let s = cells.length === 0 ? '' : csvMin(cells[0]);
  for (let i = 1; i < cells.length; i++) s += ',' + csvMin(cells[i]);
  return s + '\n';
}

const CHUNK_BYTES = 1 << 20;

/** How a generated file is stored: as is, gzipped (Inside Airbnb), or as the one member of a zip archive (region-files.ts, `ZIPPED`). */
export type Packing = 'none' | 'gzip' | 'zip';

/**
 * A member's modification time, built from local fields: a zip stores it as local DOS date
 * and time fields, so a Date made from UTC would give other bytes in another time zone.
 */
const ZIP_MTIME = new Date(2000, 0, 1);

/** `…/x.zip/member.csv` → the archive's path and the member's name. */
function splitZip(path: string): { archive: string; member: string } {
  const at = /\.zip\//i.exec(path);
  if (!at) throw new Error(`${path}: a zipped file's path runs through its archive (x.zip/member)`);
  return { archive: path.slice(0, at.index + 4), member: path.slice(at.index + 5) };
}
const SPILL_AT = 1 << 16;

/**
 * A generated file: rows are encoded straight into a 1 MiB buffer (no joined string to
 * encode again), and full buffers are handed to the stream (through gzip when asked) at the
 * next `maybeFlush`; `drain` is awaited when the stream pushes back, so memory stays bounded
 * whatever the region size.
 */
export class OutFile {
  rows = 0;
  /** False for a file another lane writes (generate.ts): it takes rows and discards them. */
  readonly live: boolean;
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private pend = '';
  private full: Buffer[] = [];
  private readonly file: WriteStream | undefined;
  private readonly sink: WriteStream | Gzip | PassThrough | undefined;
  private readonly hash: Hash = createHash('sha256');
  sha256 = '';
  /** The file written on disk: `path` itself, or for a zipped file the archive `path` runs through. */
  readonly diskPath: string;

  /**
   * `latin1` writes each character as one byte (GIAS's Windows-1252 for the characters we use: é, °, à).
   * With `zip`, `path` (and `rel`) run through the archive, `…/x.zip/member.csv`, as the ETL names the member.
   */
  constructor(readonly path: string, readonly rel: string, packing: Packing = 'none', private readonly encoding: 'utf8' | 'latin1' = 'utf8', live = true) {
    this.live = live;
    this.diskPath = packing === 'zip' ? splitZip(path).archive : path;
    if (!live) return;
    mkdirSync(dirname(this.diskPath), { recursive: true });
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.file = createWriteStream(this.diskPath);
    if (packing === 'zip') {
      // One member, deflated at level 6 as it is written (yazl streams it with a data
      // descriptor, ZIP64 past 4 GB); a fixed time and mode, so the bytes depend on the content only.
      const zip = new yazl.ZipFile();
      const member = new PassThrough({ highWaterMark: CHUNK_BYTES });
      zip.addReadStream(member, splitZip(path).member, { mtime: ZIP_MTIME, mode: 0o100644, compressionLevel: 6, forceDosTimestamp: true });
      zip.end();
      zip.outputStream.on('data', (c: Buffer) => this.hash.update(c));
      zip.outputStream.pipe(this.file);
      this.sink = member;
    } else if (packing === 'gzip') {
      // Level 6, no file name or mtime in the header: the bytes depend on the content only.
      const gz = createGzip({ level: 6 });
      gz.on('data', (c: Buffer) => this.hash.update(c));
      gz.pipe(this.file);
      this.sink = gz;
    } else {
      this.sink = this.file;
    }
  }

  /** Appends text without counting a row (headers, JSON). */
  raw(text: string): void {
    if (!this.live) return;
    // Rows gather in a string of about 64 KiB before they are encoded: one native call per
    // batch instead of one per row.
    this.pend += text;
    if (this.pend.length >= SPILL_AT) this.spill();
  }

  /** Encodes the gathered rows into the buffer. */
  private spill(): void {
    const text = this.pend;
    this.pend = '';
    // A UTF-16 code unit takes at most 3 bytes in UTF-8.
    if (this.pos + 3 * text.length > this.buf.length) {
      this.retire();
      if (3 * text.length > this.buf.length) {
        this.full.push(Buffer.from(text, this.encoding));
        return;
      }
    }
    this.pos += this.buf.write(text, this.pos, this.encoding);
  }

  /** Queues the filled part of the buffer for the stream and starts a new one. */
  private retire(): void {
    if (this.pos === 0) return;
    this.full.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(CHUNK_BYTES);
    this.pos = 0;
  }

  /** Appends one record (its text must end with the line terminator). */
  row(text: string): void {
    this.raw(text);
    this.rows++;
  }

  /** Hands the buffered text to the stream if it is large enough, waiting on backpressure. */
  /** Whether full buffers wait for the stream (then `maybeFlush` has work to do). */
  get pending(): boolean {
    return this.full.length > 0;
  }

  async maybeFlush(): Promise<void> {
    if (this.full.length > 0) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pend !== '') this.spill();
    this.retire();
    const chunks = this.full;
    this.full = [];
    for (const c of chunks) {
      if (this.sink === this.file) this.hash.update(c);
      if (!this.sink!.write(c)) await once(this.sink!, 'drain');
    }
  }

  /** Flushes, ends the stream and waits until the file is closed; returns its size in bytes. */
  async close(): Promise<number> {
    if (!this.live) throw new Error(`${this.rel} is written by another lane`);
    await this.flush();
    const closed = once(this.file!, 'close');
    this.sink!.end();
    await closed;
    this.sha256 = this.hash.digest('hex');
    return statSync(this.diskPath).size;
  }
}
