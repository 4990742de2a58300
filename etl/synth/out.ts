import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';
import { createHash, type Hash } from 'node:crypto';

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

const FLUSH_AT = 1 << 20;

/**
 * A generated file: rows are appended to an in-memory chunk that is handed to the stream
 * (through gzip when asked) once it passes 1 MiB; `drain` is awaited when the stream
 * pushes back, so memory stays bounded whatever the region size.
 */
export class OutFile {
  rows = 0;
  /** False for a file another lane writes (generate.ts): it takes rows and discards them. */
  readonly live: boolean;
  private chunk: string[] = [];
  private chunkLen = 0;
  private readonly file: WriteStream | undefined;
  private readonly sink: WriteStream | Gzip | undefined;
  private readonly hash: Hash = createHash('sha256');
  sha256 = '';

  /** `latin1` writes each character as one byte (GIAS's Windows-1252 for the characters we use: é, °, à). */
  constructor(readonly path: string, readonly rel: string, gzip = false, private readonly encoding: 'utf8' | 'latin1' = 'utf8', live = true) {
    this.live = live;
    if (!live) return;
    mkdirSync(dirname(path), { recursive: true });
    this.file = createWriteStream(path);
    if (gzip) {
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
    this.chunk.push(text);
    this.chunkLen += text.length;
  }

  /** Appends one record (its text must end with the line terminator). */
  row(text: string): void {
    this.raw(text);
    this.rows++;
  }

  /** Hands the buffered text to the stream if it is large enough, waiting on backpressure. */
  async maybeFlush(): Promise<void> {
    if (this.chunkLen >= FLUSH_AT) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.chunk.length === 0) return;
    const text = Buffer.from(this.chunk.join(''), this.encoding);
    this.chunk = [];
    this.chunkLen = 0;
    if (this.sink === this.file) this.hash.update(text);
    if (!this.sink!.write(text)) await once(this.sink!, 'drain');
  }

  /** Flushes, ends the stream and waits until the file is closed; returns its size in bytes. */
  async close(): Promise<number> {
    if (!this.live) throw new Error(`${this.rel} is written by another lane`);
    await this.flush();
    const closed = once(this.file!, 'close');
    this.sink!.end();
    await closed;
    this.sha256 = this.hash.digest('hex');
    return statSync(this.path).size;
  }
}
