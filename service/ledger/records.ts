/**
 * The log's record types. Every change to ledger state is one record, appended and made
 * durable before the change is acknowledged; replaying the records in order through
 * `applyRecord` (state.ts) rebuilds the state exactly. Times are ISO strings.
 * Keys appear only as SHA-256 hashes.
 */
import type { RateLimit, Tier } from '../../schemas/plans.ts';
import type { IdempotentAnswer } from './types.ts';
import { cycleBounds, prorationGbp, remainingFraction, type BillingState } from '../domain/billing.ts';

export type LedgerRecord =
  | { t: 'account'; a: string; name: string; tier: Tier; rate_limit: RateLimit | null; k: string; hash: string; at: string }
  | { t: 'revoke'; a: string; keys: string[]; at: string }
  /** Revokes `revoked` and adds key `k` in one record, so a rotation is all or nothing. */
  | { t: 'rotate'; a: string; revoked: string[]; k: string; hash: string; at: string }
  /**
   * r: the server's request id; cr: the caller's X-Request-Id, when it sent one; `idem`: the
   * request's Idempotency-Key and its answer, kept with the charge in one record.
   */
  | { t: 'debit'; a: string; c: number; e: string; r: string; cr?: string; at: string; idem?: { k: string; answer: IdempotentAnswer } }
  /** A request the rate window accepted for key `k` (window `w` ms), so the window survives a restart. */
  | { t: 'hit'; a: string; k: string; w: number; at: string }
  | { t: 'upgrade'; a: string; from: Tier; to: Tier; charge_gbp: number | null; fraction: number; at: string }
  | { t: 'downgrade'; a: string; from: Tier; to: Tier; at: string }
  | { t: 'rollover'; a: string; from_cycle: number; to_cycle: number; downgrade_applied: Tier | null; at: string };

export const RECORD_TYPES = ['account', 'revoke', 'rotate', 'debit', 'upgrade', 'downgrade', 'rollover', 'hit'] as const;

export function isRecord(x: unknown): x is LedgerRecord {
  return typeof x === 'object' && x !== null && (RECORD_TYPES as readonly string[]).includes((x as { t?: unknown }).t as string);
}

/** An upgrade's record, the same in both ledgers: the pro-rated charge for the rest of the account's cycle. */
export function upgradeRecord(acc: { id: string; created_at: string; billing: BillingState }, to: Tier, now: Date): Extract<LedgerRecord, { t: 'upgrade' }> {
  const cyc = cycleBounds(new Date(acc.created_at), acc.billing.cycle);
  return { t: 'upgrade', a: acc.id, from: acc.billing.tier, to, charge_gbp: prorationGbp(acc.billing.tier, to, cyc, now), fraction: remainingFraction(cyc, now), at: now.toISOString() };
}
