/**
 * Rate limits through the real server, per key and per tier: N allowed, N+1 refused with
 * 429 and Retry-After, allowed again when the window slides (injected clock, no sleeping).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_PLANS, SPEC_TIERS } from '../support/spec-plans.ts';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

// Expected limits from the spec's table (Enterprise: "custom", a per-account setting).
const cases = SPEC_TIERS.map((tier) => ({ tier, rule: SPEC_PLANS[tier].rate ?? { limit: 20, windowMs: 5_000 } }));

describe('rate limit per tier', () => {
  it.each(cases)('$tier: $rule.limit per $rule.windowMs ms, exact', async ({ tier, rule }) => {
    const acc = await s.account(tier, tier === 'enterprise' ? rule : undefined);
    const t0 = s.clock.ms;
    for (let i = 0; i < rule.limit; i++) {
      const r = await call(s.base, 'GET', '/v1/account', { key: acc.key });
      expect(r.status).toBe(200);
      expect(r.headers['ratelimit-policy']).toBe(`"default";q=${rule.limit};w=${rule.windowMs / 1000}`);
      expect(r.headers['ratelimit']).toBe(`"default";r=${rule.limit - i - 1};t=${rule.windowMs / 1000}`);
    }
    const refused = await call(s.base, 'GET', '/v1/account', { key: acc.key });
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBe(String(Math.ceil(rule.windowMs / 1000)));
    expect(refused.headers['ratelimit']).toBe(`"default";r=0;t=${rule.windowMs / 1000}`);
    // A refusal is not counted: one millisecond before the window slides, still refused...
    s.clock.ms = t0 + rule.windowMs - 1;
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(429);
    // ...and when it slides the whole window is free again (all N were at t0).
    s.clock.ms = t0 + rule.windowMs;
    for (let i = 0; i < rule.limit; i++) expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(200);
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(429);
    s.clock.advance(rule.windowMs);
  });

  it('counts per key: one account at its limit does not slow another', async () => {
    const a = await s.account('starter');
    const b = await s.account('starter');
    for (let i = 0; i < 4; i++) await call(s.base, 'GET', '/v1/account', { key: a.key });
    expect((await call(s.base, 'GET', '/v1/account', { key: a.key })).status).toBe(429);
    expect((await call(s.base, 'GET', '/v1/account', { key: b.key })).status).toBe(200);
  });

  it('a sliding window, not a fixed one: requests spread over the window still count', async () => {
    const acc = await s.account('starter');
    const t0 = s.clock.ms;
    for (const at of [0, 3_000, 6_000, 9_000]) {
      s.clock.ms = t0 + at;
      expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(200);
    }
    s.clock.ms = t0 + 9_999;
    const r = await call(s.base, 'GET', '/v1/account', { key: acc.key });
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('1');
    s.clock.ms = t0 + 10_000;
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(200);
    s.clock.ms = t0 + 12_999;
    expect((await call(s.base, 'GET', '/v1/account', { key: acc.key })).status).toBe(429);
  });

  it('429s are counted in the metrics', async () => {
    const m = await call(s.metricsBase, 'GET', '/metrics');
    expect(m.text).toMatch(/rate_limited_total\{route="GET \/v1\/account"\} \d+/);
  });
});
