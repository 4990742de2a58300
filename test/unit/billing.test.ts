import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonthsClamped,
  applyDebit,
  applyUpgrade,
  cycleAt,
  cycleBounds,
  cycleIndexAt,
  openingBilling,
  PlanChangeError,
  prorationGbp,
  remainingCredits,
  remainingFraction,
  rollTo,
  scheduleDowngrade,
} from '../../service/domain/billing.ts';
import { TIERS } from '../../schemas/plans.ts';

const d = (iso: string) => new Date(iso);
const iso = (x: Date) => x.toISOString();

describe('monthly cycles anchored at creation', () => {
  it('adds calendar months and keeps the time of day', () => {
    expect(iso(addMonthsClamped(d('2026-01-15T10:20:30.400Z'), 1))).toBe('2026-02-15T10:20:30.400Z');
    expect(iso(addMonthsClamped(d('2026-11-15T00:00:00Z'), 3))).toBe('2027-02-15T00:00:00.000Z');
    expect(iso(addMonthsClamped(d('2026-03-15T00:00:00Z'), -3))).toBe('2025-12-15T00:00:00.000Z');
  });

  it('an account created on the 31st renews on the last day of shorter months, then back on the 31st', () => {
    const created = d('2026-01-31T12:00:00Z');
    const starts = [0, 1, 2, 3, 4, 13].map((n) => iso(cycleBounds(created, n).start));
    expect(starts).toEqual([
      '2026-01-31T12:00:00.000Z',
      '2026-02-28T12:00:00.000Z',
      '2026-03-31T12:00:00.000Z',
      '2026-04-30T12:00:00.000Z',
      '2026-05-31T12:00:00.000Z',
      '2027-02-28T12:00:00.000Z',
    ]);
    // Leap year: 29 February.
    expect(iso(cycleBounds(d('2027-01-31T00:00:00Z'), 13).start)).toBe('2028-02-29T00:00:00.000Z');
    // The 29th/30th clamp only in February.
    expect(iso(cycleBounds(d('2026-01-30T00:00:00Z'), 1).start)).toBe('2026-02-28T00:00:00.000Z');
    expect(iso(cycleBounds(d('2026-01-30T00:00:00Z'), 2).start)).toBe('2026-03-30T00:00:00.000Z');
  });

  it('a cycle is [start, end): the renewal instant belongs to the next cycle', () => {
    const created = d('2026-01-31T12:00:00Z');
    expect(cycleIndexAt(created, d('2026-02-28T11:59:59.999Z'))).toBe(0);
    expect(cycleIndexAt(created, d('2026-02-28T12:00:00Z'))).toBe(1);
    expect(cycleIndexAt(created, d('2026-03-31T11:00:00Z'))).toBe(1);
    expect(cycleIndexAt(created, d('2026-03-31T12:00:00Z'))).toBe(2);
    expect(cycleIndexAt(created, d('2025-01-01T00:00:00Z'))).toBe(0);
    const c = cycleAt(created, d('2026-03-01T00:00:00Z'));
    expect([c.index, iso(c.start), iso(c.end)]).toEqual([1, '2026-02-28T12:00:00.000Z', '2026-03-31T12:00:00.000Z']);
  });

  it('property: every instant after creation lies in exactly the cycle the index names', () => {
    const t0 = Date.UTC(2000, 0, 1);
    const t1 = Date.UTC(2060, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: t0, max: t1 }), fc.integer({ min: 0, max: 5 * 366 * 86_400_000 }), (c, dt) => {
        const created = new Date(c);
        const now = new Date(c + dt);
        const cyc = cycleAt(created, now);
        expect(cyc.start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(now.getTime()).toBeLessThan(cyc.end.getTime());
        expect(cyc.end.getTime()).toBe(cycleBounds(created, cyc.index + 1).start.getTime());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('proration', () => {
  const cycle = cycleBounds(d('2026-04-01T00:00:00Z'), 0); // 30 days of April
  it('charges the price difference times the share of the cycle left, to the penny', () => {
    expect(remainingFraction(cycle, d('2026-04-01T00:00:00Z'))).toBe(1);
    expect(remainingFraction(cycle, d('2026-04-16T00:00:00Z'))).toBe(0.5);
    expect(prorationGbp('starter', 'growth', cycle, d('2026-04-01T00:00:00Z'))).toBe(20);
    expect(prorationGbp('starter', 'growth', cycle, d('2026-04-16T00:00:00Z'))).toBe(10);
    expect(prorationGbp('free', 'pro', cycle, d('2026-04-21T00:00:00Z'))).toBe(32); // 96 × 10/30
    expect(prorationGbp('growth', 'premium', cycle, d('2026-04-11T00:00:00Z'))).toBe(224); // 336 × 2/3
    expect(prorationGbp('starter', 'growth', cycle, d('2026-04-02T00:00:00Z'))).toBe(19.33); // 20 × 29/30
  });
  it('clamps outside the cycle and is null for custom (Enterprise) pricing', () => {
    expect(remainingFraction(cycle, d('2026-03-01T00:00:00Z'))).toBe(1);
    expect(remainingFraction(cycle, d('2026-06-01T00:00:00Z'))).toBe(0);
    expect(prorationGbp('pro', 'enterprise', cycle, d('2026-04-16T00:00:00Z'))).toBeNull();
  });
});

describe('plan state', () => {
  it('opens with the tier allowance; Enterprise is unlimited', () => {
    expect(remainingCredits(openingBilling('starter'))).toBe(2000);
    expect(remainingCredits(openingBilling('free'))).toBe(100);
    expect(remainingCredits(openingBilling('enterprise'))).toBeNull();
    expect(remainingCredits(applyDebit(openingBilling('enterprise'), 1e9))).toBeNull();
  });

  it('roll-over resets to the allowance with no carry-over', () => {
    let s = applyDebit(openingBilling('starter'), 2000);
    expect(remainingCredits(s)).toBe(0);
    s = rollTo(s, 1).state;
    expect([s.cycle, s.used, remainingCredits(s)]).toEqual([1, 0, 2000]);
    // Unused credits do not carry over.
    s = rollTo(applyDebit(s, 500), 3).state;
    expect([s.cycle, remainingCredits(s)]).toEqual([3, 2000]);
    // Rolling to the current or an earlier cycle changes nothing.
    expect(rollTo(s, 3).state).toBe(s);
    expect(rollTo(s, 2).state).toBe(s);
  });

  it('Free: 100 credits once, never renewed, even across cycles', () => {
    let s = applyDebit(openingBilling('free'), 60);
    s = rollTo(s, 1).state;
    expect([s.used, remainingCredits(s)]).toEqual([0, 40]);
    s = rollTo(applyDebit(s, 40), 5).state;
    expect([s.cycle, remainingCredits(s)]).toEqual([5, 0]);
  });

  it('upgrade applies at once: new allowance for the whole cycle minus what was used this cycle', () => {
    const capped = applyDebit(openingBilling('starter'), 2000);
    const up = applyUpgrade(capped, 'growth');
    expect([up.tier, remainingCredits(up), up.used]).toEqual(['growth', 3000, 2000]);
    const fromFree = applyUpgrade(applyDebit(openingBilling('free'), 100), 'starter');
    expect(remainingCredits(fromFree)).toBe(1900);
    expect(remainingCredits(applyUpgrade(capped, 'enterprise'))).toBeNull();
    // An upgrade cancels a pending downgrade.
    expect(applyUpgrade(scheduleDowngrade(openingBilling('pro'), 'starter'), 'business').pending).toBeNull();
  });

  it('upgrade and downgrade refuse the wrong direction', () => {
    expect(() => applyUpgrade(openingBilling('pro'), 'pro')).toThrow(PlanChangeError);
    expect(() => applyUpgrade(openingBilling('pro'), 'starter')).toThrow(/higher tier/);
    expect(() => scheduleDowngrade(openingBilling('pro'), 'pro')).toThrow(PlanChangeError);
    expect(() => scheduleDowngrade(openingBilling('free'), 'starter')).toThrow(/lower tier/);
  });

  it('downgrade is pending until the next renewal, then applies once', () => {
    let s = scheduleDowngrade(applyDebit(openingBilling('pro'), 100), 'starter');
    expect([s.tier, s.pending, remainingCredits(s)]).toEqual(['pro', 'starter', 14_900]);
    const r = rollTo(s, 2);
    expect(r.appliedDowngrade).toBe('starter');
    s = r.state;
    expect([s.tier, s.pending, remainingCredits(s)]).toEqual(['starter', null, 2000]);
    expect(rollTo(s, 3).appliedDowngrade).toBeNull();
  });

  it('downgrade to Free grants the one-time 100 only if the account never had it', () => {
    const paid = rollTo(scheduleDowngrade(openingBilling('starter'), 'free'), 1).state;
    expect([paid.tier, remainingCredits(paid)]).toEqual(['free', 100]);
    const wasFree = rollTo(scheduleDowngrade(applyUpgrade(openingBilling('free'), 'starter'), 'free'), 1).state;
    expect([wasFree.tier, remainingCredits(wasFree)]).toEqual(['free', 0]);
  });

  it('every tier pair: upgrade only upwards, downgrade only downwards', () => {
    for (const a of TIERS) {
      for (const b of TIERS) {
        const i = TIERS.indexOf(a);
        const j = TIERS.indexOf(b);
        const up = () => applyUpgrade(openingBilling(a), b);
        const down = () => scheduleDowngrade(openingBilling(a), b);
        if (j > i) expect(up().tier).toBe(b);
        else expect(up).toThrow(PlanChangeError);
        if (j < i) expect(down().pending).toBe(b);
        else expect(down).toThrow(PlanChangeError);
      }
    }
  });
});
