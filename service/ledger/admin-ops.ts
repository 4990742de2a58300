/**
 * Administrative operations as data: one request schema, one dispatcher. The accounts CLI
 * runs them directly on a ledger it opened itself, or sends them over the admin socket to
 * the server holding the writer lock; both paths return the same result shapes.
 */
import { z } from 'zod';
import { TIERS } from '../../schemas/plans.ts';
import { LedgerError } from './errors.ts';
import type { AccountView, Ledger, UsageReport } from './types.ts';

const accountId = z.string().min(1).max(100);
const tier = z.enum(TIERS);

export const AdminRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('ping') }),
  z.object({
    op: z.literal('create'),
    tier,
    name: z.string().max(200).optional(),
    rate_limit: z.object({ limit: z.int().positive(), windowMs: z.int().positive() }).optional(),
  }),
  z.object({ op: z.literal('list') }),
  z.object({ op: z.literal('show'), account_id: accountId }),
  z.object({ op: z.literal('upgrade'), account_id: accountId, tier }),
  z.object({ op: z.literal('downgrade'), account_id: accountId, tier }),
  z.object({ op: z.literal('revoke-key'), account_id: accountId }),
  z.object({ op: z.literal('rotate-key'), account_id: accountId }),
]);
export type AdminRequest = z.infer<typeof AdminRequest>;

export type AdminResult =
  | { pid: number }
  | { account_id: string; api_key: string; tier: string }
  | AccountView[]
  | { account: AccountView; usage: UsageReport }
  | AccountView
  | { account_id: string; revoked: true }
  | { account_id: string; api_key: string };

export async function runAdminOp(ledger: Ledger, req: AdminRequest, now: Date): Promise<AdminResult> {
  switch (req.op) {
    case 'ping':
      return { pid: process.pid };
    case 'create': {
      const input = { tier: req.tier, ...(req.name !== undefined && { name: req.name }), ...(req.rate_limit && { rateLimit: req.rate_limit }) };
      const { account, api_key } = await ledger.createAccount(input, now);
      return { account_id: account.account_id, api_key, tier: account.tier };
    }
    case 'list':
      return ledger.listAccounts(now);
    case 'show': {
      const account = await ledger.account(req.account_id, now);
      if (!account) throw new LedgerError('unknown_account', `unknown account ${req.account_id}`);
      return { account, usage: await ledger.usage({ account_id: req.account_id }, now) };
    }
    case 'upgrade':
      return ledger.upgrade(req.account_id, req.tier, now);
    case 'downgrade':
      return ledger.downgrade(req.account_id, req.tier, now);
    case 'revoke-key':
      await ledger.revokeKey(req.account_id, now);
      return { account_id: req.account_id, revoked: true };
    case 'rotate-key':
      return { account_id: req.account_id, ...(await ledger.rotateKey(req.account_id, now)) };
  }
}
