import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, readlink, rename, rm, stat, symlink, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Manifest, type ManifestInput } from '../../schemas/manifest.ts';
import {
  BUILD_ID_RE, BUILDS, MANIFEST, PARTIAL_SUFFIX, buildDir, buildsDir, currentLink, newBuildId, partialDir,
} from './layout.ts';

/** fsync a file or directory so a rename or write survives a power cut, not only a crash. */
async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Starts a build: a fresh `.partial` folder that nothing reads until it is promoted. */
export async function beginBuild(dataDir: string, now: Date): Promise<{ id: string; dir: string }> {
  await mkdir(buildsDir(dataDir), { recursive: true });
  const id = newBuildId(now, randomBytes(2).readUInt16BE(0));
  const dir = partialDir(dataDir, id);
  await mkdir(dir);
  return { id, dir };
}

/** Writes the manifest (validated against its schema) durably into a build folder. */
export async function writeManifest(dir: string, manifest: ManifestInput): Promise<void> {
  const parsed = Manifest.parse(manifest);
  const tmp = join(dir, MANIFEST + '.tmp');
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(JSON.stringify(parsed, null, 2) + '\n');
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, MANIFEST));
}

/** Reads and validates a build's manifest; throws if it is missing or malformed. */
export async function readManifest(dir: string): Promise<Manifest> {
  const text = await readFile(join(dir, MANIFEST), 'utf8');
  return Manifest.parse(JSON.parse(text));
}

/**
 * Checks that a build folder is complete: a valid manifest, and every table and artifact
 * file it lists present with the size it records. Returns the manifest.
 */
export async function verifyBuild(dir: string): Promise<Manifest> {
  const manifest = await readManifest(dir);
  const files = [
    ...Object.entries(manifest.tables).map(([name, t]) => ({ what: `table ${name}`, ...t })),
    ...Object.entries(manifest.artifacts).map(([name, a]) => ({ what: `artifact ${name}`, ...a })),
  ];
  for (const f of files) {
    const s = await stat(join(dir, f.file)).catch(() => undefined);
    if (!s) throw new Error(`${f.what}: ${f.file} is missing`);
    if (s.size !== f.bytes) throw new Error(`${f.what}: ${f.file} has ${s.size} bytes, manifest says ${f.bytes}`);
  }
  return manifest;
}

/**
 * Promotes a validated partial build and switches `current` to it. Every file in the
 * build is fsynced first; the partial folder is renamed to its final name; then a new
 * symlink is created beside `current` and renamed over it, which is atomic: a reader sees
 * the old build or the new one, never neither. A crash at any point leaves `current` on a
 * complete build (the old one until the final rename).
 */
export async function promoteBuild(dataDir: string, id: string): Promise<string> {
  const from = partialDir(dataDir, id);
  const manifest = await verifyBuild(from);
  if (manifest.build_id !== id) throw new Error(`manifest build_id ${manifest.build_id} does not match ${id}`);
  for (const f of await readdir(from)) await fsyncPath(join(from, f));
  await fsyncPath(from);
  const to = buildDir(dataDir, id);
  await rename(from, to);
  await fsyncPath(buildsDir(dataDir));
  const link = currentLink(dataDir);
  const tmpLink = `${link}.${id}.tmp`;
  await rm(tmpLink, { force: true });
  await symlink(join(BUILDS, id), tmpLink);
  await rename(tmpLink, link);
  await fsyncPath(dataDir);
  return to;
}

/** The build id `current` points at, or undefined when nothing has been published. */
export async function currentBuildId(dataDir: string): Promise<string | undefined> {
  try {
    const target = await readlink(currentLink(dataDir));
    const id = target.split('/').pop() ?? '';
    return BUILD_ID_RE.test(id) ? id : undefined;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Removes leftovers of interrupted runs (`.partial` folders, stray temp links) and keeps
 * only the newest `keep` complete builds, never the one `current` points at.
 */
export async function pruneBuilds(dataDir: string, keep = 3): Promise<{ removed: string[] }> {
  const removed: string[] = [];
  const cur = await currentBuildId(dataDir);
  let names: string[] = [];
  try {
    names = await readdir(buildsDir(dataDir));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { removed };
    throw e;
  }
  for (const n of names.filter((n) => n.endsWith(PARTIAL_SUFFIX))) {
    await rm(join(buildsDir(dataDir), n), { recursive: true, force: true });
    removed.push(n);
  }
  const complete = names.filter((n) => BUILD_ID_RE.test(n)).sort().reverse();
  for (const n of complete.slice(keep)) {
    if (n === cur) continue;
    await rm(buildDir(dataDir, n), { recursive: true, force: true });
    removed.push(n);
  }
  for (const n of await readdir(dataDir)) {
    if (n.startsWith('current.') && n.endsWith('.tmp')) {
      await unlink(join(dataDir, n)).catch(() => undefined);
      removed.push(n);
    }
  }
  return { removed };
}
