/**
 * The rate window's `hit` records in the ledger state (issue 45): times that have left their
 * window are dropped, in batches while running and for good in snapshots, and a snapshot's
 * times seed a fresh window that decides as the old one would.
 */
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../service/domain/rate-window.ts';
import { LedgerState } from '../../service/ledger/state.ts';

const T0 = Date.parse('2026-04-01T00:00:00Z');
const hit = (k: string, w: number, ms: number) => ({ t: 'hit' as const, a: 'acc_x', k, w, at: new Date(ms).toISOString() });

describe('hit records in the ledger state', () => {
  it('keeps only the times inside the window of the newest hit, and snapshots nothing older', () => {
    const st = new LedgerState();
    for (let i = 0; i < 10; i++) st.apply(hit('key_a', 10_000, T0 + i * 1_000)); // 0 s .. 9 s
    st.apply(hit('key_b', 1_000, T0)); // long gone by the end
    st.apply(hit('key_a', 10_000, T0 + 15_000)); // the window is now (5 s, 15 s]
    expect(st.hits.get('key_a')!.at).toEqual([6, 7, 8, 9, 15].map((s) => T0 + s * 1_000));
    const snap = LedgerState.fromSnapshot(JSON.parse(JSON.stringify(st.toSnapshot())));
    expect([...snap.hits.keys()]).toEqual(['key_a']);
    expect(snap.hits.get('key_a')).toEqual({ w: 10_000, at: [6, 7, 8, 9, 15].map((s) => T0 + s * 1_000) });
  });

  it('a window seeded from them refuses what the original window refuses', () => {
    const rule = { limit: 3, windowMs: 10_000 };
    const original = new SlidingWindowLimiter();
    const st = new LedgerState();
    for (const s of [0, 2, 4]) {
      expect(original.hit('k', rule, T0 + s * 1_000).allowed).toBe(true);
      st.apply(hit('k', rule.windowMs, T0 + s * 1_000));
    }
    const seeded = new SlidingWindowLimiter();
    for (const [k, log] of st.hits) seeded.seed(k, log.w, log.at);
    for (const s of [5, 9.999, 10, 12]) expect(seeded.hit('k', rule, T0 + s * 1_000)).toEqual(original.hit('k', rule, T0 + s * 1_000));
  });

  it('a large window drops its old times in batches, never keeping more than about twice what it holds', () => {
    const st = new LedgerState();
    for (let i = 0; i < 5_000; i++) st.apply(hit('big', 1_000, T0 + i * 10)); // 100 per window
    expect(st.hits.get('big')!.at.length).toBeLessThanOrEqual(2 * 100 + 128);
    expect(st.hits.get('big')!.at.at(-1)).toBe(T0 + 4_999 * 10);
  });
});
