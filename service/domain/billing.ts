/**
 * Billing-cycle and plan-change arithmetic: pure functions, clock injected (every `now`
 * is an argument). The ledger replays its log through these same functions, so what the
 * log says and what a running server computes can never disagree.
 *
 * Rules (docs/ledger.md):
 * - Cycles are monthly, anchored at the account's creation instant (UTC). Cycle n starts
 *   at creation + n months; when the anchor day does not exist in a month, the cycle starts
 *   on that month's last day (created 31 Jan → 28/29 Feb → 31 Mar → 30 Apr). The anchor day
 *   is always the creation day, so a short month never shifts later cycles.
 * - Roll-over resets the cycle's credits to the tier allowance; nothing carries over.
 * - Free: the 100 credits are granted once per account and never renewed; cycles still
 *   roll (usage is reported per cycle) but the grant is not topped up.
 * - Upgrade (to a higher rank) takes effect at once: the new tier's allowance applies to
 *   the whole current cycle, so remaining = new allowance − credits used this cycle
 *   (floored at 0). The charge is (new price − old price) × remaining fraction of the
 *   cycle, rounded to the penny; null when either price is custom (Enterprise).
 * - Downgrade (to a lower rank) is pending and applies at the next renewal.
 */
import { PLANS, type Tier } from '../../schemas/plans.ts';

export interface Cycle {
  index: number;
  start: Date;
  end: Date;
}

/** `anchor` plus `months` calendar months, the day clamped to the target month's last day. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const total = anchor.getUTCFullYear() * 12 + anchor.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(year, month, day, anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

export function cycleBounds(createdAt: Date, index: number): Cycle {
  return { index, start: addMonthsClamped(createdAt, index), end: addMonthsClamped(createdAt, index + 1) };
}

/** Index of the cycle containing `now` (0 for any instant before creation). */
export function cycleIndexAt(createdAt: Date, now: Date): number {
  if (now.getTime() < createdAt.getTime()) return 0;
  let n =
    (now.getUTCFullYear() - createdAt.getUTCFullYear()) * 12 + (now.getUTCMonth() - createdAt.getUTCMonth());
  // The month difference is right or one too many (now is before this month's anchor).
  while (n > 0 && addMonthsClamped(createdAt, n).getTime() > now.getTime()) n--;
  while (addMonthsClamped(createdAt, n + 1).getTime() <= now.getTime()) n++;
  return n;
}

export function cycleAt(createdAt: Date, now: Date): Cycle {
  return cycleBounds(createdAt, cycleIndexAt(createdAt, now));
}

/** Share of the cycle still to run at `now`, in [0, 1]. */
export function remainingFraction(cycle: Cycle, now: Date): number {
  const len = cycle.end.getTime() - cycle.start.getTime();
  const left = cycle.end.getTime() - now.getTime();
  return Math.min(1, Math.max(0, left / len));
}

/** Prorated upgrade charge in GBP (pence precision); null when a price is custom. */
export function prorationGbp(from: Tier, to: Tier, cycle: Cycle, now: Date): number | null {
  const a = PLANS[from].priceGbpMonthly;
  const b = PLANS[to].priceGbpMonthly;
  if (a === null || b === null) return null;
  return Math.round((b - a) * remainingFraction(cycle, now) * 100) / 100;
}

/** An account's plan position. Plain data, so it serialises into snapshots as is. */
export interface BillingState {
  tier: Tier;
  cycle: number;
  /** Credits granted for the current period; null is unlimited. */
  grant: number | null;
  /** Credits spent against `grant` (for Free this spans cycles: the grant is one-time). */
  spent: number;
  /** Credits charged in the current cycle (reporting). */
  used: number;
  pending: Tier | null;
  /** Whether this account has already had the one-time Free grant. */
  freeGranted: boolean;
}

export class PlanChangeError extends Error {
  override readonly name = 'PlanChangeError';
}

export function openingBilling(tier: Tier): BillingState {
  return { tier, cycle: 0, grant: PLANS[tier].allowance, spent: 0, used: 0, pending: null, freeGranted: tier === 'free' };
}

export function remainingCredits(s: BillingState): number | null {
  return s.grant === null ? null : Math.max(0, s.grant - s.spent);
}

export interface Renewal {
  state: BillingState;
  /** The tier a pending downgrade moved the account to, if one applied. */
  appliedDowngrade: Tier | null;
}

/** Renews into cycle `to` (no change when `to` is not later than the current cycle). */
export function rollTo(s: BillingState, to: number): Renewal {
  if (to <= s.cycle) return { state: s, appliedDowngrade: null };
  const tier = s.pending ?? s.tier;
  const next: BillingState = { ...s, tier, cycle: to, used: 0, pending: null };
  if (tier !== 'free') {
    next.grant = PLANS[tier].allowance;
    next.spent = 0;
  } else if (s.tier !== 'free') {
    // Moving down to Free: the one-time grant if this account never had it, else nothing.
    next.grant = s.freeGranted ? 0 : (PLANS.free.allowance ?? 0);
    next.spent = 0;
    next.freeGranted = true;
  } // Staying on Free: the one-time grant and what was spent of it carry on unchanged.
  return { state: next, appliedDowngrade: s.pending };
}

export function applyDebit(s: BillingState, credits: number): BillingState {
  return { ...s, spent: s.spent + credits, used: s.used + credits };
}

export function applyUpgrade(s: BillingState, to: Tier): BillingState {
  if (PLANS[to].rank <= PLANS[s.tier].rank) {
    throw new PlanChangeError(`upgrade must move to a higher tier than ${s.tier} (got ${to})`);
  }
  // The new allowance covers the whole cycle; what was used this cycle counts against it.
  return { ...s, tier: to, grant: PLANS[to].allowance, spent: s.used, pending: null };
}

export function scheduleDowngrade(s: BillingState, to: Tier): BillingState {
  if (PLANS[to].rank >= PLANS[s.tier].rank) {
    throw new PlanChangeError(`downgrade must move to a lower tier than ${s.tier} (got ${to})`);
  }
  return { ...s, pending: to };
}
