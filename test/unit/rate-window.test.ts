import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../service/domain/rate-window.ts';
import { SPEC_PLANS, SPEC_TIERS } from '../support/spec-plans.ts';

describe('SlidingWindowLimiter', () => {
  it.each(SPEC_TIERS.filter((t) => SPEC_PLANS[t].rate))('%s: N allowed, N+1 refused, allowed again when the window slides', (tier) => {
    const rule = SPEC_PLANS[tier].rate!;
    const lim = new SlidingWindowLimiter();
    const t0 = 1_000_000;
    for (let i = 0; i < rule.limit; i++) {
      const d = lim.hit('k', rule, t0 + i);
      expect(d.allowed).toBe(true);
      expect(d.remaining).toBe(rule.limit - i - 1);
    }
    const refused = lim.hit('k', rule, t0 + rule.limit);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    // The first request (at t0) leaves the window at t0 + w.
    expect(refused.retryAfterMs).toBe(t0 + rule.windowMs - (t0 + rule.limit));
    expect(lim.hit('k', rule, t0 + rule.windowMs - 1).allowed).toBe(false);
    expect(lim.hit('k', rule, t0 + rule.windowMs).allowed).toBe(true);
    // Only one slot freed: the second request still holds its place.
    expect(lim.hit('k', rule, t0 + rule.windowMs).allowed).toBe(false);
  });

  it('counts keys separately', () => {
    const lim = new SlidingWindowLimiter();
    const rule = { limit: 1, windowMs: 1_000 };
    expect(lim.hit('a', rule, 0).allowed).toBe(true);
    expect(lim.hit('b', rule, 0).allowed).toBe(true);
    expect(lim.hit('a', rule, 1).allowed).toBe(false);
  });

  it('applies a smaller limit at once when a key is downgraded', () => {
    const lim = new SlidingWindowLimiter();
    for (let i = 0; i < 6; i++) lim.hit('k', { limit: 6, windowMs: 10_000 }, i);
    const d = lim.hit('k', { limit: 4, windowMs: 10_000 }, 10);
    expect(d.allowed).toBe(false);
    // Four of the six still count; the oldest kept (t=2) leaves at 10_002.
    expect(d.retryAfterMs).toBe(10_002 - 10);
    expect(lim.held('k')).toBe(4);
  });

  it('refuses an invalid rule', () => {
    expect(() => new SlidingWindowLimiter().hit('k', { limit: 0, windowMs: 1 }, 0)).toThrow(/invalid rate limit/);
    expect(() => new SlidingWindowLimiter().hit('k', { limit: 1, windowMs: 0 }, 0)).toThrow(/invalid rate limit/);
  });

  it('bounds memory: at most limit stamps per key, idle keys swept', () => {
    const lim = new SlidingWindowLimiter();
    const rule = { limit: 3, windowMs: 100 };
    for (let i = 0; i < 50; i++) lim.hit('k', rule, i);
    expect(lim.held('k')).toBe(3);
    // A large limit: storage stays near the limit however long the key is busy.
    const big = { limit: 500, windowMs: 1_000 };
    for (let i = 0; i < 20_000; i++) lim.hit('busy', big, i);
    expect(lim.held('busy')).toBe(500);
    expect(lim.stored('busy')).toBeLessThanOrEqual(2 * 500 + 64);
    for (let i = 0; i < 2_000; i++) lim.hit(`key-${i}`, rule, i * 1_000);
    // Sweeps run every 1,024 hits: keys idle for a whole window are gone.
    expect(lim.size).toBeLessThan(1_100);
    lim.sweep(10_000_000);
    expect(lim.size).toBe(0);
  });

  it('property: never more than N accepted in any window, and every refusal is justified', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 200 }),
        (limit, windowMs, gaps) => {
          const lim = new SlidingWindowLimiter();
          const rule = { limit, windowMs };
          const accepted: number[] = [];
          let now = 0;
          for (const g of gaps) {
            now += g;
            const inWindow = accepted.filter((s) => s > now - windowMs).length;
            const d = lim.hit('k', rule, now);
            // Exact: accepted iff fewer than N accepted in (now - w, now].
            expect(d.allowed).toBe(inWindow < limit);
            if (d.allowed) accepted.push(now);
            else {
              // Retry-after points at the moment a slot frees, not before.
              const at = now + d.retryAfterMs;
              expect(accepted.filter((s) => s > at - windowMs).length).toBeLessThan(limit);
              expect(accepted.filter((s) => s > at - 1 - windowMs).length).toBe(limit);
            }
          }
        },
      ),
    );
  });
});
