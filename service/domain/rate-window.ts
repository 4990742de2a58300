/**
 * Exact sliding-window rate limiting (a sliding log): a key may make at most `limit`
 * accepted requests in any interval of `windowMs`. A request at time t occupies the
 * window until t + windowMs. Refused requests are not recorded, so a client that keeps
 * retrying is let in as soon as the oldest accepted request leaves the window.
 *
 * Pure arithmetic over timestamps handed in by the caller (clock injected). Memory is
 * bounded: a key stores about twice its limit at most (expired entries are compacted in
 * batches so each request costs O(log n)), and idle keys are swept.
 */
import type { RateLimit } from '../../schemas/plans.ts';

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
  /** Accepted request times, ascending; entries before `head` have left the window. */
  stamps: number[];
  head: number;
}

const SWEEP_EVERY = 1_024;

/** First index in stamps[from..] whose value is > t (stamps ascending). */
function firstAfter(stamps: number[], from: number, t: number): number {
  let lo = from;
  let hi = stamps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stamps[mid]! > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class SlidingWindowLimiter {
  private readonly logs = new Map<string, KeyLog>();
  private hitsSinceSweep = 0;

  /** Decide on one request by `key` at `nowMs` and record it when accepted. */
  hit(key: string, rule: RateLimit, nowMs: number): WindowDecision {
    if (!(rule.limit >= 1) || !(rule.windowMs >= 1)) throw new Error(`invalid rate limit ${rule.limit}/${rule.windowMs}ms`);
    if (++this.hitsSinceSweep >= SWEEP_EVERY) this.sweep(nowMs);

    let log = this.logs.get(key);
    if (!log) {
      log = { windowMs: rule.windowMs, stamps: [], head: 0 };
      this.logs.set(key, log);
    }
    log.windowMs = rule.windowMs;
    const { stamps } = log;
    // Skip what has left (now - w, now]; only the newest `limit` can matter (the limit may
    // have shrunk since the key was last seen, e.g. after a downgrade).
    let head = firstAfter(stamps, log.head, nowMs - rule.windowMs);
    if (stamps.length - head > rule.limit) head = stamps.length - rule.limit;

    const allowed = stamps.length - head < rule.limit;
    if (allowed) {
      // Binary insertion keeps the order even if the clock steps back.
      const at = firstAfter(stamps, head, nowMs);
      if (at === stamps.length) stamps.push(nowMs);
      else stamps.splice(at, 0, nowMs);
    }
    // Compact now and then so memory stays within about twice the limit.
    if (head > 64 && head * 2 > stamps.length) {
      stamps.splice(0, head);
      head = 0;
    }
    log.head = head;

    const oldest = stamps[head];
    const resetMs = oldest === undefined ? 0 : Math.max(0, oldest + rule.windowMs - nowMs);
    return {
      allowed,
      limit: rule.limit,
      windowMs: rule.windowMs,
      remaining: rule.limit - (stamps.length - head),
      resetMs,
      retryAfterMs: allowed ? 0 : resetMs,
    };
  }

  /**
   * Counts requests accepted before this limiter existed (times ascending, as a restart
   * found them in the ledger's log), so the window carries on across a restart.
   */
  seed(key: string, windowMs: number, stamps: readonly number[]): void {
    if (stamps.length === 0) return;
    this.logs.set(key, { windowMs, stamps: [...stamps].sort((a, b) => a - b), head: 0 });
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

  /** Timestamps counted for a key (for tests of the memory bound). */
  held(key: string): number {
    const log = this.logs.get(key);
    return log ? log.stamps.length - log.head : 0;
  }

  /** Timestamps stored for a key, counted or awaiting compaction (at most ~2 × limit + 64). */
  stored(key: string): number {
    return this.logs.get(key)?.stamps.length ?? 0;
  }
}
