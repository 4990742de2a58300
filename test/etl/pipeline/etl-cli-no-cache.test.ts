import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../etl/publish/publish.ts';
import { synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const tmp = tempDir('pi-etl-no-cache-');
afterAll(tmp.cleanup);

/** `npm run etl -- run …` as ops run it; returns the published manifest. */
async function etlRun(sources: string, dataDir: string, ...flags: string[]) {
  await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'etl/cli.ts'), 'run', '--sources', sources, '--data-dir', dataDir, ...flags], { cwd: ROOT });
  return readManifest(join(dataDir, 'current'));
}

describe('etl run --no-cache', () => {
  it('re-stages every file although the cache holds them all, and the next run uses the cache again', async () => {
    const sources = await synthRegion(500, 5);
    const dataDir = join(tmp.dir, 'data');
    const first = await etlRun(sources, dataDir);
    expect(first.sources.some((s) => s.from_cache)).toBe(false);
    // Run without scripts/with-jemalloc.sh: the system's malloc, unless this process was given jemalloc.
    expect(first.quality.runtime).toEqual({ allocator: process.env.LD_PRELOAD?.includes('libjemalloc') ? 'jemalloc' : 'system' });
    const forced = await etlRun(sources, dataDir, '--no-cache');
    expect(forced.sources.some((s) => s.from_cache)).toBe(false);
    expect(forced.quality.stage_cache).toMatchObject({ read: false, hits: 0, misses: forced.sources.length });
    const cached = await etlRun(sources, dataDir);
    expect(cached.sources.every((s) => s.from_cache)).toBe(true);
    expect(cached.quality.stage_cache).toMatchObject({ read: true, misses: 0, corrupt: 0 });
  }, 240_000);
});
