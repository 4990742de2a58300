import { UsageQuerySchema, UsageResponseSchema, type UsageResponse } from '../../../schemas/api/account.ts';
import { defineRoute } from '../types.ts';

export default defineRoute({
  method: 'GET',
  path: '/account/usage',
  operationId: 'getAccountUsage',
  summary: 'Calls and credits by endpoint and by day (this cycle unless from/to are given)',
  description: 'Free, and works when the credit cap is reached.',
  tag: 'Account',
  cost: 0,
  query: UsageQuerySchema,
  response: UsageResponseSchema,
  needsBuild: false,
  handler: async ({ ledger, principal, query, now }): Promise<UsageResponse> =>
    ledger.usage({ account_id: principal.account_id, ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) }, now),
});
