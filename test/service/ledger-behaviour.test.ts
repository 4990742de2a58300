/**
 * One behaviour suite, two ledgers: the billing rules, reservations, keys, usage and the
 * records they log, run against the file ledger and against the PostgreSQL ledger on a real
 * server. Expected values are worked out by hand from docs/ledger.md's rules and the plan
 * table (schemas/plans.ts), not read back from either implementation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../service/ledger/index.ts';
import { fileImpl, pgImpl, type LedgerImpl } from '../support/ledgers.ts';

const T0 = new Date('2026-04-01T00:00:00Z');
const at = (iso: string) => new Date(iso);
const meta = (i: number | string) => ({ endpoint: 'GET /v1/properties/{uprn}', request_id: `req-${i}` });

async function charge(l: Ledger, account: string, cost: number, now: Date, id: number | string = Math.random()) {
  const r = await l.reserve(account, cost, now);
  if (!r.ok) return r;
  await l.commit(r.reservation, meta(id), now);
  return r;
}

for (const impl of [fileImpl(), pgImpl()] as LedgerImpl[]) {
  if (impl.unavailable) console.warn(`ledger behaviour suite: ${impl.name} skipped: ${impl.unavailable}`);
  describe.skipIf(impl.unavailable !== undefined)(`ledger behaviour (${impl.name})`, () => {
    beforeAll(() => impl.setup(), 60_000);
    afterAll(() => impl.teardown());

    it('cap: a cost above the remaining balance is refused, holds nothing and charges nothing', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'free' }, T0)).account.account_id;
      for (let i = 0; i < 19; i++) expect((await charge(l, id, 5, T0, i)).ok).toBe(true);
      expect((await l.account(id, T0))?.remaining).toBe(5);
      expect(await l.reserve(id, 8, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 5 });
      expect(await l.account(id, T0)).toMatchObject({ remaining: 5, used_this_cycle: 95 });
      expect((await charge(l, id, 5, T0, 'last')).ok).toBe(true);
      expect(await l.reserve(id, 1, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 0 });
      const free = await l.reserve(id, 0, T0);
      expect(free.ok).toBe(true);
      if (free.ok) await l.commit(free.reservation, meta('free'), T0);
      expect(await l.usage({ account_id: id }, T0)).toMatchObject({ total_calls: 20, total_credits: 100 });
      expect((await o.records()).filter((r) => r.t === 'debit')).toHaveLength(20);
      await o.close();
    });

    it('unknown accounts are refused; bad costs are programming errors', async () => {
      const o = await impl.open();
      const l = o.ledger;
      expect(await l.reserve('acc_nope', 1, T0)).toEqual({ ok: false, reason: 'unknown_account' });
      expect(await l.account('acc_nope', T0)).toBeUndefined();
      const { account } = await l.createAccount({ tier: 'starter' }, T0);
      await expect(async () => l.reserve(account.account_id, -1, T0)).rejects.toThrow(RangeError);
      await expect(async () => l.reserve(account.account_id, 1.5, T0)).rejects.toThrow(RangeError);
      await expect(l.upgrade('acc_nope', 'pro', T0)).rejects.toMatchObject({ code: 'unknown_account' });
      await expect(async () => l.usage({ account_id: 'acc_nope' }, T0)).rejects.toMatchObject({ code: 'unknown_account' });
      await o.close();
    });

    it('upgrade recovers at once, with the prorated charge recorded', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const { account } = await l.createAccount({ tier: 'starter', name: 'Acme' }, T0);
      const id = account.account_id;
      expect(account).toMatchObject({ name: 'Acme', tier: 'starter', allowance: 2000, remaining: 2000, pending_tier: null });
      expect(account.rate_limit).toEqual({ limit: 4, windowMs: 10_000 });
      for (let i = 0; i < 40; i++) await charge(l, id, 50, T0, i);
      const mid = at('2026-04-16T00:00:00Z'); // half of a 30-day cycle left
      expect(await l.reserve(id, 1, mid)).toMatchObject({ ok: false, reason: 'credits_exhausted' });
      const up = await l.upgrade(id, 'growth', mid);
      expect(up).toMatchObject({ tier: 'growth', allowance: 5000, used_this_cycle: 2000, remaining: 3000 });
      expect((await l.upgrade(id, 'business', mid)).rate_limit).toEqual({ limit: 8, windowMs: 10_000 });
      expect(up.cycle_start).toBe(account.cycle_start);
      expect((await charge(l, id, 3, mid)).ok).toBe(true);
      await expect(l.upgrade(id, 'starter', mid)).rejects.toMatchObject({ code: 'invalid_plan_change' });
      expect(await l.account(id, mid)).toMatchObject({ tier: 'business', remaining: 47_997 });
      await expect(l.upgrade(id, 'nonsense' as 'pro', mid)).rejects.toMatchObject({ code: 'invalid_input' });
      expect((await o.records()).filter((r) => r.t === 'upgrade')).toMatchObject([
        { from: 'starter', to: 'growth', charge_gbp: 10, fraction: 0.5 },
        { from: 'growth', to: 'business', charge_gbp: 72, fraction: 0.5 },
      ]);
      await o.close();
    });

    it('roll-over: credits reset to the allowance, no carry-over, logged once per renewal', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, at('2026-01-31T09:00:00Z'))).account.account_id;
      await charge(l, id, 2000, at('2026-02-01T00:00:00Z'));
      expect(await l.reserve(id, 1, at('2026-02-28T08:59:59Z'))).toMatchObject({ ok: false });
      expect(await l.account(id, at('2026-02-28T09:00:00Z'))).toMatchObject({
        remaining: 2000,
        used_this_cycle: 0,
        cycle_start: '2026-02-28T09:00:00.000Z',
        cycle_end: '2026-03-31T09:00:00.000Z',
      });
      await charge(l, id, 10, at('2026-03-01T00:00:00Z'));
      expect(await l.account(id, at('2026-07-01T00:00:00Z'))).toMatchObject({ remaining: 2000, cycle_start: '2026-06-30T09:00:00.000Z' });
      const rolls = (await o.records()).filter((r) => r.t === 'rollover');
      expect(rolls.map((r) => r.t === 'rollover' && [r.from_cycle, r.to_cycle])).toEqual([[0, 1], [1, 5]]);
      await o.close();
    });

    it('downgrade takes effect at the next renewal only, named on the roll-over', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'pro' }, T0)).account.account_id;
      await charge(l, id, 100, T0);
      const d = await l.downgrade(id, 'starter', at('2026-04-10T00:00:00Z'));
      expect(d).toMatchObject({ tier: 'pro', pending_tier: 'starter', remaining: 14_900, rate_limit: { limit: 6, windowMs: 10_000 } });
      expect(await l.account(id, at('2026-04-30T23:59:59Z'))).toMatchObject({ tier: 'pro', pending_tier: 'starter' });
      expect(await l.account(id, at('2026-05-01T00:00:00Z'))).toMatchObject({
        tier: 'starter',
        pending_tier: null,
        allowance: 2000,
        remaining: 2000,
        rate_limit: { limit: 4, windowMs: 10_000 },
      });
      await expect(l.downgrade(id, 'pro', at('2026-05-02T00:00:00Z'))).rejects.toMatchObject({ code: 'invalid_plan_change' });
      expect((await o.records()).filter((r) => r.t === 'rollover')).toMatchObject([{ from_cycle: 0, to_cycle: 1, downgrade_applied: 'starter' }]);
      await o.close();
    });

    it('free: 100 credits once, never renewed; down to free grants it only if never had', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'free' }, T0)).account.account_id;
      await charge(l, id, 100, T0);
      for (const month of ['2026-05-02', '2026-09-02', '2027-04-02']) {
        expect(await l.account(id, at(`${month}T00:00:00Z`))).toMatchObject({ remaining: 0, allowance: 100, used_this_cycle: 0 });
        expect(await l.reserve(id, 1, at(`${month}T00:00:00Z`))).toMatchObject({ ok: false, reason: 'credits_exhausted' });
      }
      const s = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      await l.downgrade(s, 'free', at('2026-04-20T00:00:00Z'));
      expect(await l.account(s, at('2026-05-01T00:00:00Z'))).toMatchObject({ tier: 'free', allowance: 100, remaining: 100 });
      await o.close();
    });

    it('enterprise: unlimited, with the account rate limit or the default', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const e1 = (await l.createAccount({ tier: 'enterprise', rateLimit: { limit: 500, windowMs: 10_000 } }, T0)).account;
      const e2 = (await l.createAccount({ tier: 'enterprise' }, T0)).account;
      expect(e1).toMatchObject({ allowance: null, remaining: null, rate_limit: { limit: 500, windowMs: 10_000 } });
      expect(e2.rate_limit).toEqual({ limit: 50, windowMs: 10_000 });
      expect((await charge(l, e1.account_id, 1_000_000, T0)).ok).toBe(true);
      expect(await l.account(e1.account_id, T0)).toMatchObject({ remaining: null, used_this_cycle: 1_000_000 });
      await expect(l.createAccount({ tier: 'pro', rateLimit: { limit: 5, windowMs: 1000 } }, T0)).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(l.createAccount({ tier: 'enterprise', rateLimit: { limit: 0, windowMs: 1000 } }, T0)).rejects.toMatchObject({ code: 'invalid_input' });
      expect((await l.listAccounts(T0)).map((a) => a.account_id)).toEqual([e1.account_id, e2.account_id]);
      await o.close();
    });

    it('concurrent reservations never exceed the balance, whatever the interleaving', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'free' }, T0)).account.account_id;
      // 60 requests of cost 3 race: 33 fit in 100 (99 credits); the rest are refused.
      const results = await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          const r = await l.reserve(id, 3, T0);
          if (!r.ok) return 'refused';
          await new Promise((res) => setTimeout(res, (i * 7) % 5));
          if (i % 10 === 0) {
            await l.release(r.reservation);
            return 'released';
          }
          await l.commit(r.reservation, meta(i), T0);
          return 'charged';
        }),
      );
      const charged = results.filter((x) => x === 'charged').length;
      const released = results.filter((x) => x === 'released').length;
      // 33 holds fit in 100 at any one time; credits released early may be held again by a
      // reservation that arrives after the release (PostgreSQL interleaves them, the file
      // ledger takes all 60 holds before any handler ends).
      expect(results.length - released - results.filter((x) => x === 'refused').length).toBe(charged);
      expect(charged).toBeLessThanOrEqual(33);
      expect(charged + released).toBeGreaterThanOrEqual(33);
      if (impl.name === 'file') expect(charged + released).toBe(33);
      expect((await l.account(id, T0))?.remaining).toBe(100 - 3 * charged);
      // Released credits are available again, and no more.
      expect((await l.reserve(id, 100 - 3 * charged, T0)).ok).toBe(true);
      expect((await l.reserve(id, 1, T0)).ok).toBe(false);
      await o.close();
    });

    it('a reservation is charged at most once; release is idempotent', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      const r = await l.reserve(id, 2, T0);
      if (!r.ok) throw new Error('reserve failed');
      await l.commit(r.reservation, meta(1), T0);
      await expect(l.commit(r.reservation, meta(1), T0)).rejects.toThrow(/already committed or released/);
      await l.release(r.reservation);
      expect((await l.account(id, T0))?.used_this_cycle).toBe(2);
      const r2 = await l.reserve(id, 5, T0);
      if (!r2.ok) throw new Error('reserve failed');
      await l.release(r2.reservation);
      await l.release(r2.reservation);
      await expect(l.commit(r2.reservation, meta(2), T0)).rejects.toThrow(/already committed or released/);
      expect((await l.account(id, T0))?.remaining).toBe(1998);
      expect((await l.reserve(id, 1998, T0)).ok).toBe(true); // nothing is still held
      await o.close();
    });

    it('a reservation made before a renewal and committed after it is charged to the new cycle', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      const r = await l.reserve(id, 7, at('2026-04-30T23:59:59Z'));
      if (!r.ok) throw new Error('reserve failed');
      await l.commit(r.reservation, meta('x'), at('2026-05-01T00:00:01Z'));
      expect(await l.account(id, at('2026-05-01T00:00:02Z'))).toMatchObject({ used_this_cycle: 7, remaining: 1993, cycle_start: '2026-05-01T00:00:00.000Z' });
      expect((await l.usage({ account_id: id }, at('2026-05-01T00:00:02Z'))).total_credits).toBe(7);
      await o.close();
    });

    it('authenticateAccount answers as authenticate then account (renewed when due); a charge returns, if anything, the account after it', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const { account, api_key } = await l.createAccount({ tier: 'starter' }, T0);
      const id = account.account_id;
      const r = await l.reserve(id, 40, T0);
      if (!r.ok) throw new Error('refused');
      const after = await l.commit(r.reservation, meta('a'), T0);
      // 2,000 − 40: the PostgreSQL ledger has it from the charge's own write; the file ledger returns nothing.
      if (after) expect(after).toMatchObject({ account_id: id, remaining: 1960, used_this_cycle: 40 });
      const found = await l.authenticateAccount(api_key, T0);
      expect(found).toEqual({ principal: await l.authenticate(api_key), account: await l.account(id, T0) });
      expect(found?.account).toMatchObject({ remaining: 1960, used_this_cycle: 40 });
      const renewed = at('2026-05-01T00:00:00Z'); // the next cycle's first instant
      expect((await l.authenticateAccount(api_key, renewed))?.account).toMatchObject({ remaining: 2000, used_this_cycle: 0 });
      expect(await l.authenticateAccount('not-a-key-at-all', T0)).toBeUndefined();
      await l.revokeKey(id, renewed);
      expect(await l.authenticateAccount(api_key, renewed)).toBeUndefined();
      await o.close();
    });

    it('keys: authenticated by hash, revoked and rotated; survive a restart', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const { account, api_key } = await l.createAccount({ tier: 'growth' }, T0);
      expect(api_key).toMatch(/^pi_live_[A-Za-z0-9_-]{43}$/);
      const p = await l.authenticate(api_key);
      expect(p?.account_id).toBe(account.account_id);
      expect(await l.authenticate(api_key.slice(0, -1) + (api_key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
      expect(await l.authenticate('')).toBeUndefined();
      expect(await l.authenticate('x'.repeat(10_000))).toBeUndefined();
      const { api_key: k2 } = await l.rotateKey(account.account_id, T0);
      expect(await l.authenticate(api_key)).toBeUndefined();
      expect((await l.authenticate(k2))?.account_id).toBe(account.account_id);
      expect((await l.authenticate(k2))?.key_id).not.toBe(p?.key_id);
      const { api_key: k3 } = await l.rotateKey(account.account_id, T0);
      const again = await o.reopen();
      expect(await again.authenticate(k2)).toBeUndefined();
      expect((await again.authenticate(k3))?.account_id).toBe(account.account_id);
      await again.revokeKey(account.account_id, T0);
      expect(await again.authenticate(k3)).toBeUndefined();
      await again.revokeKey(account.account_id, T0); // nothing left to revoke: no record
      const recs = await o.records();
      expect(recs.map((r) => r.t)).toEqual(['account', 'rotate', 'rotate', 'revoke']);
      expect(JSON.stringify(recs).includes(api_key) || JSON.stringify(recs).includes(k2)).toBe(false);
      await o.close();
    });

    it('usage: by endpoint and by day, current cycle by default, or a date range; survives a restart', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, at('2026-04-10T12:00:00Z'))).account.account_id;
      const hit = async (iso: string, endpoint: string, cost: number) => {
        const r = await l.reserve(id, cost, at(iso));
        if (r.ok) await l.commit(r.reservation, { endpoint, request_id: iso + endpoint }, at(iso));
      };
      await hit('2026-04-10T13:00:00Z', 'GET /v1/properties/{uprn}', 1);
      await hit('2026-05-10T11:00:00Z', 'GET /v1/properties/{uprn}', 1); // last hour of cycle 0
      await hit('2026-05-10T12:00:00Z', 'GET /v1/valuations/{uprn}/sale', 3); // first instant of cycle 1
      await hit('2026-05-11T08:00:00Z', 'GET /v1/valuations/{uprn}/sale', 3);
      await hit('2026-05-11T09:00:00Z', 'GET /v1/properties/{uprn}', 1);
      const now = at('2026-05-12T00:00:00Z');
      const expected = {
        from: '2026-05-10',
        to: '2026-06-10',
        total_calls: 3,
        total_credits: 7,
        by_endpoint: [
          { endpoint: 'GET /v1/valuations/{uprn}/sale', calls: 2, credits: 6 },
          { endpoint: 'GET /v1/properties/{uprn}', calls: 1, credits: 1 },
        ],
        by_day: [
          { date: '2026-05-10', calls: 1, credits: 3 },
          { date: '2026-05-11', calls: 2, credits: 4 },
        ],
      };
      expect(await l.usage({ account_id: id }, now)).toEqual(expected);
      const range = await l.usage({ account_id: id, from: '2026-04-01', to: '2026-05-10' }, now);
      expect([range.total_calls, range.total_credits, range.by_day.length]).toEqual([3, 5, 2]);
      const again = await o.reopen();
      expect(await again.usage({ account_id: id }, now)).toEqual(expected);
      await o.close();
    });

    it('a closed ledger refuses changes', async () => {
      const o = await impl.open();
      await o.close();
      await o.close(); // idempotent
      await expect(o.ledger.createAccount({ tier: 'free' }, T0)).rejects.toThrow(/closed/);
    });
  });
}
