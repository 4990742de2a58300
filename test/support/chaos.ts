/**
 * What every chaos test (kills, crashes, swaps under load) shares: a seeded random source
 * whose seed is printed on failure, and a loop that runs until the events the test needs
 * have happened, bounded by time, failing by name when too few did. No test here asserts
 * a rate: a busy machine makes fewer events per second, so the test runs longer instead.
 */

/** Seeded PRNG (mulberry32): the same CHAOS_SEED replays the same kill moments. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** CHAOS_SEED from the environment, or a fresh one. */
export function chaosSeed(): number {
  const env = process.env.CHAOS_SEED;
  if (env !== undefined && env !== '') {
    const n = Number(env);
    if (!Number.isInteger(n)) throw new Error(`CHAOS_SEED must be an integer, got ${env}`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 31);
}

/** The scale of the reliability suites: CHAOS_SCALE=ci makes each need fewer events. */
export const chaosScale = (full: number, ci: number): number => (process.env.CHAOS_SCALE === 'ci' ? ci : full);

/**
 * Runs `body` with a seeded random source; any failure's message gains the seed and how to
 * replay it.
 */
export async function withSeed<T>(name: string, body: (random: () => number, seed: number) => Promise<T>): Promise<T> {
  const seed = chaosSeed();
  try {
    return await body(seededRandom(seed), seed);
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    err.message += `\n[${name}: seed ${seed}; replay the same draws with CHAOS_SEED=${seed}]`;
    throw err;
  }
}

/**
 * Calls `step` until `enough()` says the needed events have happened, or `budgetMs` has
 * passed; then throws naming what fell short (`progress()`), so a run starved of events
 * fails instead of passing on nothing.
 */
export async function untilEnough(opts: {
  step: (i: number) => Promise<void>;
  enough: () => boolean;
  progress: () => string;
  budgetMs: number;
}): Promise<number> {
  const end = Date.now() + opts.budgetMs;
  let i = 0;
  while (!opts.enough()) {
    if (Date.now() > end) throw new Error(`too few events in ${Math.round(opts.budgetMs / 1000)} s to judge: ${opts.progress()}`);
    await opts.step(i++);
  }
  return i;
}
