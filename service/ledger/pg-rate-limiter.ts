/**
 * The exact sliding window shared by every replica, kept in PostgreSQL (ADR 0006): the hits
 * this process's concurrent requests make go as one batch (pg/batcher.ts, ADR 0013) to
 * `rate_hit_many` (pg/migrations/007_batched_hot_path.sql), which takes a transaction-scoped
 * advisory lock on each key of the batch, so no two replicas can both take the last place in
 * a window, and decides each hit in order exactly as `rate_hit` does for one. Same decisions
 * as the in-process SlidingWindowLimiter. Fails closed: when PostgreSQL cannot answer (down,
 * restarting, paused) it throws RateLimiterUnavailableError and the request gets 503, never
 * an unlimited pass.
 */
import type pg from 'pg';
import type { WindowDecision } from '../domain/rate-window.ts';
import type { RateLimit } from '../../schemas/plans.ts';
import { Batcher, byIndex, type BatcherOptions } from './pg/batcher.ts';
import { createPool, isUnavailable, once } from './pg/client.ts';
import { RateLimiterUnavailableError, type RateLimiter } from './rate-limiter.ts';

export interface PgRateLimiter extends RateLimiter {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

interface Hit {
  key: string;
  rule: RateLimit;
  nowMs: number;
}
interface HitRow {
  i: number;
  allowed: boolean;
  counted: number;
  oldest_ms: string | null;
}

/** Expects the schema in place (the PostgreSQL ledger migrates it at open). */
export function pgRateLimiter(opts: { url: string; poolSize?: number; timeoutMs?: number; batch?: BatcherOptions }): PgRateLimiter {
  const pool = createPool({ url: opts.url, max: opts.poolSize ?? 16, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  const hits = new Batcher<Hit, HitRow | undefined>(async (batch) => {
    const rows = await once<HitRow>(pool, 'rate_hit_many', [batch.map((h) => h.key), batch.map((h) => h.rule.limit), batch.map((h) => h.rule.windowMs), batch.map((h) => h.nowMs)]);
    return byIndex(rows, batch.length);
  }, opts.batch);
  return {
    pool,
    async hit(key: string, rule: RateLimit, nowMs: number): Promise<WindowDecision> {
      if (!(rule.limit >= 1) || !(rule.windowMs >= 1)) throw new Error(`invalid rate limit ${rule.limit}/${rule.windowMs}ms`);
      let row: HitRow | undefined;
      try {
        row = await hits.submit({ key, rule, nowMs: Math.floor(nowMs) });
      } catch (e) {
        if (isUnavailable(e)) throw new RateLimiterUnavailableError(e as Error);
        throw e;
      }
      if (!row) throw new Error(`rate_hit_many gave no answer for ${key}`);
      const { allowed, counted } = row;
      const oldest = row.oldest_ms === null ? undefined : Number(row.oldest_ms);
      const resetMs = oldest === undefined ? 0 : Math.max(0, oldest + rule.windowMs - nowMs);
      return { allowed, limit: rule.limit, windowMs: rule.windowMs, remaining: rule.limit - counted, resetMs, retryAfterMs: allowed ? 0 : resetMs };
    },
    close: () => pool.end(),
  };
}
