/**
 * The exact sliding window shared by every replica, kept in PostgreSQL (ADR 0006): one
 * round trip per request to `rate_hit` (pg/migrations/004_cheaper_hot_path.sql), which takes a
 * transaction-scoped advisory lock on the key, so no two replicas can both take the last
 * place in a window. Same decisions as the in-process SlidingWindowLimiter. Fails closed:
 * when PostgreSQL cannot answer (down, restarting, paused) it throws
 * RateLimiterUnavailableError and the request gets 503, never an unlimited pass.
 */
import type pg from 'pg';
import type { WindowDecision } from '../domain/rate-window.ts';
import type { RateLimit } from '../../schemas/plans.ts';
import { createPool, isUnavailable, once } from './pg/client.ts';
import { RateLimiterUnavailableError, type RateLimiter } from './rate-limiter.ts';

export interface PgRateLimiter extends RateLimiter {
  readonly pool: pg.Pool;
  close(): Promise<void>;
}

/** Expects the schema in place (the PostgreSQL ledger migrates it at open). */
export function pgRateLimiter(opts: { url: string; poolSize?: number; timeoutMs?: number }): PgRateLimiter {
  const pool = createPool({ url: opts.url, max: opts.poolSize ?? 16, ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  return {
    pool,
    async hit(key: string, rule: RateLimit, nowMs: number): Promise<WindowDecision> {
      if (!(rule.limit >= 1) || !(rule.windowMs >= 1)) throw new Error(`invalid rate limit ${rule.limit}/${rule.windowMs}ms`);
      let row: { allowed: boolean; counted: number; oldest_ms: string | null } | undefined;
      try {
        [row] = await once(pool, 'rate_hit', [key, rule.limit, rule.windowMs, Math.floor(nowMs)]);
      } catch (e) {
        if (isUnavailable(e)) throw new RateLimiterUnavailableError(e as Error);
        throw e;
      }
      const { allowed, counted } = row!;
      const oldest = row!.oldest_ms === null ? undefined : Number(row!.oldest_ms);
      const resetMs = oldest === undefined ? 0 : Math.max(0, oldest + rule.windowMs - nowMs);
      return { allowed, limit: rule.limit, windowMs: rule.windowMs, remaining: rule.limit - counted, resetMs, retryAfterMs: allowed ? 0 : resetMs };
    },
    close: () => pool.end(),
  };
}
