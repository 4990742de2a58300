/**
 * The rate limiter behind one interface: the in-process exact sliding window
 * (domain/rate-window.ts) for one process, or the same window kept in PostgreSQL for
 * several replicas (pg-rate-limiter.ts). A limiter that cannot decide fails closed: it
 * throws RateLimiterUnavailableError and the request is refused with 503.
 */
import { SlidingWindowLimiter, type WindowDecision } from '../domain/rate-window.ts';
import type { RateLimit } from '../../schemas/plans.ts';
import type { Awaitable } from './types.ts';

export interface RateLimiter {
  /**
   * Decide on one request by `key` at `nowMs` and record it when accepted. `durable`, when
   * present, settles once the accepted request is recorded where a restart finds it: the
   * response waits for it (middleware/rate-limit.ts), so no answered request is forgotten.
   */
  hit(key: string, rule: RateLimit, nowMs: number, accountId?: string): Awaitable<WindowDecision & { durable?: Promise<void> }>;
  close?(): Promise<void>;
}

export class RateLimiterUnavailableError extends Error {
  override readonly name = 'RateLimiterUnavailableError';
  constructor(override readonly cause: Error) {
    super(`the rate limiter cannot decide: ${cause.message}`);
  }
}

/** One process: the in-memory window (forgotten at a restart). */
export const inProcessLimiter = (): RateLimiter => new SlidingWindowLimiter();

/** What the file ledger offers the limiter: its log of accepted requests. */
export interface HitLedger {
  recordHit(accountId: string, rateKey: string, windowMs: number, now: Date): Promise<void>;
  recentHits(): ReadonlyMap<string, { w: number; at: readonly number[] }>;
}

/**
 * One process with the file ledger: the in-memory window, seeded at start from the `hit`
 * records in the ledger's log and logging each accepted request there, so a restart (even
 * SIGKILL) keeps "never more than N in any window". While the ledger cannot write, the
 * window stays exact in memory and only its memory across a restart is lost (nothing can be
 * charged meanwhile: metered calls get 503).
 */
export function ledgerBackedLimiter(ledger: HitLedger): RateLimiter {
  const window = new SlidingWindowLimiter();
  for (const [key, log] of ledger.recentHits()) window.seed(key, log.w, log.at);
  return {
    hit(key, rule, nowMs, accountId = '') {
      const d = window.hit(key, rule, nowMs);
      if (!d.allowed) return d;
      return { ...d, durable: ledger.recordHit(accountId, key, rule.windowMs, new Date(nowMs)).catch(() => undefined) };
    },
  };
}
