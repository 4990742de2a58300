import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '../../service/build/source.ts';

/**
 * A copy of `build` in `into/name`, with `doctor` applied to the copy's folder and to a clone of
 * its manifest (written back): a build with a fault (a file cut short, missing, another's) or an
 * older layout (files unlisted), for the tests of the files the service reads where they lie.
 */
export function doctoredCopy(build: BuildInfo, into: string, name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo {
  const dir = join(into, name);
  cpSync(build.dir, dir, { recursive: true });
  const manifest = structuredClone(build.manifest);
  doctor(dir, manifest);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { id: name, dir, manifest };
}
