/**
 * One ETL run per (addresses, seed, build clock) per `vitest run`, shared by every test file:
 * about twenty test files publish the same few synthetic builds, and each ETL run costs
 * seconds of CPU on a 2-core machine. The first file to ask runs the real ETL into the run's
 * cache folder (under a file lock: files run in parallel processes); the others copy that
 * build's folder into their own DATA_DIR and publish it there with the ETL's own promote step
 * (verify, rename, switch `current`). The key includes a digest of the sources' contents, and
 * builds are deterministic for their sources (the synth determinism test), so each file sees
 * exactly what its own run would have made.
 *
 * The cache folder is made by vitest's global setup (test/support/global-setup.ts) and named
 * in PI_TEST_BUILD_CACHE; outside vitest, or when unset, every call runs the ETL itself.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireFileLock, LockHeldError } from '../../lib/file-lock.ts';
import { promoteBuild } from '../../etl/publish/publish.ts';
import { buildDir, partialDir } from '../../etl/publish/layout.ts';
import type { Manifest } from '../../schemas/manifest.ts';

export const BUILD_CACHE_ENV = 'PI_TEST_BUILD_CACHE';

/**
 * A digest of every file under a sources folder (relative path and contents): part of the
 * cache key, since some tests add or change source files before they build.
 */
export async function sourcesDigest(dir: string): Promise<string> {
  const h = createHash('sha256');
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const f of files) {
    h.update(f.slice(dir.length));
    h.update('\0');
    h.update(await readFile(f));
  }
  return h.digest('hex').slice(0, 16);
}

interface Cached { build_id: string; manifest: Manifest }

async function locked<T>(path: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const lock = await acquireFileLock(path);
      try {
        return await fn();
      } finally {
        await lock.release();
      }
    } catch (e) {
      if (!(e instanceof LockHeldError)) throw e;
      await sleep(100); // another test file is making this build
    }
  }
}

/**
 * Publishes into `dataDir` the build `make` produces for `key`, running `make` (into a cache
 * data dir) only the first time in this test run. Undefined when there is no cache (the caller
 * runs the ETL itself) or `dataDir` already holds that build (a second publish wants a new id).
 */
export async function publishCached(key: string, dataDir: string, make: (cacheDataDir: string) => Promise<Cached>): Promise<Cached | undefined> {
  const root = process.env[BUILD_CACHE_ENV];
  if (!root) return undefined;
  const slot = join(root, key.replace(/[^A-Za-z0-9.-]/g, '_'));
  await mkdir(root, { recursive: true });
  const cached = await locked(`${slot}.lock`, async () => {
    const done = join(slot, 'cached.json');
    if (existsSync(done)) return JSON.parse(await readFile(done, 'utf8')) as Cached;
    const made = await make(join(slot, 'data'));
    await writeFile(done, JSON.stringify(made));
    return made;
  });
  if (existsSync(buildDir(dataDir, cached.build_id))) return undefined;
  await mkdir(join(dataDir, 'builds'), { recursive: true });
  await cp(buildDir(join(slot, 'data'), cached.build_id), partialDir(dataDir, cached.build_id), { recursive: true });
  await promoteBuild(dataDir, cached.build_id);
  return cached;
}
