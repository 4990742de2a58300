/** Human-readable output for the accounts CLI (`--json` prints the results as they are). */
import type { AdminRequest, AdminResult } from '../ledger/admin-ops.ts';
import type { AccountView, UsageReport } from '../ledger/types.ts';

const credits = (n: number | null) => (n === null ? 'unlimited' : n.toLocaleString('en-GB'));
const rate = (v: AccountView) => `${v.rate_limit.limit}/${v.rate_limit.windowMs / 1000}s`;

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

function accountLines(v: AccountView): string {
  return table([
    ['account', v.account_id],
    ['name', v.name],
    ['tier', v.tier + (v.pending_tier ? ` (downgrade to ${v.pending_tier} at ${v.cycle_end})` : '')],
    ['created', v.created_at],
    ['cycle', `${v.cycle_start} → ${v.cycle_end}`],
    ['allowance', credits(v.allowance)],
    ['used this cycle', credits(v.used_this_cycle)],
    ['remaining', credits(v.remaining)],
    ['rate limit', rate(v)],
  ]);
}

function usageLines(u: UsageReport): string {
  const head = `usage ${u.from} to ${u.to}: ${u.total_calls} calls, ${u.total_credits} credits`;
  if (u.by_endpoint.length === 0) return head;
  return `${head}\n${table([['ENDPOINT', 'CALLS', 'CREDITS'], ...u.by_endpoint.map((e) => [e.endpoint, String(e.calls), String(e.credits)])])}`;
}

export function human(req: AdminRequest, result: AdminResult): string {
  switch (req.op) {
    case 'create': {
      const r = result as { account_id: string; api_key: string; tier: string };
      return `Created ${r.tier} account ${r.account_id}\nAPI key (shown once, store it now): ${r.api_key}`;
    }
    case 'list': {
      const list = result as AccountView[];
      if (list.length === 0) return 'No accounts.';
      return table([
        ['ACCOUNT', 'NAME', 'TIER', 'PENDING', 'USED', 'REMAINING', 'RATE', 'CYCLE END'],
        ...list.map((v) => [v.account_id, v.name, v.tier, v.pending_tier ?? '-', credits(v.used_this_cycle), credits(v.remaining), rate(v), v.cycle_end]),
      ]);
    }
    case 'show': {
      const r = result as { account: AccountView; usage: UsageReport };
      return `${accountLines(r.account)}\n\n${usageLines(r.usage)}`;
    }
    case 'upgrade':
    case 'downgrade':
      return accountLines(result as AccountView);
    case 'revoke-key':
      return `Revoked every key of ${req.account_id}`;
    case 'rotate-key': {
      const r = result as { api_key: string };
      return `New API key for ${req.account_id} (shown once; the old key no longer works): ${r.api_key}`;
    }
    case 'ping':
      return `ledger server pid ${(result as { pid: number }).pid}`;
  }
}
