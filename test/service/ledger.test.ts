import { afterAll, describe, expect, it } from 'vitest';
import { LedgerError, openFileLedger, readLogRecords, type FileLedger } from '../../service/ledger/index.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-ledger-');
afterAll(tmp.cleanup);
let n = 0;
const freshDir = () => `${tmp.dir}/l${n++}`;
const T0 = new Date('2026-04-01T00:00:00Z');
const at = (iso: string) => new Date(iso);
const meta = (i: number | string) => ({ endpoint: 'GET /v1/properties/{uprn}', request_id: `req-${i}` });

async function charge(l: FileLedger, account: string, cost: number, now: Date, id: number | string = Math.random()) {
  const r = l.reserve(account, cost, now);
  if (!r.ok) return r;
  await l.commit(r.reservation, meta(id), now);
  return r;
}

describe('credits and plans', () => {
  it('cap: a cost above the remaining balance is refused, holds nothing and charges nothing', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const { account } = await l.createAccount({ tier: 'free' }, T0);
    const id = account.account_id;
    for (let i = 0; i < 19; i++) expect((await charge(l, id, 5, T0, i)).ok).toBe(true);
    expect(l.account(id, T0)?.remaining).toBe(5);
    expect(l.reserve(id, 8, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 5 });
    expect(l.account(id, T0)).toMatchObject({ remaining: 5, used_this_cycle: 95 });
    expect(l.stats().held).toBe(0);
    expect((await charge(l, id, 5, T0, 'last')).ok).toBe(true);
    expect(l.reserve(id, 1, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 0 });
    // Free endpoints (cost 0) still work at the cap, and write nothing.
    const free = l.reserve(id, 0, T0);
    expect(free.ok).toBe(true);
    if (free.ok) await l.commit(free.reservation, meta('free'), T0);
    expect(l.usage({ account_id: id }, T0)).toMatchObject({ total_calls: 20, total_credits: 100 });
    await l.close();
  });

  it('unknown accounts are refused; bad costs are programming errors', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    expect(l.reserve('acc_nope', 1, T0)).toEqual({ ok: false, reason: 'unknown_account' });
    expect(l.account('acc_nope', T0)).toBeUndefined();
    const { account } = await l.createAccount({ tier: 'starter' }, T0);
    expect(() => l.reserve(account.account_id, -1, T0)).toThrow(RangeError);
    expect(() => l.reserve(account.account_id, 1.5, T0)).toThrow(RangeError);
    await expect(l.upgrade('acc_nope', 'pro', T0)).rejects.toMatchObject({ code: 'unknown_account' });
    expect(() => l.usage({ account_id: 'acc_nope' }, T0)).toThrow(LedgerError);
    await l.close();
  });

  it('upgrade recovers at once, with the prorated charge recorded', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir, snapshotOnClose: false });
    const { account } = await l.createAccount({ tier: 'starter', name: 'Acme' }, T0);
    const id = account.account_id;
    expect(account).toMatchObject({ name: 'Acme', tier: 'starter', allowance: 2000, remaining: 2000, pending_tier: null });
    expect(account.rate_limit).toEqual({ limit: 4, windowMs: 10_000 });
    for (let i = 0; i < 40; i++) await charge(l, id, 50, T0, i);
    const mid = at('2026-04-16T00:00:00Z'); // half of a 30-day cycle left
    expect(l.reserve(id, 1, mid)).toMatchObject({ ok: false, reason: 'credits_exhausted' });
    const up = await l.upgrade(id, 'growth', mid);
    expect(up).toMatchObject({ tier: 'growth', allowance: 5000, used_this_cycle: 2000, remaining: 3000 });
    expect((await l.upgrade(id, 'business', mid)).rate_limit).toEqual({ limit: 8, windowMs: 10_000 }); // new rate at once
    expect(up.cycle_start).toBe(account.cycle_start); // the cycle anchor does not move
    expect((await charge(l, id, 3, mid)).ok).toBe(true);
    await expect(l.upgrade(id, 'starter', mid)).rejects.toMatchObject({ code: 'invalid_plan_change' });
    expect(l.account(id, mid)).toMatchObject({ tier: 'business', remaining: 47_997 });
    await expect(l.upgrade(id, 'nonsense' as 'pro', mid)).rejects.toMatchObject({ code: 'invalid_input' });
    await l.close();
    const { records } = await readLogRecords(dir);
    expect(records.filter((r) => r.t === 'upgrade')).toMatchObject([
      { from: 'starter', to: 'growth', charge_gbp: 10, fraction: 0.5 },
      { from: 'growth', to: 'business', charge_gbp: 72, fraction: 0.5 }, // (192 − 48) × 0.5
    ]);
  });

  it('roll-over recovers: credits reset to the allowance, no carry-over, logged once', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir, snapshotOnClose: false });
    const id = (await l.createAccount({ tier: 'starter' }, at('2026-01-31T09:00:00Z'))).account.account_id;
    await charge(l, id, 2000, at('2026-02-01T00:00:00Z'));
    expect(l.reserve(id, 1, at('2026-02-28T08:59:59Z'))).toMatchObject({ ok: false });
    const v = l.account(id, at('2026-02-28T09:00:00Z'))!;
    expect(v).toMatchObject({ remaining: 2000, used_this_cycle: 0, cycle_start: '2026-02-28T09:00:00.000Z', cycle_end: '2026-03-31T09:00:00.000Z' });
    await charge(l, id, 10, at('2026-03-01T00:00:00Z'));
    // Several cycles at once.
    expect(l.account(id, at('2026-07-01T00:00:00Z'))).toMatchObject({ remaining: 2000, cycle_start: '2026-06-30T09:00:00.000Z' });
    await l.close();
    const rolls = (await readLogRecords(dir)).records.filter((r) => r.t === 'rollover');
    expect(rolls.map((r) => r.t === 'rollover' && [r.from_cycle, r.to_cycle])).toEqual([[0, 1], [1, 5]]);
  });

  it('downgrade takes effect at the next renewal only', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const id = (await l.createAccount({ tier: 'pro' }, T0)).account.account_id;
    await charge(l, id, 100, T0);
    const d = await l.downgrade(id, 'starter', at('2026-04-10T00:00:00Z'));
    expect(d).toMatchObject({ tier: 'pro', pending_tier: 'starter', remaining: 14_900, rate_limit: { limit: 6, windowMs: 10_000 } });
    expect(l.account(id, at('2026-04-30T23:59:59Z'))).toMatchObject({ tier: 'pro', pending_tier: 'starter' });
    const after = l.account(id, at('2026-05-01T00:00:00Z'))!;
    expect(after).toMatchObject({ tier: 'starter', pending_tier: null, allowance: 2000, remaining: 2000, rate_limit: { limit: 4, windowMs: 10_000 } });
    await expect(l.downgrade(id, 'pro', at('2026-05-02T00:00:00Z'))).rejects.toMatchObject({ code: 'invalid_plan_change' });
    await l.close();
  });

  it('free: 100 credits once, never renewed', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const id = (await l.createAccount({ tier: 'free' }, T0)).account.account_id;
    await charge(l, id, 100, T0);
    for (const month of ['2026-05-02', '2026-09-02', '2027-04-02']) {
      const v = l.account(id, at(`${month}T00:00:00Z`))!;
      expect(v).toMatchObject({ remaining: 0, allowance: 100, used_this_cycle: 0 });
      expect(l.reserve(id, 1, at(`${month}T00:00:00Z`))).toMatchObject({ ok: false, reason: 'credits_exhausted' });
    }
    expect(l.account(id, T0)?.rate_limit).toEqual({ limit: 2, windowMs: 1000 });
    await l.close();
  });

  it('enterprise: unlimited, with the account rate limit or the default', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const e1 = (await l.createAccount({ tier: 'enterprise', rateLimit: { limit: 500, windowMs: 10_000 } }, T0)).account;
    const e2 = (await l.createAccount({ tier: 'enterprise' }, T0)).account;
    expect(e1).toMatchObject({ allowance: null, remaining: null, rate_limit: { limit: 500, windowMs: 10_000 } });
    expect(e2.rate_limit).toEqual({ limit: 50, windowMs: 10_000 });
    expect((await charge(l, e1.account_id, 1_000_000, T0)).ok).toBe(true);
    expect(l.account(e1.account_id, T0)).toMatchObject({ remaining: null, used_this_cycle: 1_000_000 });
    await expect(l.createAccount({ tier: 'pro', rateLimit: { limit: 5, windowMs: 1000 } }, T0)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(l.createAccount({ tier: 'enterprise', rateLimit: { limit: 0, windowMs: 1000 } }, T0)).rejects.toMatchObject({ code: 'invalid_input' });
    await l.close();
  });
});

describe('reservations', () => {
  it('concurrent reservations never exceed the balance, whatever the interleaving', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const id = (await l.createAccount({ tier: 'free' }, T0)).account.account_id;
    // 60 requests of cost 3 race: 33 fit in 100 (99 credits); the rest are refused.
    const results = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const r = l.reserve(id, 3, T0);
        if (!r.ok) return 'refused';
        await new Promise((res) => setTimeout(res, (i * 7) % 5)); // handlers finish out of order
        if (i % 10 === 0) {
          l.release(r.reservation); // a non-2xx response gives its credits back
          return 'released';
        }
        await l.commit(r.reservation, meta(i), T0);
        return 'charged';
      }),
    );
    const charged = results.filter((x) => x === 'charged').length;
    expect(results.filter((x) => x !== 'refused').length).toBe(33);
    expect(l.account(id, T0)?.remaining).toBe(100 - 3 * charged);
    expect(l.stats().held).toBe(0);
    // Released credits are available again.
    expect(l.reserve(id, 100 - 3 * charged, T0).ok).toBe(true);
    await l.close();
  });

  it('a reservation is charged at most once; release is idempotent', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
    const r = l.reserve(id, 2, T0);
    if (!r.ok) throw new Error('reserve failed');
    await l.commit(r.reservation, meta(1), T0);
    await expect(l.commit(r.reservation, meta(1), T0)).rejects.toThrow(/already committed or released/);
    l.release(r.reservation); // after a commit, a release gives nothing back
    expect(l.account(id, T0)?.used_this_cycle).toBe(2);
    const r2 = l.reserve(id, 5, T0);
    if (!r2.ok) throw new Error('reserve failed');
    l.release(r2.reservation);
    l.release(r2.reservation);
    expect(l.stats().held).toBe(0);
    await expect(l.commit(r2.reservation, meta(2), T0)).rejects.toThrow(/already committed or released/);
    expect(l.account(id, T0)?.remaining).toBe(1998);
    await l.close();
  });
});

describe('keys', () => {
  it('authenticates by hash, revokes and rotates; the key itself is never stored', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir });
    const { account, api_key } = await l.createAccount({ tier: 'growth' }, T0);
    expect(api_key).toMatch(/^pi_live_[A-Za-z0-9_-]{43}$/);
    const p = l.authenticate(api_key);
    expect(p?.account_id).toBe(account.account_id);
    expect(l.authenticate(api_key.slice(0, -1) + (api_key.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    expect(l.authenticate('')).toBeUndefined();
    expect(l.authenticate('x'.repeat(10_000))).toBeUndefined();
    const { api_key: k2 } = await l.rotateKey(account.account_id, T0);
    expect(l.authenticate(api_key)).toBeUndefined();
    expect(l.authenticate(k2)?.account_id).toBe(account.account_id);
    expect(l.authenticate(k2)?.key_id).not.toBe(p?.key_id);
    await l.revokeKey(account.account_id, T0);
    expect(l.authenticate(k2)).toBeUndefined();
    await l.revokeKey(account.account_id, T0); // nothing left to revoke: no-op
    await l.close();
    const { readdir, readFile } = await import('node:fs/promises');
    for (const f of await readdir(dir)) {
      const text = (await readFile(`${dir}/${f}`)).toString('latin1');
      expect(text.includes(api_key) || text.includes(k2)).toBe(false);
    }
    const again = await openFileLedger({ dir });
    expect(again.authenticate(api_key)).toBeUndefined();
    expect(again.authenticate(k2)).toBeUndefined();
    await again.close();
  });
});

describe('persistence', () => {
  async function scenario(l: FileLedger) {
    const a = (await l.createAccount({ tier: 'starter', name: 'A' }, T0)).account.account_id;
    const b = (await l.createAccount({ tier: 'free', name: 'B' }, T0)).account.account_id;
    const keys: string[] = [];
    for (let i = 0; i < 30; i++) {
      const now = new Date(T0.getTime() + i * 3 * 86_400_000); // spans three cycles
      await charge(l, a, 1 + (i % 4), now, `a${i}`);
      await charge(l, b, 7, now, `b${i}`);
      if (i === 10) await l.upgrade(a, 'pro', now);
      if (i === 20) await l.downgrade(a, 'growth', now);
      if (i === 25) keys.push((await l.rotateKey(b, now)).api_key);
    }
    return { a, b, keys };
  }
  const END = new Date('2026-07-05T00:00:00Z');

  it('reopening replays the log to the same state; snapshot + replay equals full replay', async () => {
    const full = freshDir();
    const snap = freshDir();
    const l1 = await openFileLedger({ dir: full, snapshotOnClose: false });
    const l2 = await openFileLedger({ dir: snap, snapshotEvery: 7 }); // many snapshots and segments
    const s1 = await scenario(l1);
    const s2 = await scenario(l2);
    await l2.snapshot();
    const before1 = l1.listAccounts(END).map((v) => ({ ...v, account_id: '' }));
    await l1.close();
    await l2.close();
    const r1 = await openFileLedger({ dir: full });
    const r2 = await openFileLedger({ dir: snap });
    expect(r1.opened.snapshotSegment).toBeNull();
    expect(r1.opened.recordsReplayed).toBeGreaterThan(50);
    expect(r2.opened.snapshotSegment).not.toBeNull();
    expect(r2.opened.recordsReplayed).toBe(0);
    const strip = (l: FileLedger) => l.listAccounts(END).map((v) => ({ ...v, account_id: '' }));
    expect(strip(r1)).toEqual(before1);
    expect(strip(r2)).toEqual(strip(r1));
    for (const [l, s] of [[r1, s1], [r2, s2]] as const) {
      expect(l.authenticate(s.keys[0]!)?.account_id).toBe(s.b);
      const u = l.usage({ account_id: s.a, from: '2026-04-01', to: '2026-12-31' }, END);
      expect(u.total_calls).toBe(30);
      expect(u.total_credits).toBe(Array.from({ length: 30 }, (_, i) => 1 + (i % 4)).reduce((x, y) => x + y));
    }
    expect(r2.usage({ account_id: s2.a }, END)).toEqual(r1.usage({ account_id: s1.a }, END));
    await r1.close();
    await r2.close();
  });

  it('compaction: after snapshots only the live segment remains', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir, snapshotEvery: 5 });
    await scenario(l);
    await l.close();
    const { readdir } = await import('node:fs/promises');
    const segs = (await readdir(dir)).filter((f) => f.endsWith('.seg'));
    expect(segs).toHaveLength(1);
    expect((await readLogRecords(dir)).records).toHaveLength(0);
  });

  it('usage: by endpoint and by day, current cycle by default, or a date range', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    const id = (await l.createAccount({ tier: 'starter' }, at('2026-04-10T12:00:00Z'))).account.account_id;
    const hit = async (iso: string, endpoint: string, cost: number) => {
      const r = l.reserve(id, cost, at(iso));
      if (r.ok) await l.commit(r.reservation, { endpoint, request_id: iso + endpoint }, at(iso));
    };
    await hit('2026-04-10T13:00:00Z', 'GET /v1/properties/{uprn}', 1);
    await hit('2026-05-10T11:00:00Z', 'GET /v1/properties/{uprn}', 1); // last hour of cycle 0
    await hit('2026-05-10T12:00:00Z', 'GET /v1/valuations/{uprn}/sale', 3); // first instant of cycle 1
    await hit('2026-05-11T08:00:00Z', 'GET /v1/valuations/{uprn}/sale', 3);
    await hit('2026-05-11T09:00:00Z', 'GET /v1/properties/{uprn}', 1);
    const now = at('2026-05-12T00:00:00Z');
    expect(l.usage({ account_id: id }, now)).toEqual({
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
    });
    const range = l.usage({ account_id: id, from: '2026-04-01', to: '2026-05-10' }, now);
    expect([range.total_calls, range.total_credits, range.by_day.length]).toEqual([3, 5, 2]);
    await l.close();
  });

  it('group commit: concurrent commits share fsyncs and all become durable', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir, snapshotOnClose: false });
    const id = (await l.createAccount({ tier: 'enterprise' }, T0)).account.account_id;
    const before = l.stats().fsyncs;
    await Promise.all(Array.from({ length: 200 }, (_, i) => charge(l, id, 1, T0, i)));
    const used = l.stats().fsyncs - before;
    expect(used).toBeLessThan(200);
    await l.close();
    const debits = (await readLogRecords(dir)).records.filter((r) => r.t === 'debit');
    expect(new Set(debits.map((r) => r.t === 'debit' && r.r)).size).toBe(200);
  });

  it('a closed ledger refuses changes', async () => {
    const l = await openFileLedger({ dir: freshDir() });
    await l.close();
    await l.close(); // idempotent
    await expect(l.createAccount({ tier: 'free' }, T0)).rejects.toThrow(/closed/);
  });
});
