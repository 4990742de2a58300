/**
 * The typed client (clients/typescript) against a real server: the same document the
 * server serves generated its types, so a call compiles only if the document allows it,
 * and the answers parse as the types say. `make client-check` fails when the committed
 * types drift from the route schemas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPropertyIntelligenceClient, type PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { routesAnswering200 } from '../service/requests.ts';
import { startTestServer, type TestServer } from '../service/support.ts';

let s: TestServer;
let real: TestServer;
let api: PropertyIntelligenceClient;
let echo: PropertyIntelligenceClient;
beforeAll(async () => {
  real = await startTestServer();
  api = createPropertyIntelligenceClient(real.base, (await real.account('free')).key);
  // Stand-in handlers that echo their validated input: what the client sends, as the server read it.
  s = await startTestServer({ routes: routesAnswering200(V1_ROUTES) });
  s.clock.tickMs = 2_000;
  echo = createPropertyIntelligenceClient(s.base, (await s.account('premium')).key);
});
afterAll(async () => {
  await s?.stop();
  await real?.stop();
});

describe('typed client', () => {
  it('GET /account: typed body, a one-time allowance without a cycle end', async () => {
    const r = await api.GET('/account');
    expect(r.response.status).toBe(200);
    expect(r.data?.plan).toEqual({ tier: 'free', name: 'Free', one_time_allowance: true });
    expect(r.data?.remaining).toBe(100);
    expect(r.data?.cycle.end).toBeNull();
  });

  it('an error comes back as the typed problem body', async () => {
    const r = await api.GET('/account/usage', { params: { query: { from: '2026-02-31' } } });
    expect(r.response.status).toBe(400);
    expect(r.error).toMatchObject({ status: 400, code: 'invalid_request', errors: [{ path: 'query.from', message: 'not a calendar date' }] });
  });

  it('a numeric UPRN (as a search result gives it) goes into the STR estimate as it is', async () => {
    const r = await echo.POST('/valuations/str-estimate', { body: { uprn: 100023336956, bedrooms: 2 } });
    expect(r.response.status).toBe(200);
    expect((r.data as unknown as { input: { body: { uprn: number } } }).input.body.uprn).toBe(100023336956);
  });

  it('query parameters are serialised as the server reads them', async () => {
    const r = await echo.GET('/addresses/search', { params: { query: { q: 'high street', limit: 5 } } });
    expect(r.response.status).toBe(200);
    expect((r.data as unknown as { input: { query: unknown } }).input.query).toEqual({ q: 'high street', limit: 5 });
  });
});
