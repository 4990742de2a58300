/**
 * Issue 21, "the first hour of a customer": each thing that got in a new customer's way,
 * asserted as the behaviour that replaces it (each of these failed before the fix).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { routesAnswering200 } from './requests.ts';
import { call, meteredRoute, postJson, startTestServer, type TestServer } from './support.ts';

const spend = meteredRoute('spend', 50);

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({ routes: [...routesAnswering200(V1_ROUTES), spend] });
  key = (await s.account('business')).key;
});
afterAll(() => s.stop());

/** Each call at a fresh instant so the rate limit stays out of the way. */
const fresh = () => s.clock.advance(10_000);
const STR = '/v1/valuations/str-estimate';

describe('one vocabulary: a UPRN as a number or a numeric string', () => {
  it('POST /valuations/str-estimate takes the numeric uprn a search result gives', async () => {
    fresh();
    const n = await postJson(s.base, STR, key, { uprn: 100023336956, bedrooms: 2 });
    expect(n.status, n.text).toBe(200);
    expect(n.json.input.body.uprn).toBe(100023336956);
    fresh();
    const str = await postJson(s.base, STR, key, { uprn: '100023336956', bedrooms: 2 });
    expect(str.json.input.body.uprn).toBe(100023336956);
    for (const bad of [-1, 1.5, 1e13, 'abc', '']) {
      fresh();
      const r = await postJson(s.base, STR, key, { uprn: bad, bedrooms: 2 });
      expect(r.status, String(bad)).toBe(400);
      expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(['body.uprn']);
    }
  });

  it('POST /valuations/development-gdv too', async () => {
    fresh();
    const r = await postJson(s.base, '/v1/valuations/development-gdv', key, { uprn: 12345, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 1 }] });
    expect(r.status, r.text).toBe(200);
    expect(r.json.input.body.uprn).toBe(12345);
  });
});

describe('forgiving where the spec allows, precise where it does not', () => {
  it('a repeated parameter that is not repeatable is a 400 naming it', async () => {
    fresh();
    const r = await call(s.base, 'GET', '/v1/addresses/search?q=high&limit=5&limit=6', { key });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ path: 'query.limit', message: 'given 2 times; send it once' }]);
    expect(r.text).not.toMatch(/NaN/);
    // A repeatable one (price_tier) still takes several values.
    fresh();
    expect((await call(s.base, 'GET', '/v1/str/market?outcode=BS1&price_tier=Budget&price_tier=Luxury', { key })).status).toBe(200);
  });

  it('every 4xx of the edge, the over-long query string (414 uri_too_long) included, carries the credit and rate-limit headers', async () => {
    const own = (await s.account('business')).key;
    for (let [path, status] of [[`/v1/addresses/search?q=${'a'.repeat(5_000)}`, 414], ['/v1/addresses/search?q=a', 400], ['/v1/account/usage?from=yesterday', 400]] as [string, number][]) {
      fresh();
      const r = await call(s.base, 'GET', path, { key: own });
      path = path.slice(0, 60);
      expect(r.status, path).toBe(status);
      expect(r.headers['x-credits-cost'], path).toBe('0');
      expect(r.headers['x-credits-remaining'], path).toBe('50000');
      expect(r.headers['ratelimit-policy'], path).toBe('"default";q=8;w=10');
      expect(r.headers['ratelimit'], path).toMatch(/^"default";r=7;t=\d+$/);
    }
    // Outside /v1 the limit still applies, as a 414 too (no key, so no such headers there).
    const ops = await call(s.base, 'GET', `/health?x=${'a'.repeat(5_000)}`);
    expect(ops.status).toBe(414);
  });

  it('one error per field', async () => {
    fresh();
    const r = await call(s.base, 'GET', '/v1/account/usage?from=yesterday', { key });
    expect(r.json.errors).toEqual([{ path: 'query.from', message: 'must be a date YYYY-MM-DD' }]);
  });

  it('the JSON content type with no body, or a blank one, is a 400 saying a body is required', async () => {
    const required = [{ path: 'body', message: 'required' }];
    fresh();
    const none = await call(s.base, 'POST', STR, { key, headers: { 'content-type': 'application/json' } });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ code: 'invalid_request', detail: 'A JSON request body is required: send a JSON object.', errors: required });
    fresh();
    const empty = await call(s.base, 'POST', STR, { key, headers: { 'content-type': 'application/json' }, body: '' });
    expect([empty.status, empty.json.errors]).toEqual([400, required]);
    fresh();
    const blank = await call(s.base, 'POST', STR, { key, headers: { 'content-type': 'application/json' }, body: ' \n' });
    expect([blank.status, blank.json.errors]).toEqual([400, required]);
    // Another media type is still a 415.
    fresh();
    expect((await call(s.base, 'POST', STR, { key, headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
  });
});

describe('the free tier: a one-time allowance', () => {
  it('its 402 says the allowance is one-time and how to upgrade; a paid tier\'s says it renews', async () => {
    const free = await s.account('free');
    fresh();
    expect((await call(s.base, 'GET', '/v1/test/spend', { key: free.key })).status).toBe(200);
    fresh();
    expect((await call(s.base, 'GET', '/v1/test/spend', { key: free.key })).status).toBe(200);
    fresh();
    const r = await call(s.base, 'GET', '/v1/test/spend', { key: free.key });
    expect(r.status).toBe(402);
    expect(r.json.detail).toBe(
      "This call costs 50 credits and 0 remain of the Free tier's one-time allowance of 100 credits, which does not renew. " +
        'Upgrade to a paid tier (Starter or above) to continue: the new allowance is available at once.',
    );
    expect(r.json.detail).not.toMatch(/wait for the cycle/);

    const paid = await s.account('starter');
    await s.ledger.upgrade(paid.id, 'starter', new Date(s.clock.ms)).catch(() => undefined);
    for (let i = 0; i < 40; i++) {
      fresh();
      await call(s.base, 'GET', '/v1/test/spend', { key: paid.key });
    }
    fresh();
    const p = await call(s.base, 'GET', '/v1/test/spend', { key: paid.key });
    expect(p.status).toBe(402);
    expect(p.json.detail).toMatch(/remain this cycle\. Upgrade .*or wait for the cycle to renew\.$/);
  });

  it('/account shows no cycle end for a one-time allowance, and one for a renewing one', async () => {
    const free = await s.account('free');
    fresh();
    const me = (await call(s.base, 'GET', '/v1/account', { key: free.key })).json;
    expect(me.plan.one_time_allowance).toBe(true);
    expect(me.cycle.end).toBeNull();
    expect(typeof me.cycle.start).toBe('string');
    fresh();
    const paid = (await call(s.base, 'GET', '/v1/account', { key })).json;
    expect(paid.cycle.end).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
