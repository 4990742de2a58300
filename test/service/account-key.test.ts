import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './support.ts';

/** POST /v1/account/key/rotate: the console's key rotation, through the real server and file ledger. */
describe('POST /v1/account/key/rotate', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('issues a new key once, revokes the old one at once, and charges nothing', async () => {
    const { key, id } = await s.account('starter');
    const before = (await s.ledger.account(id, new Date(s.clock.ms)))!;
    const r = await call(s.base, 'POST', '/v1/account/key/rotate', { key });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(r.text);
    expect(body.account_id).toBe(id);
    expect(body.api_key).toMatch(/^pi_live_[A-Za-z0-9_-]{20,}$/);
    expect(body.api_key).not.toBe(key);
    expect((await call(s.base, 'GET', '/v1/account', { key })).status).toBe(401);
    const fresh = await call(s.base, 'GET', '/v1/account', { key: body.api_key });
    expect(fresh.status).toBe(200);
    expect(JSON.parse(fresh.text).account_id).toBe(id);
    expect((await s.ledger.account(id, new Date(s.clock.ms)))!.remaining).toBe(before.remaining);
    // The old key cannot rotate again.
    expect((await call(s.base, 'POST', '/v1/account/key/rotate', { key })).status).toBe(401);
  });

  it('refuses a missing or unknown key with a 401 problem, and GET with a 405', async () => {
    const none = await call(s.base, 'POST', '/v1/account/key/rotate');
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toContain('application/problem+json');
    expect((await call(s.base, 'POST', '/v1/account/key/rotate', { key: 'pi_live_notakeyatall0000000000' })).status).toBe(401);
    const { key } = await s.account('starter');
    const get = await call(s.base, 'GET', '/v1/account/key/rotate', { key });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
  });

  it('is rate limited per key like any call, and to five rotations an hour per account', async () => {
    const { key } = await s.account('free'); // 2 per second per key
    const statuses: number[] = [];
    let current = key;
    for (let i = 0; i < 7; i++) {
      const r = await call(s.base, 'POST', '/v1/account/key/rotate', { key: current });
      statuses.push(r.status);
      if (r.status === 200) current = JSON.parse(r.text).api_key;
      else expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Each new key has a window of its own, so the account's bound is what stops the sixth.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    s.clock.advance(3_600_000);
    expect((await call(s.base, 'POST', '/v1/account/key/rotate', { key: current })).status).toBe(200);
    // The per-key window: two calls a second on a free key, the third refused.
    const { key: other } = await s.account('free');
    expect((await call(s.base, 'GET', '/v1/account', { key: other })).status).toBe(200);
    expect((await call(s.base, 'GET', '/v1/account', { key: other })).status).toBe(200);
    expect((await call(s.base, 'POST', '/v1/account/key/rotate', { key: other })).status).toBe(429);
  });
});
