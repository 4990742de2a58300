import { createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';
import { createHash, type Hash } from 'node:crypto';

/** Quote only when needed (RFC 4180, as Python's csv module and most publishers write). */
export function csvMin(v: string | number | undefined): string {
  if (v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Quote every field (HM Land Registry bulk files). */
export function csvAll(v: string | number | undefined): string {
  return `"${v === undefined ? '' : String(v).replace(/"/g, '""')}"`;
}

export function csvRow(cells: (string | number | undefined)[]): string {
  return cells.map(csvMin).join(',') + '\n';
}

const FLUSH_AT = 1 << 20;

/**
 * A generated file: rows are appended to an in-memory chunk that is handed to the stream
 * (through gzip when asked) once it passes 1 MiB; `drain` is awaited when the stream
 * pushes back, so memory stays bounded whatever the region size.
 */
export class OutFile {
  rows = 0;
  private chunk: string[] = [];
  private chunkLen = 0;
  private readonly file: WriteStream;
  private readonly sink: WriteStream | Gzip;
  private readonly hash: Hash = createHash('sha256');
  sha256 = '';

  /** `latin1` writes each character as one byte (GIAS's Windows-1252 for the characters we use: é, °, à). */
  constructor(readonly path: string, readonly rel: string, gzip = false, private readonly encoding: 'utf8' | 'latin1' = 'utf8') {
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
    if (!this.sink.write(text)) await once(this.sink, 'drain');
  }

  /** Flushes, ends the stream and waits until the file is closed; returns its size in bytes. */
  async close(): Promise<number> {
    await this.flush();
    const closed = once(this.file, 'close');
    this.sink.end();
    await closed;
    this.sha256 = this.hash.digest('hex');
    return statSync(this.path).size;
  }
}
