/**
 * Exact sliding-window rate limiting (a sliding log): a key may make at most `limit`
 * accepted requests in any interval of `windowMs`. A request at time t occupies the
 * window until t + windowMs. Refused requests are not recorded, so a client that keeps
 * retrying is let in as soon as the oldest accepted request leaves the window.
 *
 * Pure arithmetic over timestamps handed in by the caller (clock injected). Memory is
 * bounded: a key keeps at most `limit` timestamps, and idle keys are swept.
 */
import type { RateLimit } from './plans.ts';

export interface WindowDecision {
  allowed: boolean;
  limit: number;
  windowMs: number;
  /** Requests still allowed in the current window after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (0 when none). */
  resetMs: number;
  /** When refused: milliseconds until a request would be accepted; 0 when allowed. */
  retryAfterMs: number;
}

interface KeyLog {
  windowMs: number;
  /** Accepted request times, ascending, at most `limit` of them. */
  stamps: number[];
}

const SWEEP_EVERY = 1_024;

export class SlidingWindowLimiter {
  private readonly logs = new Map<string, KeyLog>();
  private hitsSinceSweep = 0;

  /** Decide on one request by `key` at `nowMs` and record it when accepted. */
  hit(key: string, rule: RateLimit, nowMs: number): WindowDecision {
    if (!(rule.limit >= 1) || !(rule.windowMs >= 1)) throw new Error(`invalid rate limit ${rule.limit}/${rule.windowMs}ms`);
    if (++this.hitsSinceSweep >= SWEEP_EVERY) this.sweep(nowMs);

    const log = this.logs.get(key) ?? { windowMs: rule.windowMs, stamps: [] };
    log.windowMs = rule.windowMs;
    // Keep what is still inside (now - w, now]; the newest `limit` are all that can matter
    // (the limit may have shrunk since the key was last seen, e.g. after a downgrade).
    const live = log.stamps.filter((s) => s > nowMs - rule.windowMs);
    const stamps = live.length > rule.limit ? live.slice(live.length - rule.limit) : live;

    const allowed = stamps.length < rule.limit;
    if (allowed) {
      stamps.push(nowMs);
      // A clock that steps back must not break the ascending order the arithmetic relies on.
      if (stamps.length > 1 && stamps[stamps.length - 2]! > nowMs) stamps.sort((a, b) => a - b);
    }
    log.stamps = stamps;
    this.logs.set(key, log);

    const oldest = stamps[0];
    const resetMs = oldest === undefined ? 0 : Math.max(0, oldest + rule.windowMs - nowMs);
    return {
      allowed,
      limit: rule.limit,
      windowMs: rule.windowMs,
      remaining: rule.limit - stamps.length,
      resetMs,
      retryAfterMs: allowed ? 0 : resetMs,
    };
  }

  /** Forget keys whose every request has left its window. */
  sweep(nowMs: number): void {
    this.hitsSinceSweep = 0;
    for (const [key, log] of this.logs) {
      const newest = log.stamps[log.stamps.length - 1];
      if (newest === undefined || newest <= nowMs - log.windowMs) this.logs.delete(key);
    }
  }

  /** Number of keys currently tracked (for tests of the memory bound). */
  get size(): number {
    return this.logs.size;
  }

  /** Timestamps held for a key (for tests of the memory bound). */
  held(key: string): number {
    return this.logs.get(key)?.stamps.length ?? 0;
  }
}
