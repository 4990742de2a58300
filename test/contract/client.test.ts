/**
 * The typed client (clients/typescript) against a real server: the same document the
 * server serves generated its types, so a call compiles only if the document allows it,
 * and the answers parse as the types say. `make client-check` fails when the committed
 * types drift from the route schemas. The contract tests and the demo examples test send their
 * concrete paths through it with test/support/client-call.ts, tested here too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPropertyIntelligenceClient, type PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { clientCall } from '../support/client-call.ts';
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

describe('clientCall: a concrete path through the typed client', () => {
  /** What the echo server's handler was given. */
  const input = (data: unknown) => (data as { input: { params: unknown; query: unknown; body: unknown } }).input;

  it('sends path and query parameters on the route\'s template, typed as the document declares them', async () => {
    const search = await clientCall(echo, 'GET', '/v1/addresses/search?q=high%20street&limit=5');
    expect(search.response.status).toBe(200);
    expect(input(search.data).query).toEqual({ q: 'high street', limit: 5 });

    const postcode = await clientCall(echo, 'GET', '/v1/postcodes/BS1%201UE');
    expect(postcode.response.url).toBe(`${s.base}/v1/postcodes/BS1%201UE`);
    expect(input(postcode.data).params).toEqual({ postcode: 'BS1 1UE' });

    // An array parameter (form, exploded) may repeat.
    const listings = await clientCall(echo, 'GET', '/v1/str/listings?outcode=BS1&price_tier=Budget&price_tier=Luxury');
    expect(listings.response.status).toBe(200);
    expect(input(listings.data).query).toMatchObject({ outcode: 'BS1', price_tier: ['Budget', 'Luxury'] });

    const str = await clientCall(echo, 'POST', '/v1/valuations/str-estimate', { uprn: 100023336956, bedrooms: 2 });
    expect(input(str.data).body).toMatchObject({ uprn: 100023336956, bedrooms: 2 });
  });

  it('throws, sending nothing, on a path no documented route has', () => {
    expect(() => clientCall(echo, 'GET', '/v1/properties/100023336956/valuation'))
      .toThrow('GET /v1/properties/100023336956/valuation matches no documented route');
    // A documented path with a method it does not take, and a path outside /v1.
    expect(() => clientCall(echo, 'POST', '/v1/account')).toThrow('POST /v1/account matches no documented route');
    expect(() => clientCall(echo, 'GET', '/properties/100023336956')).toThrow('GET /properties/100023336956 matches no documented route');
  });

  it('throws, sending nothing, on a query parameter the document does not declare for the operation', () => {
    // `page` is documented for other operations, not this one.
    expect(() => clientCall(echo, 'GET', '/v1/properties/100023336956/sales?page=2'))
      .toThrow('query parameter page is not in docs/openapi.json for GET /properties/{uprn}/sales');
    expect(() => clientCall(echo, 'GET', '/v1/addresses/search?q=high%20street&limt=5'))
      .toThrow('query parameter limt is not in docs/openapi.json for GET /addresses/search');
    // A value that is not the declared type, and a scalar parameter sent twice (a deliberate 400 elsewhere, on a raw path).
    expect(() => clientCall(echo, 'GET', '/v1/addresses/search?q=high%20street&limit=five')).toThrow(/limit="five" is not the integer/);
    expect(() => clientCall(echo, 'GET', '/v1/addresses/search?q=a&q=b')).toThrow(/query parameter q is repeated/);
  });
});
