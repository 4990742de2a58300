import type { Stage } from './context.ts';

/** A DuckDB table's name, as stages write them (their `writes` also name files such as `search-index.bin`). */
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The working tables no stage after `stages[done]` reads: every table a stage up to `done`
 * writes, unless `published` (the build writes those out at the end) or in a later stage's
 * `reads` (a stage beside the main line counts as later until its own place, so what it reads
 * stays). Dropped once that stage is done, so the build's database reuses their space instead
 * of growing by every staged source and intermediate table (docs/etl.md, "Memory").
 */
export function workingTablesDoneWith(stages: readonly Stage[], done: number, published: ReadonlySet<string>): string[] {
  const readLater = new Set(stages.slice(done + 1).flatMap((s) => s.reads));
  const written = new Set(stages.slice(0, done + 1).flatMap((s) => s.writes));
  return [...written].filter((t) => TABLE_NAME.test(t) && !published.has(t) && !readLater.has(t));
}
