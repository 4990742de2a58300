/**
 * The batched hot path (ADR 0013; pg/batcher.ts, migration 007): calls made together go as one
 * batch, each element decided in order exactly as one call alone would be, a failed batch
 * fails every call in it, and batches from several workers over the same accounts in opposite
 * orders never deadlock. Real PostgreSQL on loopback; expectations worked out by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Batcher } from '../../service/ledger/pg/batcher.ts';
import { openPgLedger, pgRateLimiter, type PgLedger } from '../../service/ledger/index.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';

const why = postgresUnavailable();
if (why) console.warn(`PostgreSQL batch tests skipped: ${why}`);

const T0 = new Date('2026-04-01T00:00:00Z');
const meta = (r: string) => ({ endpoint: 'GET /v1/properties/{uprn}', request_id: r });

describe('Batcher', () => {
  it('calls made in one turn go as one batch; calls made while it runs go as the next; answers keep their order', async () => {
    const sent: number[][] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const b = new Batcher<number, number>(async (xs) => {
      sent.push(xs);
      if (sent.length === 1) await gate;
      return xs.map((x) => x * 10);
    }, { inFlight: 1 });
    const first = [1, 2, 3].map((x) => b.submit(x));
    await new Promise((r) => setImmediate(r));
    const second = [4, 5].map((x) => b.submit(x));
    await new Promise((r) => setImmediate(r));
    expect(sent).toEqual([[1, 2, 3]]); // the second waits for the first
    open();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    expect(await Promise.all(second)).toEqual([40, 50]);
    expect(sent).toEqual([[1, 2, 3], [4, 5]]);
  });

  it('a failed batch rejects every call in it, a short answer too; later batches still go', async () => {
    let mode: 'fail' | 'short' | 'ok' = 'fail';
    const b = new Batcher<number, number>(async (xs) => {
      if (mode === 'fail') throw new Error('down');
      return mode === 'short' ? xs.slice(1) : xs;
    });
    const failed = await Promise.allSettled([b.submit(1), b.submit(2)]);
    expect(failed.map((s) => s.status === 'rejected' && (s.reason as Error).message)).toEqual(['down', 'down']);
    mode = 'short';
    const short = await Promise.allSettled([b.submit(1), b.submit(2)]);
    expect(short.map((s) => s.status === 'rejected' && (s.reason as Error).message)).toEqual(['batch of 2 answered 1', 'batch of 2 answered 1']);
    mode = 'ok';
    expect(await Promise.all([b.submit(7), b.submit(8)])).toEqual([7, 8]);
  });

  it('maxBatch splits a queue; inFlight lets that many batches run at once', async () => {
    const sizes: number[] = [];
    let running = 0;
    let most = 0;
    const b = new Batcher<number, number>(
      async (xs) => {
        sizes.push(xs.length);
        most = Math.max(most, ++running);
        await new Promise((r) => setImmediate(r));
        running--;
        return xs;
      },
      { maxBatch: 4, inFlight: 2 },
    );
    expect(await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i)))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([4, 4, 2]);
    expect(most).toBe(2);
  });
});

describe.skipIf(why !== undefined)('PostgreSQL ledger, batched', () => {
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

  it('one batch of rate hits on one key decides each in turn: 3 allowed (2, 1, 0 left), then refused', async () => {
    const limiter = pgRateLimiter({ url: server.url });
    try {
      const rule = { limit: 3, windowMs: 1_000 };
      const all = await Promise.all([0, 100, 200, 300, 400].map((ms) => limiter.hit('key_batch', rule, ms)));
      expect(all.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0], [false, 0]]);
      // The refused ones may retry when the hit at 0 leaves the window: at 1000.
      expect(all[3]!.retryAfterMs).toBe(700);
      expect(all[4]!.retryAfterMs).toBe(600);
      const kept = await ledger.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM rate_hits WHERE key = 'key_batch'");
      expect(kept.rows[0]!.n).toBe(3);
    } finally {
      await limiter.close();
    }
  });

  it('one batch of holds over several accounts: each fits or not as it would alone, an unknown account is told so', async () => {
    const { account: a } = await ledger.createAccount({ tier: 'free' }, T0); // 100 credits
    const { account: b } = await ledger.createAccount({ tier: 'free' }, T0);
    // One hold taken and given back on each first, so both creation instants are cached and
    // the calls below reach the batch in the order they are made.
    for (const id of [a.account_id, b.account_id]) {
      const r = await ledger.reserve(id, 1, T0);
      if (!r.ok) throw new Error('refused');
      await ledger.release(r.reservation);
    }
    const asked: [string, number][] = [
      [a.account_id, 60],
      [b.account_id, 100],
      [a.account_id, 50], // 40 left after the first: refused
      ['acc_nobody', 1],
      [a.account_id, 40], // fits exactly
      [b.account_id, 1], // nothing left
    ];
    const got = await Promise.all(asked.map(([id, cost]) => ledger.reserve(id, cost, T0)));
    expect(got.map((r) => (r.ok ? 'ok' : r.reason === 'credits_exhausted' ? `exhausted ${r.remaining}` : r.reason))).toEqual([
      'ok',
      'ok',
      'exhausted 40',
      'unknown_account',
      'ok',
      'exhausted 0',
    ]);
    // Charged together: each charge in the batch returns the account as it left it.
    const held = got.flatMap((r) => (r.ok ? [r.reservation] : []));
    const after = await Promise.all(held.map((r, i) => ledger.commit(r, meta(`b${i}`), T0)));
    expect(after.map((v) => v && [v.account_id, v.remaining])).toEqual([
      [a.account_id, 40],
      [b.account_id, 0],
      [a.account_id, 0],
    ]);
    // A second commit of the same holds, together: every one refused, nothing charged twice.
    const again = await Promise.allSettled(held.map((r, i) => ledger.commit(r, meta(`b${i}`), T0)));
    expect(again.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const debits = (await ledger.records()).filter((r) => r.t === 'debit' && (r.a === a.account_id || r.a === b.account_id));
    expect(debits.map((d) => d.t === 'debit' && d.c).sort()).toEqual([100, 40, 60].sort());
    expect((await ledger.usage({ account_id: a.account_id }, T0)).total_credits).toBe(100);
  });

  it('two workers charging the same accounts in opposite orders, batch after batch: no deadlock, every credit exactly counted', async () => {
    const other = await openPgLedger({ url: server.url });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push((await ledger.createAccount({ tier: 'starter' }, T0)).account.account_id); // 2,000 each
      const worker = async (l: PgLedger, order: string[], tag: string) => {
        for (let round = 0; round < 20; round++) {
          await Promise.all(
            order.map(async (id, k) => {
              const r = await l.reserve(id, 1, T0);
              if (!r.ok) throw new Error(`refused: ${r.reason}`);
              await l.commit(r.reservation, meta(`${tag}-${round}-${k}`), T0);
            }),
          );
        }
      };
      await Promise.all([worker(ledger, ids, 'x'), worker(other, [...ids].reverse(), 'y')]);
      for (const id of ids) expect((await ledger.account(id, T0))!.used_this_cycle).toBe(40);
    } finally {
      await other.close();
    }
  });
});
