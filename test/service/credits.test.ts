/**
 * Credits through the real chain and the real file ledger: exact decrement by each
 * endpoint's cost, never on a non-2xx; 402 at the cap and recovery on upgrade and on
 * renewal; downgrade at renewal; free tier's one-time 100; Enterprise unlimited; and
 * 200 concurrent calls against credits for 37.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_PLANS } from '../support/spec-plans.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { call, postJson, startTestServer, type Reply, type TestServer } from './support.ts';
import { routesAnswering200, validCall } from './requests.ts';

const byOp = (op: string) => V1_ROUTES.find((r) => r.operationId === op)!;
const STR = byOp('estimateShortTermLet'); // 50 credits
const SEARCH = byOp('searchAddresses'); // 1 credit

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ routes: routesAnswering200(V1_ROUTES) });
  // Each request is seen 3 s after the previous one: the fastest tier (4 per 10 s) never
  // refuses, so these tests are about credits only. Rate limits: rate-limit.test.ts.
  s.clock.tickMs = 3_000;
});
afterAll(() => s.stop());

function hit(route: (typeof V1_ROUTES)[number], key: string): Promise<Reply> {
  const { path, body } = validCall(route);
  return route.method === 'POST' ? postJson(s.base, path, key, body) : call(s.base, 'GET', path, { key });
}
const view = (id: string) => s.ledger.account(id, new Date(s.clock.ms))!;
const DAY = 86_400_000;

describe('credits', () => {
  it('each endpoint charges exactly its cost on 200, with the credit headers', async () => {
    const acc = await s.account('premium');
    let remaining = 150_000;
    for (const route of V1_ROUTES) {
      const r = await hit(route, acc.key);
      expect(r.status, `${route.operationId}: ${r.text}`).toBe(200);
      remaining -= route.cost;
      expect(r.headers['x-credits-cost'], route.operationId).toBe(String(route.cost));
      expect(r.headers['x-credits-remaining'], route.operationId).toBe(String(remaining));
      expect(view(acc.id).remaining).toBe(remaining);
      expect(r.headers['ratelimit-policy']).toBe('"default";q=16;w=10');
      expect(r.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const total = V1_ROUTES.reduce((n, r) => n + r.cost, 0);
    const usage = await call(s.base, 'GET', '/v1/account/usage', { key: acc.key });
    expect(usage.json.total_credits).toBe(total);
    expect(usage.json.total_calls).toBe(V1_ROUTES.filter((r) => r.cost > 0).length);
    expect(usage.json.by_endpoint).toContainEqual({ endpoint: 'POST /v1/valuations/str-estimate', calls: 1, credits: 50 });
    expect(usage.json.by_day).toEqual([{ date: new Date(s.clock.ms).toISOString().slice(0, 10), calls: usage.json.total_calls, credits: total }]);
  });

  it('never charges a non-2xx: 400, 401, 415 and 429 leave the balance alone', async () => {
    const acc = await s.account('starter');
    const before = view(acc.id).remaining;
    const bad = await call(s.base, 'GET', '/v1/addresses/search?q=x', { key: acc.key });
    expect(bad.status).toBe(400);
    expect(bad.headers['x-credits-cost']).toBe('0');
    expect(bad.headers['x-credits-remaining']).toBe(String(before));
    expect((await call(s.base, 'POST', '/v1/valuations/str-estimate', { key: acc.key, body: 'x' })).status).toBe(415);
    expect((await call(s.base, 'GET', '/v1/addresses/search?q=ab', { key: 'pi_live_wrongwrongwrong' })).status).toBe(401);
    // Six calls in one instant: the window (4 per 10 s) lets some through, the rest are 429.
    s.clock.tickMs = 0;
    const burst: Reply[] = [];
    for (let i = 0; i < 6; i++) burst.push(await hit(SEARCH, acc.key));
    s.clock.tickMs = 3_000;
    const ok = burst.filter((r) => r.status === 200).length;
    const limited = burst.filter((r) => r.status === 429);
    expect(ok + limited.length).toBe(6);
    expect(limited.length).toBeGreaterThan(0);
    for (const r of limited) expect(r.headers['x-credits-cost']).toBe('0');
    expect(view(acc.id).remaining).toBe(before! - ok);
    expect(view(acc.id).used_this_cycle).toBe(ok);
  });

  it('402 at the cap; an upgrade restores credits at once', async () => {
    const acc = await s.account('starter');
    for (let i = 0; i < 40; i++) expect((await hit(STR, acc.key)).status).toBe(200);
    const capped = await hit(STR, acc.key);
    expect(capped.status).toBe(402);
    expect(capped.json.code).toBe('credits_exhausted');
    // A cheaper call that still fits nothing: remaining is 0.
    expect((await hit(SEARCH, acc.key)).status).toBe(402);
    // Free endpoints still work at the cap.
    const me = await call(s.base, 'GET', '/v1/account', { key: acc.key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ remaining: 0, used_this_cycle: 2_000, allowance: 2_000, plan: { tier: 'starter' } });
    expect((await call(s.base, 'GET', '/v1/account/usage', { key: acc.key })).json.total_credits).toBe(2_000);

    await s.ledger.upgrade(acc.id, 'growth', new Date(s.clock.ms));
    const after = await hit(STR, acc.key);
    expect(after.status).toBe(200);
    expect(after.headers['x-credits-remaining']).toBe(String(5_000 - 2_050));
    expect(after.headers['ratelimit-policy']).toBe('"default";q=4;w=10');
  });

  it('402 at the cap; the cycle roll-over resets to the allowance, nothing carried over', async () => {
    const acc = await s.account('starter');
    for (let i = 0; i < 40; i++) await hit(STR, acc.key);
    expect((await hit(STR, acc.key)).status).toBe(402);
    const end = Date.parse(view(acc.id).cycle_end);
    s.clock.ms = end - 1_000;
    expect((await hit(STR, acc.key)).status).toBe(402);
    s.clock.ms = end;
    const renewed = await hit(STR, acc.key);
    expect(renewed.status).toBe(200);
    expect(renewed.headers['x-credits-remaining']).toBe(String(2_000 - 50));
    const me = (await call(s.base, 'GET', '/v1/account', { key: acc.key })).json;
    expect(me.cycle.start).toBe(new Date(end).toISOString());
    expect(me.used_this_cycle).toBe(50);
  });

  it('a downgrade is pending until the next renewal, then applies', async () => {
    const acc = await s.account('pro');
    await s.ledger.downgrade(acc.id, 'starter', new Date(s.clock.ms));
    const me = (await call(s.base, 'GET', '/v1/account', { key: acc.key })).json;
    expect(me).toMatchObject({ plan: { tier: 'pro' }, allowance: 15_000, rate_limit: { limit: 6, window_seconds: 10 } });
    expect(me.pending_downgrade).toEqual({ tier: 'starter', effective_at: me.cycle.end });
    expect((await hit(STR, acc.key)).headers['x-credits-remaining']).toBe(String(15_000 - 50));
    s.clock.ms = Date.parse(me.cycle.end) + 1;
    const later = (await call(s.base, 'GET', '/v1/account', { key: acc.key })).json;
    expect(later).toMatchObject({ plan: { tier: 'starter' }, allowance: 2_000, remaining: 2_000, pending_downgrade: null, rate_limit: { limit: 4 } });
  });

  it('free tier: 100 credits once, never renewed; account endpoints keep working', async () => {
    const acc = await s.account('free');
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).json).toMatchObject({ allowance: 100, remaining: 100, plan: { tier: 'free', one_time_allowance: true }, rate_limit: { limit: 2, window_seconds: 1 } });
    expect((await hit(STR, acc.key)).status).toBe(200);
    expect((await hit(STR, acc.key)).status).toBe(200);
    expect((await hit(SEARCH, acc.key)).status).toBe(402);
    s.clock.advance(70 * DAY);
    const r = await hit(SEARCH, acc.key);
    expect(r.status).toBe(402);
    expect(r.headers['x-credits-remaining']).toBe('0');
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).json.remaining).toBe(0);
    expect((await call(s.base, 'GET', '/v1/account/usage', { key: acc.key })).status).toBe(200);
  });

  it('enterprise: unlimited credits, remaining shown as unlimited', async () => {
    const acc = await s.account('enterprise', { limit: 1_000, windowMs: 10_000 });
    for (let i = 0; i < 5; i++) {
      const r = await hit(STR, acc.key);
      expect(r.status).toBe(200);
      expect(r.headers['x-credits-cost']).toBe('50');
      expect(r.headers['x-credits-remaining']).toBe('unlimited');
    }
    const me = (await call(s.base, 'GET', '/v1/account', { key: acc.key })).json;
    expect(me).toMatchObject({ allowance: null, remaining: null, used_this_cycle: 250, rate_limit: { limit: 1_000, window_seconds: 10 } });
  });

  it('usage: from/to select days', async () => {
    const acc = await s.account('growth');
    const day1 = new Date(s.clock.ms).toISOString().slice(0, 10);
    await hit(SEARCH, acc.key);
    s.clock.advance(DAY);
    const day2 = new Date(s.clock.ms).toISOString().slice(0, 10);
    await hit(STR, acc.key);
    await hit(STR, acc.key);
    const all = (await call(s.base, 'GET', '/v1/account/usage', { key: acc.key })).json;
    expect(all.by_day).toEqual([
      { date: day1, calls: 1, credits: 1 },
      { date: day2, calls: 2, credits: 100 },
    ]);
    const only2 = (await call(s.base, 'GET', `/v1/account/usage?from=${day2}&to=${day2}`, { key: acc.key })).json;
    expect(only2).toMatchObject({ from: day2, to: day2, total_calls: 2, total_credits: 100 });
  });

  it('200 concurrent calls against credits for 37: exactly 37 succeed, the rest 402, ledger agrees', async () => {
    const acc = await s.account('starter');
    for (let i = 0; i < 3; i++) await hit(STR, acc.key); // 2,000 - 150 = 1,850 = 37 × 50
    const replies = await Promise.all(Array.from({ length: 200 }, () => hit(STR, acc.key)));
    const byStatus = new Map<number, number>();
    for (const r of replies) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 200: 37, 402: 163 });
    expect(view(acc.id)).toMatchObject({ remaining: 0, used_this_cycle: 2_000 });
    const usage = (await call(s.base, 'GET', '/v1/account/usage', { key: acc.key })).json;
    expect(usage).toMatchObject({ total_calls: 40, total_credits: 2_000 });
    const charged = replies.filter((r) => r.status === 200).reduce((n, r) => n + Number(r.headers['x-credits-cost']), 0);
    expect(charged + 150).toBe(usage.total_credits);
  });

  it('plans: the account view reports each tier as the spec table', async () => {
    for (const tier of ['starter', 'growth', 'pro', 'business', 'scale', 'premium'] as const) {
      const acc = await s.account(tier);
      const me = (await call(s.base, 'GET', '/v1/account', { key: acc.key })).json;
      expect(me.allowance).toBe(SPEC_PLANS[tier].credits);
      expect(me.rate_limit).toEqual({ limit: SPEC_PLANS[tier].rate.limit, window_seconds: 10 });
    }
  });
});
