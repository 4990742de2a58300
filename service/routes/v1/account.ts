import { AccountResponseSchema, type AccountResponse } from '../../../schemas/api/account.ts';
import { PLANS } from '../../../schemas/plans.ts';
import { defineRoute } from '../types.ts';

export default defineRoute({
  method: 'GET',
  path: '/account',
  operationId: 'getAccount',
  summary: 'Plan, allowance, remaining credits, billing cycle, rate limit and any pending downgrade',
  description: 'Free, and works when the credit cap is reached.',
  tag: 'Account',
  cost: 0,
  response: AccountResponseSchema,
  needsBuild: false,
  handler: ({ account: a }): AccountResponse => ({
    account_id: a.account_id,
    name: a.name,
    status: a.status,
    plan: { tier: a.tier, name: PLANS[a.tier].name, one_time_allowance: PLANS[a.tier].oneTime },
    allowance: a.allowance,
    remaining: a.remaining,
    used_this_cycle: a.used_this_cycle,
    // A one-time allowance has no renewal: no end to show.
    cycle: { start: a.cycle_start, end: PLANS[a.tier].oneTime ? null : a.cycle_end },
    rate_limit: { limit: a.rate_limit.limit, window_seconds: a.rate_limit.windowMs / 1000 },
    pending_downgrade: a.pending_tier ? { tier: a.pending_tier, effective_at: a.cycle_end } : null,
  }),
});
