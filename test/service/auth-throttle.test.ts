/**
 * Failed authentication is throttled per client address (issue 45, 3b), on a real server:
 * after AUTH_FAILURE_LIMIT 401s in the window an address gets 429 with Retry-After, whatever
 * key it sends; another address (127.0.0.2: Linux routes all of 127/8 to loopback) is
 * untouched; the window slides on the server's injected clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, TestClock, type TestServer } from './support.ts';

const LIMIT = 5;
const WINDOW_MS = 60_000;
let s: TestServer;
let good: { id: string; key: string };
const clock = new TestClock();

beforeAll(async () => {
  s = await startTestServer({ clock, env: { AUTH_FAILURE_LIMIT: String(LIMIT), AUTH_FAILURE_WINDOW_MS: String(WINDOW_MS) } });
  good = await s.account('enterprise', { limit: 1_000_000, windowMs: 10_000 });
});
afterAll(() => s?.stop());

const bad = (localAddress = '127.0.0.1') => call(s.base, 'GET', '/v1/account', { key: 'pi_live_not-a-real-key-000000000000', localAddress });
const valid = (localAddress = '127.0.0.1') => call(s.base, 'GET', '/v1/account', { key: good.key, localAddress });

describe('failed-authentication throttle', () => {
  it(`the first ${LIMIT} bad keys are 401, then 429 with Retry-After for any key from that address; other addresses untouched; the window slides`, async () => {
    const t0 = clock.ms;
    for (let i = 0; i < LIMIT; i++) {
      clock.ms = t0 + i * 1_000;
      expect((await bad()).status).toBe(401);
    }
    clock.ms = t0 + 10_000;
    const refused = await bad();
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json.code).toBe('rate_limited');
    // The first failure (t0) leaves the window at t0 + 60 s: 50 s from now.
    expect(refused.headers['retry-after']).toBe('50');
    expect(refused.headers['cache-control']).toBe('no-store');
    // A missing header and a valid key from the same address: refused before any key check.
    expect((await call(s.base, 'GET', '/v1/account')).status).toBe(429);
    expect((await valid()).status).toBe(429);
    // Another address: its valid key works and its own bad keys are still 401s.
    expect((await valid('127.0.0.2')).status).toBe(200);
    expect((await bad('127.0.0.2')).status).toBe(401);
    // Just before the oldest failure leaves the window: still refused; at it: one more try.
    clock.ms = t0 + WINDOW_MS - 1;
    expect((await bad()).status).toBe(429);
    clock.ms = t0 + WINDOW_MS;
    expect((await valid()).status).toBe(200);
    // The valid call did not reset the count: one more failure fills the window again.
    expect((await bad()).status).toBe(401);
    const again = await bad();
    expect(again.status).toBe(429);
    // Oldest counted failure now: t0 + 1 s, leaving at t0 + 61 s.
    expect(again.headers['retry-after']).toBe('1');
    const m = await call(s.metricsBase, 'GET', '/metrics');
    expect(m.text).toMatch(/^auth_throttled_total 5$/m);
  });
});
