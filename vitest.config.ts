import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two tiers. `make test` (TEST_SUITE unset): unit, integration and contract tests.
 * `make reliability` (TEST_SUITE=reliability): the kill, crash, swap, disk-full, abuse and
 * fuzz suites, self-paced and seeded (test/support/chaos.ts); CHAOS_SCALE=ci runs them
 * smaller, as .ci/run does.
 */
export const RELIABILITY = [
  'test/service/fuzz-endpoints.test.ts',
  'test/service/auth-abuse.test.ts',
  'test/etl/kill-etl.test.ts',
  'test/etl/publish/kill.test.ts',
  'test/service/server-crash.test.ts',
  'test/service/ledger-crash.test.ts',
  'test/service/ledger-disk-full.test.ts',
  'test/service/swap-under-load.test.ts',
  'test/service/replicas-faults.test.ts',
  'test/service/client-abort.test.ts',
];

const reliability = process.env.TEST_SUITE === 'reliability';

export default defineConfig({
  test: {
    include: reliability ? RELIABILITY : ['test/**/*.test.ts'],
    exclude: reliability ? [] : ['**/node_modules/**', ...RELIABILITY],
    pool: 'forks',
    // make test: two files at a time even on 2 cores (vitest's default there is one): much of
    // a file's time is waiting (servers, child processes, fsync), and the build cache is shared
    // under a lock. The reliability suites run one file at a time: each paces itself by what it
    // sees, and a second chaos suite beside it would only slow both.
    maxWorkers: reliability ? 1 : Math.max(2, availableParallelism() - 1),
    // Each synthetic build is made once per run and shared by the test files (test/support/build-cache.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Bounds only, never expectations: on a busy 2-core machine a build in a hook can take minutes.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
