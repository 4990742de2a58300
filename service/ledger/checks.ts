/** Input checks both ledgers make before a change, with the same errors (LedgerError codes). */
import { PlanChangeError } from '../domain/billing.ts';
import { TIERS, type RateLimit, type Tier } from '../../schemas/plans.ts';
import { LedgerError } from './errors.ts';

export function checkTier(tier: string): void {
  if (!(TIERS as readonly string[]).includes(tier)) throw new LedgerError('invalid_input', `unknown tier "${tier}"`);
}

export function checkNewAccount(input: { tier: Tier; rateLimit?: RateLimit }): void {
  checkTier(input.tier);
  if (input.rateLimit !== undefined) {
    if (input.tier !== 'enterprise') throw new LedgerError('invalid_input', 'a rate limit can only be set for enterprise accounts');
    const { limit, windowMs } = input.rateLimit;
    if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(windowMs) || windowMs < 1) {
      throw new LedgerError('invalid_input', 'rate limit must be a positive whole number of requests per positive window');
    }
  }
}

/** Runs a billing transition, turning PlanChangeError into LedgerError('invalid_plan_change'). */
export function planChange<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof PlanChangeError) throw new LedgerError('invalid_plan_change', e.message);
    throw e;
  }
}

export function checkCost(cost: number): void {
  if (!Number.isInteger(cost) || cost < 0) throw new RangeError(`reserve: cost must be a non-negative integer (got ${cost})`);
}
