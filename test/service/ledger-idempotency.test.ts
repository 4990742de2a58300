/**
 * Idempotency keys in both ledgers (issue 45): claim, keep with the charge, replay after a
 * restart (file: from the log and from a snapshot; PostgreSQL: from its table), mismatch,
 * in flight, release, the 24 h retention; and for PostgreSQL, a claim held across replicas
 * that expires when the replica holding it dies.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { LEDGER_RETRY_MS, openFileLedger, openPgLedger, type Ledger } from '../../service/ledger/index.ts';
import { LedgerUnavailableError } from '../../service/ledger/errors.ts';
import type { IdempotentAnswer } from '../../service/ledger/types.ts';
import { fileImpl, pgImpl, type LedgerImpl } from '../support/ledgers.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';

const T0 = new Date('2026-04-01T00:00:00Z');
const DAY = 24 * 3_600_000;
const answer = (fp: string, body = '{"ok":1}'): IdempotentAnswer => ({
  fingerprint: fp,
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-build-id': 'b1' },
  body,
  created_at: T0.toISOString(),
});

/** Claims `key`, charges `cost` keeping `ans`, as the middleware does. */
async function chargeKept(l: Ledger, account: string, key: string, ans: IdempotentAnswer, cost = 4, now = T0): Promise<void> {
  expect(await l.claimIdempotency(account, key, ans.fingerprint, now)).toEqual({ kind: 'claimed' });
  const r = await l.reserve(account, cost, now);
  if (!r.ok) throw new Error(`reserve: ${r.reason}`);
  await l.commit(r.reservation, { endpoint: 'GET /v1/risks/{uprn}', request_id: `req-${key}`, idempotency_key: key }, now, ans);
}

for (const impl of [fileImpl(), pgImpl()] as LedgerImpl[]) {
  if (impl.unavailable) console.warn(`ledger idempotency suite: ${impl.name} skipped: ${impl.unavailable}`);
  describe.skipIf(impl.unavailable !== undefined)(`idempotency keys (${impl.name})`, () => {
    beforeAll(() => impl.setup(), 60_000);
    afterAll(() => impl.teardown());

    it('a kept answer replays after a restart; another fingerprint is a mismatch; the charge is made once', async () => {
      const o = await impl.open();
      const id = (await o.ledger.createAccount({ tier: 'starter' }, T0)).account.account_id;
      const kept = answer('fp-a', '{"risk":"low","n":7}');
      await chargeKept(o.ledger, id, 'k1', kept);
      const l = await o.reopen();
      expect(await l.claimIdempotency(id, 'k1', 'fp-a', new Date(T0.getTime() + 1_000))).toEqual({ kind: 'replay', answer: kept });
      expect(await l.claimIdempotency(id, 'k1', 'fp-b', T0)).toEqual({ kind: 'mismatch' });
      expect((await l.account(id, T0))!.remaining).toBe(2_000 - 4);
      const debits = (await o.records()).filter((r) => r.t === 'debit');
      expect(debits).toHaveLength(1);
      await o.close();
    });

    it('a running claim is in flight for the same request and a mismatch for another; released, it can be claimed again', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      expect(await l.claimIdempotency(id, 'k2', 'fp', T0)).toEqual({ kind: 'claimed' });
      expect(await l.claimIdempotency(id, 'k2', 'fp', T0)).toEqual({ kind: 'in_flight' });
      expect(await l.claimIdempotency(id, 'k2', 'other', T0)).toEqual({ kind: 'mismatch' });
      await l.releaseIdempotency(id, 'k2');
      expect(await l.claimIdempotency(id, 'k2', 'other', T0)).toEqual({ kind: 'claimed' });
      await o.close();
    });

    it('keys are per account, and kept answers expire after 24 hours', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const a = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      const b = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      await chargeKept(l, a, 'same', answer('fp-a'));
      expect(await l.claimIdempotency(b, 'same', 'fp-b', T0)).toEqual({ kind: 'claimed' });
      expect((await l.claimIdempotency(a, 'same', 'fp-a', new Date(T0.getTime() + DAY - 1))).kind).toBe('replay');
      expect(await l.claimIdempotency(a, 'same', 'fp-a', new Date(T0.getTime() + DAY))).toEqual({ kind: 'claimed' });
      await o.close();
    });

    it('a charge without an answer keeps nothing', async () => {
      const o = await impl.open();
      const l = o.ledger;
      const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
      expect(await l.claimIdempotency(id, 'k3', 'fp', T0)).toEqual({ kind: 'claimed' });
      const r = await l.reserve(id, 1, T0);
      if (!r.ok) throw new Error('reserve');
      await l.commit(r.reservation, { endpoint: 'e', request_id: 'r' }, T0);
      await l.releaseIdempotency(id, 'k3');
      expect(await l.claimIdempotency(id, 'k3', 'fp', T0)).toEqual({ kind: 'claimed' });
      await o.close();
    });
  });
}

describe('idempotency keys (file): kept in snapshots, dropped from them after the retention', () => {
  const tmp = tempDir('pi-idem-snap-');
  afterAll(tmp.cleanup);
  it('a snapshot keeps the answers; one past 24 h is gone after later charges', async () => {
    const dir = `${tmp.dir}/l`;
    let l = await openFileLedger({ dir });
    const id = (await l.createAccount({ tier: 'enterprise' }, T0)).account.account_id;
    await chargeKept(l, id, 'old', answer('fp-old'));
    await l.close(); // snapshot on close
    l = await openFileLedger({ dir });
    expect(l.opened.recordsReplayed).toBe(0);
    expect((l.claimIdempotency(id, 'old', 'fp-old', T0) as { kind: string }).kind).toBe('replay');
    const later = new Date(T0.getTime() + DAY + 1);
    await chargeKept(l, id, 'new', { ...answer('fp-new'), created_at: later.toISOString() }, 1, later);
    await l.snapshot();
    await l.close();
    l = await openFileLedger({ dir });
    expect(l.claimIdempotency(id, 'old', 'fp-old', T0)).toEqual({ kind: 'claimed' }); // dropped, even judged at T0
    expect(l.claimIdempotency(id, 'new', 'fp-new', later).kind).toBe('replay');
    await l.close();
  });
});

describe('idempotency keys (file): a write failure', () => {
  const tmp = tempDir('pi-idem-fail-');
  afterAll(tmp.cleanup);
  it('an answer whose charge failed to become durable is never replayed, before or after recovery', async () => {
    const dir = `${tmp.dir}/l`;
    const l = await openFileLedger({ dir });
    const id = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
    mkdirSync(join(dir, 'snapshot.bin.tmp')); // the snapshot's temp file cannot be created
    const snap = l.snapshot();
    // Queued behind the failing rotation: applied in memory at once, never made durable.
    expect(l.claimIdempotency(id, 'k', 'fp', T0)).toEqual({ kind: 'claimed' });
    const r = l.reserve(id, 4, T0);
    if (!r.ok) throw new Error('reserve');
    const charged = l.commit(r.reservation, { endpoint: 'e', request_id: 'r', idempotency_key: 'k' }, T0, answer('fp'));
    await expect(snap).rejects.toThrow(/EISDIR/);
    await expect(charged).rejects.toBeInstanceOf(LedgerUnavailableError);
    l.releaseIdempotency(id, 'k'); // as the middleware does when the commit fails
    expect(() => l.claimIdempotency(id, 'k', 'fp', T0)).toThrow(LedgerUnavailableError);
    rmSync(join(dir, 'snapshot.bin.tmp'), { recursive: true });
    await new Promise((res) => setTimeout(res, LEDGER_RETRY_MS + 20));
    await vi.waitFor(() => expect(l.health().writable).toBe(true), { timeout: 5000, interval: 20 });
    expect(l.claimIdempotency(id, 'k', 'fp', T0)).toEqual({ kind: 'claimed' }); // reloaded from disk: nothing kept
    expect(l.account(id, T0)!.remaining).toBe(2_000);
    await l.close();
  });
});

const why = postgresUnavailable();
describe.skipIf(why !== undefined)('idempotency keys (postgres): one claim across replicas', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 60_000);
  afterAll(() => server?.stop());

  it('a claim made on one replica holds on another; a dead replica\'s claim expires; a charge whose claim was taken over is refused', async () => {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE idem_replicas');
    await admin.end();
    const url = server.url.replace(/\/pi$/, '/idem_replicas');
    const one = await openPgLedger({ url, idempotencyClaimTtlS: 1 });
    const two = await openPgLedger({ url, idempotencyClaimTtlS: 1 });
    const id = (await one.createAccount({ tier: 'starter' }, T0)).account.account_id;
    expect(await one.claimIdempotency(id, 'k', 'fp', T0)).toEqual({ kind: 'claimed' });
    expect(await two.claimIdempotency(id, 'k', 'fp', T0)).toEqual({ kind: 'in_flight' });
    expect(await two.claimIdempotency(id, 'k', 'xx', T0)).toEqual({ kind: 'mismatch' });
    // Replica one stalls past the claim's expiry (as if dead): replica two takes the key over.
    const hold = await one.reserve(id, 4, T0);
    if (!hold.ok) throw new Error('reserve');
    let taken = await two.claimIdempotency(id, 'k', 'fp', T0);
    const end = Date.now() + 30_000;
    while (taken.kind === 'in_flight' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 100));
      taken = await two.claimIdempotency(id, 'k', 'fp', T0);
    }
    expect(taken).toEqual({ kind: 'claimed' });
    // The stalled request's charge cannot keep its answer any more: refused, nothing charged.
    await expect(one.commit(hold.reservation, { endpoint: 'e', request_id: 'r1', idempotency_key: 'k' }, T0, answer('fp'))).rejects.toThrow(/expired/);
    expect((await two.account(id, T0))!.remaining).toBe(2_000);
    // The replica that holds it now charges and keeps; both replicas replay it.
    const r = await two.reserve(id, 4, T0);
    if (!r.ok) throw new Error('reserve');
    await two.commit(r.reservation, { endpoint: 'e', request_id: 'r2', idempotency_key: 'k' }, T0, answer('fp', '{"x":2}'));
    for (const l of [one, two]) expect(await l.claimIdempotency(id, 'k', 'fp', T0)).toMatchObject({ kind: 'replay', answer: { body: '{"x":2}', status: 200 } });
    expect((await two.account(id, T0))!.remaining).toBe(2_000 - 4);
    await one.close();
    await two.close();
  });
});
