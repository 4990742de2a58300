/**
 * What both ledgers show of an account and its usage, from the same plain data (an
 * AccountRec and the usage cells), so the file and PostgreSQL ledgers cannot differ.
 */
import { cycleBounds, remainingCredits } from '../domain/billing.ts';
import { ENTERPRISE_DEFAULT_RATE_LIMIT, PLANS } from '../../schemas/plans.ts';
import type { AccountRec, UsageCell } from './state.ts';
import type { AccountView, UsageQuery, UsageReport } from './types.ts';

export function accountView(acc: AccountRec): AccountView {
  const b = acc.billing;
  const cyc = cycleBounds(new Date(acc.created_at), b.cycle);
  return {
    account_id: acc.id,
    name: acc.name,
    tier: b.tier,
    status: 'active',
    created_at: acc.created_at,
    cycle_start: cyc.start.toISOString(),
    cycle_end: cyc.end.toISOString(),
    allowance: b.grant,
    used_this_cycle: b.used,
    remaining: remainingCredits(b),
    rate_limit: b.tier === 'enterprise' ? (acc.rate_limit ?? ENTERPRISE_DEFAULT_RATE_LIMIT) : PLANS[b.tier].rateLimit!,
    pending_tier: b.pending,
  };
}

/** One usage cell: calls and credits of an account in one cycle, UTC day and endpoint. */
export interface UsageRow extends UsageCell {
  cycle: number;
  day: string;
  endpoint: string;
}

/**
 * Usage of `acc` (already rolled to `now`'s cycle): the current cycle's cells, or with
 * `from`/`to` (inclusive ISO dates) the cells of those days across cycles.
 */
export function usageReport(acc: AccountRec, cells: Iterable<UsageRow>, q: UsageQuery): UsageReport {
  const cyc = cycleBounds(new Date(acc.created_at), acc.billing.cycle);
  const from = q.from?.slice(0, 10) ?? cyc.start.toISOString().slice(0, 10);
  const to = q.to?.slice(0, 10) ?? new Date(cyc.end.getTime() - 1).toISOString().slice(0, 10);
  const explicit = q.from !== undefined || q.to !== undefined;
  const byEndpoint = new Map<string, { calls: number; credits: number }>();
  const byDay = new Map<string, { calls: number; credits: number }>();
  let calls = 0;
  let credits = 0;
  for (const cell of cells) {
    if (explicit ? cell.day < from || cell.day > to : cell.cycle !== acc.billing.cycle) continue;
    calls += cell.calls;
    credits += cell.credits;
    for (const [m, k] of [[byEndpoint, cell.endpoint], [byDay, cell.day]] as const) {
      const agg = m.get(k) ?? { calls: 0, credits: 0 };
      agg.calls += cell.calls;
      agg.credits += cell.credits;
      m.set(k, agg);
    }
  }
  return {
    from,
    to,
    total_calls: calls,
    total_credits: credits,
    by_endpoint: [...byEndpoint]
      .map(([endpoint, v]) => ({ endpoint, ...v }))
      .sort((a, b) => b.credits - a.credits || a.endpoint.localeCompare(b.endpoint)),
    by_day: [...byDay].map(([date, v]) => ({ date, ...v })).sort((a, b) => a.date.localeCompare(b.date)),
  };
}
