/**
 * The PostgreSQL hot path of migration 004 (ADR 0007) on a real server: the rate window's
 * answers by hand, a key and its account in one call, the charge returning the balance, a
 * hold that writes no WAL (so it commits without a flush), and the crash argument itself: a
 * hold lost in a PostgreSQL crash refuses its charge, charges nothing and frees its credits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LedgerUnavailableError, openPgLedger, pgRateLimiter, type PgLedger } from '../../service/ledger/index.ts';
import { migrations } from '../../service/ledger/pg/migrate.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';
import pg from 'pg';

const why = postgresUnavailable();
if (why) console.warn(`PostgreSQL hot path tests skipped: ${why}`);

const T0 = new Date('2026-04-01T00:00:00Z');
const meta = { endpoint: 'GET /v1/properties/{uprn}', request_id: 'req-1' };

describe.skipIf(why !== undefined)('PostgreSQL ledger hot path', () => {
  let server: PgServer;
  let ledger: PgLedger;
  beforeAll(async () => {
    server = await startPostgres();
    ledger = await openPgLedger({ url: server.url });
  }, 60_000);
  afterAll(async () => {
    await ledger?.close();
    await server?.stop();
  });

  it('the rate window decides as worked out by hand: allowed, refused, expired, a shrunk limit, a time far ahead', async () => {
    const limiter = pgRateLimiter({ url: server.url });
    const rule = { limit: 3, windowMs: 1_000 };
    const hit = (ms: number, r = rule) => limiter.hit('key_window', r, ms);
    // Three in the window: remaining 2, 1, 0; reset when the oldest (t=0) leaves: 1000 - now.
    expect(await hit(0)).toEqual({ allowed: true, limit: 3, windowMs: 1000, remaining: 2, resetMs: 1000, retryAfterMs: 0 });
    expect(await hit(100)).toMatchObject({ allowed: true, remaining: 1, resetMs: 900 });
    expect(await hit(200)).toMatchObject({ allowed: true, remaining: 0, resetMs: 800 });
    // The fourth is refused and not recorded; it may retry when t=0 leaves, at 1000.
    expect(await hit(300)).toEqual({ allowed: false, limit: 3, windowMs: 1000, remaining: 0, resetMs: 700, retryAfterMs: 700 });
    // At 1000 the request at 0 has left ((now - window, now]): 100, 200, 1000 count.
    expect(await hit(1000)).toMatchObject({ allowed: true, remaining: 0, resetMs: 100 });
    // …and is deleted, so the table keeps only what a window can still count.
    const kept = await ledger.pool.query<{ at_ms: string }>("SELECT at_ms FROM rate_hits WHERE key = 'key_window' ORDER BY at_ms");
    expect(kept.rows.map((r) => Number(r.at_ms))).toEqual([100, 200, 1000]);
    // A smaller limit counts only the newest 2 (1000 and 200): refused until 200 leaves.
    expect(await hit(1050, { limit: 2, windowMs: 1_000 })).toMatchObject({ allowed: false, limit: 2, remaining: 0, retryAfterMs: 150 });
    // A time more than a window ahead of a request (another replica's clock far off) does not count for it.
    const other = (ms: number) => limiter.hit('key_ahead', rule, ms);
    expect(await other(10_000)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await other(5_000)).toMatchObject({ allowed: true, remaining: 2, resetMs: 1000 });
    await limiter.close();
  });

  it('authenticateAccount: the key and its account in one call, renewed when due; unknown and revoked keys find nothing', async () => {
    const { account, api_key } = await ledger.createAccount({ tier: 'starter' }, T0);
    for (let i = 0; i < 3; i++) {
      const r = await ledger.reserve(account.account_id, 50, T0);
      if (!r.ok) throw new Error('refused');
      await ledger.commit(r.reservation, meta, T0);
    }
    const found = await ledger.authenticateAccount(api_key, T0);
    expect(found?.principal).toEqual(await ledger.authenticate(api_key));
    expect(found?.account).toMatchObject({ account_id: account.account_id, remaining: 1850, used_this_cycle: 150 });
    // A month on (cycles are 30 days from creation): renewed, as `account` would show it.
    const later = new Date('2026-05-02T00:00:00Z');
    expect((await ledger.authenticateAccount(api_key, later))?.account).toMatchObject({ remaining: 2000, used_this_cycle: 0 });
    expect((await ledger.records()).filter((r) => r.t === 'rollover' && r.a === account.account_id)).toHaveLength(1);
    expect(await ledger.authenticateAccount('pk_nope_0000000000', T0)).toBeUndefined();
    await ledger.rotateKey(account.account_id, later);
    expect(await ledger.authenticateAccount(api_key, later)).toBeUndefined();
  });

  it('a charge returns the account as it left it; refused charges return nothing and change nothing', async () => {
    const { account } = await ledger.createAccount({ tier: 'free' }, T0);
    const id = account.account_id;
    const r = await ledger.reserve(id, 30, T0);
    if (!r.ok) throw new Error('refused');
    const after = await ledger.commit(r.reservation, meta, T0);
    expect(after).toMatchObject({ account_id: id, remaining: 70, used_this_cycle: 30 });
    expect(after).toEqual(await ledger.account(id, T0));
    // Charged once: a second commit of the same hold is refused, and the balance stays.
    await expect(ledger.commit(r.reservation, meta, T0)).rejects.toThrow(LedgerUnavailableError);
    expect(await ledger.reserve(id, 71, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 70 });
    expect(await ledger.account(id, T0)).toMatchObject({ remaining: 70, used_this_cycle: 30 });
  });

  it('taking a hold writes no WAL, so its commit waits for no flush (a charge does write)', async () => {
    const { account } = await ledger.createAccount({ tier: 'pro' }, T0);
    const c = await ledger.pool.connect();
    const walGrowth = async (sql: string, params: unknown[]): Promise<number> => {
      await c.query('BEGIN');
      const [a] = (await c.query<{ l: string }>('SELECT pg_current_wal_insert_lsn() AS l')).rows;
      await c.query(sql, params);
      const [b] = (await c.query<{ d: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS d', [a!.l])).rows;
      await c.query('COMMIT');
      return Number(b!.d);
    };
    try {
      // Background processes write WAL now and then (a standby snapshot): a hold that wrote
      // none shows zero growth in at least one of a few tries; one that wrote some never does.
      const holds: number[] = [];
      for (let i = 0; i < 5 && !holds.includes(0); i++) holds.push(await walGrowth('SELECT * FROM ledger_hold($1, 1, 0, 120)', [account.account_id]));
      expect(holds).toContain(0);
      const [hold] = (await c.query<{ id: string }>('SELECT hold AS id FROM reservations WHERE account_id = $1 LIMIT 1', [account.account_id])).rows;
      const at = T0.toISOString();
      const rec = JSON.stringify({ t: 'debit', a: account.account_id, c: 1, e: meta.endpoint, r: 'wal', at });
      expect(await walGrowth('SELECT * FROM ledger_charge($1, $2, 0, 1, $3, $4, $5, $6)', [hold!.id, account.account_id, meta.endpoint, at.slice(0, 10), at, rec])).toBeGreaterThan(0);
    } finally {
      c.release();
    }
  });

  it('a PostgreSQL crash between the hold and the charge: the charge is refused, nothing is charged, the credits are free again', async () => {
    const { account } = await ledger.createAccount({ tier: 'free' }, T0);
    const id = account.account_id;
    const r = await ledger.reserve(id, 60, T0);
    if (!r.ok) throw new Error('refused');
    expect(await ledger.reserve(id, 41, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 40 });
    await server.crash();
    // The first calls may meet connections the crash broke (also refused); then the charge
    // reaches the server and finds its hold gone with the UNLOGGED table.
    let err: unknown;
    for (let i = 0; i < 20; i++) {
      err = await ledger.commit(r.reservation, meta, T0).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!(err instanceof LedgerUnavailableError) || /already committed or released/.test(err.message)) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect((err as Error).message).toMatch(/already committed or released/);
    expect(await ledger.account(id, T0)).toMatchObject({ remaining: 100, used_this_cycle: 0 });
    expect((await ledger.records()).filter((x) => x.t === 'debit' && x.a === id)).toHaveLength(0);
    // The lost hold no longer counts: the whole balance can be held and charged, and no more.
    const all = await ledger.reserve(id, 100, T0);
    if (!all.ok) throw new Error(`refused: ${all.reason}`);
    expect(await ledger.commit(all.reservation, meta, T0)).toMatchObject({ remaining: 0, used_this_cycle: 100 });
    expect(await ledger.reserve(id, 1, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 0 });
  }, 60_000);

  it('a hold id is never reused after a crash: a charge from before it cannot take a new hold, nor spend past the balance', async () => {
    const x = (await ledger.createAccount({ tier: 'free' }, T0)).account.account_id;
    const y = (await ledger.createAccount({ tier: 'pro' }, T0)).account.account_id;
    const before = await ledger.reserve(x, 60, T0);
    if (!before.ok) throw new Error('refused');
    await server.crash();
    const reserve = async (id: string, cost: number) => {
      for (let i = 0; ; i++) {
        const r = await ledger.reserve(id, cost, T0);
        if (r.ok || r.reason !== 'unavailable' || i === 20) return r;
        await new Promise((res) => setTimeout(res, 100)); // connections the crash broke
      }
    };
    // Enough new holds on another account to pass any id the holds before the crash had.
    const others = [];
    for (let i = 0; i < 60; i++) others.push(await reserve(y, 1));
    expect(others.every((r) => r.ok)).toBe(true);
    const all = await reserve(x, 100);
    if (!all.ok) throw new Error(`refused: ${all.reason}`);
    await expect(ledger.commit(before.reservation, meta, T0)).rejects.toThrow(/already committed or released/);
    expect((await ledger.pool.query('SELECT count(*)::int AS n FROM reservations WHERE account_id = $1', [y])).rows[0].n).toBe(60);
    expect(await ledger.commit(all.reservation, meta, T0)).toMatchObject({ remaining: 0, used_this_cycle: 100 });
  }, 60_000);

  it('a ledger at schema 3 with holds in flight moves to 4 at open: the calls of the previous code still settle its holds, the new code charges its own', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE v3');
    await admin.end();
    const url = server.url.replace(/\/pi$/, '/v3');
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const m of migrations().filter((m) => m.version <= 3)) {
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
    await c.query(
      `INSERT INTO accounts (id, name, created_at, rate_limit, tier, cycle, grant_credits, spent, used, pending_tier, free_granted)
       VALUES ('acc_v3', 'v3', $1, NULL, 'free', 0, 100, 0, 0, NULL, true)`,
      [T0],
    );
    // Two holds taken by the previous code's function (row lock version); the balance counts
    // charges only (holds limit what can be reserved).
    const hold = async () => (await c.query<{ reservation_id: string }>("SELECT reservation_id FROM ledger_reserve('acc_v3', 10, 0, 120)")).rows[0]!.reservation_id;
    const [h1, h2] = [await hold(), await hold()];
    const l = await openPgLedger({ url });
    try {
      // Every migration after 3 applied (4, and any later: 006 idempotency keys, 007 the batched hot path).
      const applied = (await c.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version);
      expect(applied).toEqual(migrations().map((m) => m.version));
      expect(applied).toContain(4);
      const at = T0.toISOString();
      const rec = JSON.stringify({ t: 'debit', a: 'acc_v3', c: 10, e: meta.endpoint, r: 'old', at });
      const debit = async (id: string) =>
        (await c.query<{ outcome: string }>('SELECT ledger_debit($1, $2, 0, 10, $3, $4, $5, $6) AS outcome', [id, 'acc_v3', meta.endpoint, at.slice(0, 10), at, rec])).rows[0]!.outcome;
      expect(await debit(h1)).toBe('ok');
      expect(await debit(h1)).toBe('settled');
      // The previous code's release (reservation_take by id) of its other hold.
      expect((await c.query('DELETE FROM reservations WHERE id = $1', [h2])).rowCount).toBe(1);
      // A hold taken by the previous code's call after the move, charged by it too.
      expect(await debit(await hold())).toBe('ok');
      const r = await l.reserve('acc_v3', 30, T0);
      if (!r.ok) throw new Error(`refused: ${r.reason}`);
      expect(await l.commit(r.reservation, meta, T0)).toMatchObject({ remaining: 50, used_this_cycle: 50 });
      expect(await l.reserve('acc_v3', 51, T0)).toEqual({ ok: false, reason: 'credits_exhausted', remaining: 50 });
    } finally {
      await l.close();
      await c.end();
    }
  });
});
