/**
 * Exactness across replicas: three servers (each its own Koa app, PostgreSQL ledger pool and
 * rate-limiter pool, on its own port) share one real PostgreSQL, and requests are spread
 * over them round-robin, all at once.
 *  - credits: 200 simultaneous calls against a balance of exactly 37 calls: 37 served,
 *    163 × 402, and the ledger (balance, usage, debit records) agrees;
 *  - the window: with the clock held still, a key gets exactly its limit from any mix of
 *    replicas, never one more, and exactly its limit again once the window has slid.
 * The clock is the test's (as in credits.test.ts), so nothing depends on this machine's speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../service/app.ts';
import { loadConfig } from '../../service/config.ts';
import { PLANS } from '../../schemas/plans.ts';
import { openPgLedger, pgRateLimiter, type PgLedger, type PgRateLimiter } from '../../service/ledger/index.ts';
import { createLogger } from '../../service/log.ts';
import { fileDataSource } from '../../service/build/source.ts';
import { startBuildWarmer } from '../../service/build/warmer.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { closeGracefully, createHttpServer, listen } from '../../service/server.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';
import { tempDir } from '../support/tmp.ts';
import { routesAnswering200, validCall } from './requests.ts';
import { call, postJson, TestClock, type Reply } from './support.ts';

const why = postgresUnavailable();
if (why) console.warn(`replica exactness test skipped: ${why}`);

const STR = V1_ROUTES.find((r) => r.operationId === 'estimateShortTermLet')!; // 50 credits
const SEARCH = V1_ROUTES.find((r) => r.operationId === 'searchAddresses')!; // 1 credit

interface Replica {
  base: string;
  /** Answers this replica's own server finished with 200, counted where it answers them. */
  served: () => number;
  ledger: PgLedger;
  limiter: PgRateLimiter;
  stop(): Promise<void>;
}

async function startReplica(url: string, clock: TestClock, dataDir: string): Promise<Replica> {
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LEDGER_URL: url, LOG_LEVEL: 'silent' });
  const ledger = await openPgLedger({ url, clock: clock.now });
  const limiter = pgRateLimiter({ url });
  const logger = createLogger('silent');
  const builds = startBuildWarmer(fileDataSource(dataDir), logger);
  const { koa } = buildApp({ config, ledger, limiter, clock: clock.now, builds, logger, routes: routesAnswering200(V1_ROUTES) });
  const handle = koa.callback();
  let served = 0;
  const server = createHttpServer((req, res) => {
    res.on('finish', () => { if (res.statusCode === 200) served++; });
    return handle(req, res);
  }, config);
  const port = await listen(server, 0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${port}`,
    served: () => served,
    ledger,
    limiter,
    stop: async () => {
      await closeGracefully(server, 1_000);
      await builds.close();
      await limiter.close();
      await ledger.close();
    },
  };
}

function hit(base: string, route: (typeof V1_ROUTES)[number], key: string): Promise<Reply> {
  const { path, body } = validCall(route);
  return route.method === 'POST' ? postJson(base, path, key, body) : call(base, 'GET', path, { key });
}

const tally = (replies: Reply[]) => {
  const m: Record<number, number> = {};
  for (const r of replies) m[r.status] = (m[r.status] ?? 0) + 1;
  return m;
};

describe.skipIf(why !== undefined)('three replicas sharing one PostgreSQL ledger and limiter', () => {
  let pg: PgServer;
  const replicas: Replica[] = [];
  const clock = new TestClock();
  const tmp = tempDir('pi-replicas-');
  beforeAll(async () => {
    pg = await startPostgres();
    for (let i = 0; i < 3; i++) replicas.push(await startReplica(pg.url, clock, tmp.dir));
  }, 120_000);
  afterAll(async () => {
    for (const r of replicas) await r.stop();
    await pg?.stop();
    tmp.cleanup();
  });

  it('200 simultaneous calls over 3 replicas against a balance of 37 calls: exactly 37 served, 163 × 402, the ledger agrees', async () => {
    clock.tickMs = 10_001; // requests a window apart on the test's clock: Starter's 4 per 10 s never refuses
    const l = replicas[0]!.ledger;
    const { account, api_key } = await l.createAccount({ tier: 'starter', name: 'exact' }, new Date(clock.ms));
    for (let i = 0; i < 3; i++) expect((await hit(replicas[i]!.base, STR, api_key)).status).toBe(200); // 2,000 − 150 = 1,850 = 37 × 50
    const before = replicas.map((r) => r.served());
    const replies = await Promise.all(Array.from({ length: 200 }, (_, i) => hit(replicas[i % 3]!.base, STR, api_key)));
    expect(tally(replies)).toEqual({ 200: 37, 402: 163 });
    // Every replica served some (the 37 are not all one replica's), counted by each server.
    const servedBy = replicas.map((r, k) => r.served() - before[k]!);
    expect(servedBy.reduce((a, b) => a + b)).toBe(37);
    expect(servedBy.every((n) => n > 0), `served by replica: ${servedBy.join(', ')}`).toBe(true);
    const now = new Date(clock.ms);
    expect(await l.account(account.account_id, now)).toMatchObject({ remaining: 0, used_this_cycle: PLANS.starter.allowance });
    expect(await replicas[2]!.ledger.usage({ account_id: account.account_id }, now)).toMatchObject({ total_calls: 40, total_credits: 2_000 });
    const debits = (await l.records()).filter((r) => r.t === 'debit' && r.a === account.account_id);
    expect(debits).toHaveLength(40);
    const served = new Set(replies.filter((r) => r.status === 200).map((r) => r.headers['x-request-id']));
    for (const id of served) expect(debits.some((d) => d.t === 'debit' && d.r === id)).toBe(true);
    expect(replies.filter((r) => r.status === 402).every((r) => r.json.code === 'credits_exhausted')).toBe(true);
    // No hold is left behind.
    expect((await l.pool.query('SELECT count(*)::int AS n FROM reservations WHERE account_id = $1', [account.account_id])).rows[0].n).toBe(0);
  }, 120_000);

  it('the sliding window is exact across replicas: N per window from any mix of replicas, never N+1', async () => {
    clock.tickMs = 0; // every request at the same instant
    const l = replicas[1]!.ledger;
    const { api_key } = await l.createAccount({ tier: 'premium', name: 'window' }, new Date(clock.ms));
    const limit = PLANS.premium.rateLimit!.limit; // 16 per 10 s
    for (const round of [0, 1, 2]) {
      const replies = await Promise.all(Array.from({ length: 60 }, (_, i) => hit(replicas[(i + round) % 3]!.base, SEARCH, api_key)));
      expect(tally(replies), `round ${round}`).toEqual({ 200: limit, 429: 60 - limit });
      for (const r of replies.filter((x) => x.status === 429)) {
        expect(r.json.code).toBe('rate_limited');
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      // One millisecond before the window slides: still nothing.
      clock.advance(PLANS.premium.rateLimit!.windowMs - 1);
      expect((await hit(replicas[round]!.base, SEARCH, api_key)).status).toBe(429);
      clock.advance(1);
    }
  }, 120_000);
});
