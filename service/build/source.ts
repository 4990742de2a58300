import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

export interface BuildInfo {
  id: string;
  /** Absolute path of the build folder `current` points at. */
  dir: string;
  manifest: Record<string, unknown>;
}

/** Where the service finds the published build it serves. */
export interface DataSource {
  current(): BuildInfo | undefined;
}

/**
 * The build that `<dataDir>/current` points at, re-resolved on every call so a newly
 * published build is picked up without a restart; its manifest is read once per build.
 * No `current`, or no readable manifest with a build_id, means no build.
 */
export function fileDataSource(dataDir: string): DataSource {
  let cached: BuildInfo | undefined;
  return {
    current() {
      let dir: string;
      try {
        dir = realpathSync(join(dataDir, 'current'));
      } catch {
        return undefined;
      }
      if (cached?.dir === dir) return cached;
      try {
        const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
        if (typeof manifest.build_id !== 'string') return undefined;
        cached = { id: manifest.build_id, dir, manifest };
        return cached;
      } catch {
        return undefined;
      }
    },
  };
}
