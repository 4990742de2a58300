import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Bounds only, never expectations: on a busy 2-core machine a build in a hook can take minutes.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
