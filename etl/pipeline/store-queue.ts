import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';

/** What the build's manifest says of its background stores (`quality.cache_stores`). */
export interface StoreQueueStats {
  /** Stores queued, and those whose task threw past its own handling. */
  queued: number;
  failed: number;
  /** Time the stores ran (beside the build), and the time the build waited for them at its end. */
  ms: { run: number; wait: number };
}

type WarnLog = { warn(obj: object, msg?: string): void };

/**
 * Cache writes taken off the build's critical path: each is queued and the queue runs them
 * one after another on a DuckDB connection of its own, while the build goes on (matching is
 * single-threaded JS, so a COPY beside it uses the other core). The build awaits `drain`
 * before it publishes. A store reports its own failure as a warning (a cache that cannot be
 * written costs the next build time, never this one); the queue carries on past any failure.
 * A task must read only what no later stage changes (the callers check what they read), and
 * must not touch the build context a stage's output entry is taken from (`ctx.quality`):
 * `atEnd` is where reports are made, after every task.
 */
export class StoreQueue {
  readonly stats: StoreQueueStats = { queued: 0, failed: 0, ms: { run: 0, wait: 0 } };
  private tail: Promise<void> = Promise.resolve();
  private conn?: DuckDBConnection;
  private readonly ends: (() => Promise<void> | void)[] = [];

  constructor(private readonly db: DuckDBInstance, private readonly log: WarnLog) {}

  /** Queues `task`, run after every task queued before it. */
  add(task: (conn: DuckDBConnection) => Promise<void>): void {
    this.stats.queued++;
    this.tail = this.tail.then(async () => {
      const t0 = performance.now();
      try {
        this.conn ??= await this.db.connect();
        await task(this.conn);
      } catch (e) {
        this.stats.failed++;
        this.log.warn({ err: (e as Error).message }, 'a background cache store failed');
      } finally {
        this.stats.ms.run += Math.round(performance.now() - t0);
      }
    });
  }

  /**
   * Holds back the tasks queued from now until the returned function is called: a stage
   * that keeps both cores busy (staging) leaves its stores for the stages after it.
   * The caller must release in a `finally` (`drain` waits for it).
   */
  hold(): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    this.tail = this.tail.then(() => held);
    return release;
  }

  /** Runs `fn` once every task has run (at `drain`): a cache's prune and report. */
  atEnd(fn: () => Promise<void> | void): void {
    this.ends.push(fn);
  }

  /** Waits for every queued store, then runs the `atEnd` functions in order and closes the connection. */
  async drain(): Promise<StoreQueueStats> {
    const t0 = performance.now();
    await this.tail;
    this.stats.ms.wait += Math.round(performance.now() - t0);
    this.conn?.closeSync();
    this.conn = undefined;
    for (const fn of this.ends.splice(0)) await fn();
    return this.stats;
  }
}
