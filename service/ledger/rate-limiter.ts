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
  /** Decide on one request by `key` at `nowMs` and record it when accepted. */
  hit(key: string, rule: RateLimit, nowMs: number): Awaitable<WindowDecision>;
  close?(): Promise<void>;
}

export class RateLimiterUnavailableError extends Error {
  override readonly name = 'RateLimiterUnavailableError';
  constructor(override readonly cause: Error) {
    super(`the rate limiter cannot decide: ${cause.message}`);
  }
}

/** One process: the in-memory window. */
export const inProcessLimiter = (): RateLimiter => new SlidingWindowLimiter();
