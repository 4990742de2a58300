import { statSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * Zip archives as their publishers ship them (EPC bulk, ONSPD, OS Open UPRN, AddressBase):
 * each member is a source file of its own, named by a path that runs through the archive,
 * `…/epc/all-domestic-certificates.zip/certificates.csv`, and streamed from it when read. No
 * member is ever written out decompressed. yauzl reads the central directory (the archive
 * must be whole) and inflates one member at a time; it does not check CRC-32, so the stream
 * here does, and a member whose bytes do not match fails its read.
 */

/** An archive member's path split into the archive file and the member's name inside it. */
export interface ZipMemberPath {
  archive: string;
  member: string;
}

const ZIP_SEGMENT = /\.zip\//i;

/** Splits a path that runs through a zip archive (the first `.zip/` whose prefix is a file); undefined for any other path. */
export function zipMemberPath(path: string): ZipMemberPath | undefined {
  for (let m = ZIP_SEGMENT.exec(path), from = 0; m; m = ZIP_SEGMENT.exec(path.slice(from))) {
    const end = from + m.index + 4;
    const archive = path.slice(0, end);
    if (statSync(archive, { throwIfNoEntry: false })?.isFile()) return { archive, member: path.slice(end + 1) };
    from = end + 1;
  }
  return undefined;
}

/** True when a path names a zip archive by its extension. */
export const isZipName = (path: string) => /\.zip$/i.test(path);

/** The error for an archive that cannot be read: it names the archive and says what is wrong. */
function unreadable(archive: string, e: unknown): Error {
  return new Error(`${archive}: not a readable zip archive (${(e as Error).message})`);
}

function openArchive(archive: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(archive, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (e, zip) => (e ? reject(unreadable(archive, e)) : resolve(zip)));
  });
}

/** Every entry of the archive's central directory, in its order. */
async function entries(zip: ZipFile, archive: string): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const out: Entry[] = [];
    zip.on('entry', (e: Entry) => { out.push(e); zip.readEntry(); });
    zip.on('end', () => resolve(out));
    zip.on('error', (e) => reject(unreadable(archive, e)));
    zip.readEntry();
  });
}

/** The archive's files (directories left out): member name and compressed size. */
export async function listZipMembers(archive: string): Promise<{ member: string; bytes: number }[]> {
  const zip = await openArchive(archive);
  try {
    return (await entries(zip, archive)).filter((e) => !e.fileName.endsWith('/')).map((e) => ({ member: e.fileName, bytes: e.compressedSize }));
  } finally {
    zip.close();
  }
}

/**
 * A member's bytes, inflated as they are read. The stream fails, naming the archive and the
 * member, when the archive is cut short or damaged: a bad central directory, a deflate
 * error, a size or a CRC-32 other than the directory's.
 */
export async function openZipMember(archive: string, member: string): Promise<Readable> {
  const zip = await openArchive(archive);
  let entry: Entry | undefined;
  try {
    entry = (await entries(zip, archive)).find((e) => e.fileName === member);
  } catch (e) {
    zip.close();
    throw e;
  }
  if (!entry) {
    zip.close();
    throw Object.assign(new Error(`${archive}: no member ${member}`), { code: 'ENOENT' });
  }
  const want = entry.crc32;
  const raw = await new Promise<Readable>((resolve, reject) => {
    zip.openReadStream(entry, (e, s) => (e ? reject(unreadable(archive, e)) : resolve(s)));
  }).catch((e: unknown) => { zip.close(); throw e; });
  let crc = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _enc, done) { crc = crc32(chunk, crc); done(null, chunk); },
    flush(done) {
      done(crc >>> 0 === want >>> 0 ? null : new Error(`${archive}: member ${member} is damaged (CRC-32 ${(crc >>> 0).toString(16)}, the directory says ${(want >>> 0).toString(16)})`));
    },
  });
  raw.on('error', (e) => checked.destroy(new Error(`${archive}: member ${member} cannot be read (${e.message})`)));
  checked.on('close', () => zip.close());
  return raw.pipe(checked);
}
