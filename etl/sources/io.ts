import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { openZipMember, zipMemberPath } from './zip.ts';

const GZIP_MAGIC = [0x1f, 0x8b];

/** True when the file starts with the gzip magic bytes, whatever its name says (a zip archive's member never is: it is inflated as read). */
export async function isGzip(path: string): Promise<boolean> {
  if (zipMemberPath(path)) return false;
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === GZIP_MAGIC[0] && buf[1] === GZIP_MAGIC[1];
  } finally {
    await fh.close();
  }
}

/**
 * A byte stream of the file's content, gunzipped transparently when it is gzip; a path that
 * runs through a zip archive (`…/x.zip/member.csv`, `zip.ts`) streams that member.
 */
export async function openSource(path: string): Promise<Readable> {
  const inZip = zipMemberPath(path);
  if (inZip) return openZipMember(inZip.archive, inZip.member);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  if (!(await isGzip(path))) return raw;
  // A cut-short or damaged gzip (zlib checks its length and CRC-32 at the end) fails the read naming the file.
  const gunzip = createGunzip();
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  raw.on('error', (e) => out.destroy(e));
  gunzip.on('error', (e) => out.destroy(new Error(`${path}: damaged gzip file (${e.message})`)));
  return raw.pipe(gunzip).pipe(out);
}

/** Whole file as text (gzip transparent, BOM stripped): for small documents such as GeoJSON pages. */
export async function readSourceText(path: string): Promise<string> {
  const stream = await openSource(path);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Windows-1252 bytes → UTF-8 bytes, streaming, for sources published in that code page
 * (GIAS extracts: `°` is 0xB0, `à` is 0xE0; read as UTF-8 they become U+FFFD). The WHATWG
 * decoder maps 0x80–0x9F to `€`, `’` and the rest as Windows does, not to C1 controls.
 */
export function windows1252ToUtf8(input: Readable): Readable {
  const decoder = new TextDecoder('windows-1252');
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) { done(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8')); },
    flush(done) { done(null, Buffer.from(decoder.decode(), 'utf8')); },
  });
  input.on('error', (e) => out.destroy(e));
  return input.pipe(out);
}
