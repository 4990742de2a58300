import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { openSource } from '../sources/io.ts';
import { isZipName, listZipMembers, zipMemberPath } from '../sources/zip.ts';
import type { AnySource, SniffedFile } from '../sources/source.ts';
import { sha256FileOffThread } from './hash-off-thread.ts';

export interface SourceFile {
  /** Its source's kind (`Source.kind`: etl/sources/index.ts lists them). */
  kind: string;
  path: string;
  /** Path relative to the sources folder, as written in the manifest. */
  rel: string;
  bytes: number;
  /** SHA-256 of its bytes, when already taken (the staging cache hashes a file for its key): `sourceSha256` reads it. */
  sha256?: string;
}

export interface IgnoredFile {
  rel: string;
  reason: string;
}

/** First line of a file (gzip transparent, BOM stripped), for sniffing a layout. */
async function firstLine(path: string): Promise<string> {
  const s = await openSource(path);
  let buf = '';
  for await (const chunk of s) {
    buf += (chunk as Buffer).toString('utf8');
    const i = buf.search(/[\r\n]/);
    if (i >= 0 || buf.length > 65_536) {
      s.destroy();
      buf = i >= 0 ? buf.slice(0, i) : buf;
      break;
    }
  }
  return buf.replace(/^\uFEFF/, '');
}

/**
 * Every file under `dir` with its size; a zip archive stands for its members (`…/x.zip/member`,
 * the member's compressed size), as publishers' archives hold the files. An archive that
 * cannot be read fails discovery naming it: left out, its source would be missing from the
 * build without a word.
 */
async function listFiles(dir: string): Promise<{ path: string; bytes: number }[]> {
  const out: { path: string; bytes: number }[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (e.isFile() && isZipName(e.name)) out.push(...(await listZipMembers(p)).map((m) => ({ path: `${p}/${m.member}`, bytes: m.bytes })));
    else if (e.isFile()) out.push({ path: p, bytes: (await stat(p)).size });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Decides what a file is from the folder it sits in (the synthetic region's layout and the
 * shared samples' layout both group sources by folder) and, where one folder holds several
 * layouts, by asking each source of that folder in registry order (its `sniff`: name, then
 * first line). Returns a reason instead when the file is not a source.
 */
async function classify(rel: string, path: string, sources: readonly AnySource[]): Promise<string | { reason: string }> {
  const parts = rel.split(sep).map((p) => p.toLowerCase());
  const name = basename(rel).toLowerCase();
  const top = parts[0] ?? '';
  if (top.startsWith('_') || top === 'truth') return { reason: 'not a source folder' };
  if (/(^|\/)(readme|licen[cs]e|metadata|sources)\b/i.test(name) || name === 'manifest.json' || name === 'datapackage.json') {
    return { reason: 'documentation' };
  }
  const candidates = sources.filter((s) => s.folders.includes(top));
  if (candidates.length === 0) {
    return /\.csv(\.gz)?$/i.test(name) ? { reason: `no source kind for folder ${top || '(top level)'}` } : { reason: 'not a CSV file' };
  }
  let head: Promise<string> | undefined;
  const file: SniffedFile = { name, parts, head: () => (head ??= firstLine(path).then((l) => l.toLowerCase())) };
  for (const s of candidates) {
    const verdict = await s.sniff(file);
    if (verdict === true) return s.kind;
    if (verdict) return verdict;
  }
  return { reason: candidates.find((s) => s.unclaimed)?.unclaimed ?? `no source kind claims it in folder ${top}` };
}

/**
 * Lists the source files under `dir` by kind (`sources`: the registry, as the plan's staging
 * stage declares it), and everything it will not read with the
 * reason, so the manifest accounts for every file. Where a folder has both the detailed
 * and the summary Inside Airbnb listings, only the detailed one is read (same listings).
 */
export async function discoverSources(dir: string, sources: readonly AnySource[]): Promise<{ files: SourceFile[]; ignored: IgnoredFile[] }> {
  const files: SourceFile[] = [];
  const ignored: IgnoredFile[] = [];
  for (const { path, bytes } of await listFiles(dir)) {
    const rel = relative(dir, path);
    const kind = await classify(rel, path, sources);
    if (typeof kind !== 'string') ignored.push({ rel, reason: kind.reason });
    else files.push({ kind, path, rel, bytes });
  }
  const detailedListingDirs = new Set(
    files.filter((f) => f.kind === 'airbnb_listings' && f.rel.endsWith('.gz')).map((f) => join(f.rel, '..')),
  );
  const kept = files.filter((f) => {
    const summary = f.kind === 'airbnb_listings' && !f.rel.endsWith('.gz') && detailedListingDirs.has(join(f.rel, '..'));
    if (summary) ignored.push({ rel: f.rel, reason: 'summary listings beside a detailed listings file' });
    return !summary;
  });
  return { files: kept, ignored };
}

/** SHA-256 of a file's bytes as stored (the gzip itself for .gz files). */
/** A source file's SHA-256: the one already taken, else read from its bytes (once per build, not once per caller). */
export async function sourceSha256(file: SourceFile): Promise<string> {
  return file.sha256 ?? sha256File(file.path);
}

/**
 * SHA-256 (hex) of a file's bytes, taken off the main thread (hash-off-thread.ts). A zip
 * member's is that of its archive's bytes and its name: the archive's bytes fix the
 * member's, and hashing them is cheaper than inflating the member.
 */
export async function sha256File(path: string): Promise<string> {
  const inZip = zipMemberPath(path);
  if (!inZip) return sha256FileOffThread(path);
  const archive = await sha256FileOffThread(inZip.archive);
  return createHash('sha256').update(`zip:${archive}:${inZip.member}`).digest('hex');
}

/** The file whose stat tells whether a source file changed: the file itself, or the archive it is a member of. */
export function statPathOf(path: string): string {
  return zipMemberPath(path)?.archive ?? path;
}
