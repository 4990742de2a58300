import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILD_CACHE_ENV } from './build-cache.ts';

/** One cache folder of synthetic builds per `vitest run` (test/support/build-cache.ts), removed at the end; PI_TEST_BUILD_CACHE=off for none. */
export default function setup(): (() => void) | undefined {
  if (process.env[BUILD_CACHE_ENV] === 'off') { // each file runs its own ETL (to measure what the cache saves)
    delete process.env[BUILD_CACHE_ENV];
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pi-test-builds-'));
  process.env[BUILD_CACHE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
