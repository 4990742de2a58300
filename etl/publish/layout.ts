import { join } from 'node:path';

/**
 * Where builds live under DATA_DIR:
 *   builds/<build_id>/          a complete, validated build (Parquet tables + manifest.json)
 *   builds/<build_id>.partial/  a build in progress; never read, removed by the next run
 *   current -> builds/<build_id>  symlink, switched atomically by rename
 */
export const BUILDS = 'builds';
export const CURRENT = 'current';
export const PARTIAL_SUFFIX = '.partial';
export const MANIFEST = 'manifest.json';

export const buildsDir = (dataDir: string) => join(dataDir, BUILDS);
export const buildDir = (dataDir: string, id: string) => join(dataDir, BUILDS, id);
export const partialDir = (dataDir: string, id: string) => join(dataDir, BUILDS, id + PARTIAL_SUFFIX);
export const currentLink = (dataDir: string) => join(dataDir, CURRENT);

/**
 * Build id: UTC time to the second, then 6 hex digits holding the milliseconds (high 10
 * bits) and 14 random bits, so that ids sort in creation order (pruning keeps the newest
 * by name) and two builds in one millisecond still differ.
 */
export function newBuildId(now: Date, random14: number): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  const suffix = ((now.getUTCMilliseconds() << 14) | (random14 & 0x3fff)).toString(16).padStart(6, '0');
  return `${t}-${suffix}`;
}

export const BUILD_ID_RE = /^\d{8}T\d{6}Z-[0-9a-f]{6}$/;
