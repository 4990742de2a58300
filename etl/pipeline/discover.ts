import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { openSource } from '../sources/io.ts';
import { sha256FileOffThread } from './hash-off-thread.ts';

/** Every kind of source file the ETL reads. */
export const SOURCE_KINDS = [
  'addressbase', 'os_uprn', 'onspd', 'codepoint', 'epc', 'epc_scotland', 'price_paid', 'airbnb_listings',
  'airbnb_calendar', 'airbnb_reviews', 'planning', 'ukhpi', 'ons_rents', 'rental_evidence', 'hmo_register',
  'police_crime', 'gias_schools', 'listings',
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface SourceFile {
  kind: SourceKind;
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

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

const isCsv = (name: string) => /\.csv(\.gz)?$/i.test(name);

/**
 * Decides what a file is from the folder it sits in (the synthetic region's layout and the
 * shared samples' layout both group sources by folder) and, where one folder holds several
 * layouts, from its first line. Returns a reason instead when the file is not a source.
 */
async function classify(rel: string, path: string): Promise<SourceKind | { reason: string }> {
  const parts = rel.split(sep).map((p) => p.toLowerCase());
  const name = basename(rel).toLowerCase();
  const top = parts[0] ?? '';
  if (top.startsWith('_') || top === 'truth') return { reason: 'not a source folder' };
  if (/(^|\/)(readme|licen[cs]e|metadata|sources)\b/i.test(name) || name === 'manifest.json' || name === 'datapackage.json') {
    return { reason: 'documentation' };
  }
  if (top === 'planning' || top === 'planning_data') {
    return /\.geojson(\.gz)?$/.test(name) ? 'planning' : { reason: 'not GeoJSON' };
  }
  if (top === 'crime' || top === 'police_uk') {
    return /-street\.csv(\.gz)?$/.test(name) ? 'police_crime' : { reason: 'not a police.uk street-level crime file' };
  }
  if (top === 'listings' || top === 'listings_feeds') {
    if (/\.blm(\.gz)?$/.test(name)) return 'listings';
    if (name.includes('schema')) return { reason: 'a JSON Schema, not listings' };
    if (parts.includes('rtdf') || parts.some((p) => p.startsWith('rightmove_rtdf'))) return 'listings';
    return { reason: 'not a Rightmove BLM or RTDF file' };
  }
  if (!isCsv(name)) return { reason: 'not a CSV file' };
  const head = async () => (await firstLine(path)).toLowerCase();
  switch (top) {
    case 'addressbase': return 'addressbase';
    case 'uprn': return 'os_uprn';
    case 'ppd': return 'price_paid';
    case 'hmo': return 'hmo_register';
    case 'gias':
      return (await head()).includes('"establishmentname"') ? 'gias_schools' : { reason: 'not a GIAS establishments extract (the links extract, say)' };
    case 'epc': {
      if (name.includes('_rr')) return { reason: 'EPC recommendations, not certificates' };
      // The Scottish register's extract has its own columns; either of its two header rows
      // may come first, both naming the One Scotland Gazetteer reference.
      const h = await head();
      return h.includes('osg_reference_number') || h.includes('osg_uprn') ? 'epc_scotland' : 'epc';
    }
    case 'airbnb':
      if (name.startsWith('listings')) return 'airbnb_listings';
      if (name.startsWith('calendar')) return 'airbnb_calendar';
      if (name.startsWith('reviews')) return 'airbnb_reviews';
      return { reason: 'unknown Inside Airbnb file' };
    case 'postcodes': {
      if (parts.includes('doc')) return { reason: 'documentation' };
      const h = await head();
      if (h.startsWith('pcd7,') || h.startsWith('pcd,')) return 'onspd';
      if (/^"?[a-z]{1,2}[0-9][a-z0-9]? ?[0-9][a-z]{2}"?,\d+,\d+,\d+,/.test(h)) return 'codepoint';
      return { reason: 'not ONSPD or Code-Point Open' };
    }
    case 'hpi': case 'ukhpi': {
      const h = await head();
      if (h.startsWith('date,regionname,areacode')) return 'ukhpi';
      if (h.startsWith('"name","uri","region gss code","period"') || h.startsWith('name,uri,region gss code,period')) return 'ukhpi';
      return { reason: 'not a UK HPI full file or app download' };
    }
    case 'rents': {
      const h = await head();
      if (h.includes('bedroom category')) return 'ons_rents';
      if (h.startsWith('evidence_id,')) return 'rental_evidence';
      return { reason: 'unknown rents layout' };
    }
    default:
      return { reason: `no source kind for folder ${top || '(top level)'}` };
  }
}

/**
 * Lists the source files under `dir` by kind, and everything it will not read with the
 * reason, so the manifest accounts for every file. Where a folder has both the detailed
 * and the summary Inside Airbnb listings, only the detailed one is read (same listings).
 */
export async function discoverSources(dir: string): Promise<{ files: SourceFile[]; ignored: IgnoredFile[] }> {
  const files: SourceFile[] = [];
  const ignored: IgnoredFile[] = [];
  for (const path of await listFiles(dir)) {
    const rel = relative(dir, path);
    const kind = await classify(rel, path);
    if (typeof kind !== 'string') ignored.push({ rel, reason: kind.reason });
    else files.push({ kind, path, rel, bytes: (await stat(path)).size });
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

/** SHA-256 (hex) of a file's bytes, taken off the main thread (hash-off-thread.ts). */
export async function sha256File(path: string): Promise<string> {
  return sha256FileOffThread(path);
}
