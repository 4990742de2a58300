/**
 * Every error code of DESIGN.md §3 from a real server, with its exact body shape:
 * RFC 9457 fields, problem+json, the request id echoed, never a stack trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_CODES, problemType, type ErrorCode } from '../../schemas/api/problem.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { defineRoute } from '../../service/routes/types.ts';
import { call, meteredRoute, postJson, rawExchange, startTestServer, type Reply, type TestServer } from './support.ts';

const boom = defineRoute({
  method: 'GET',
  path: '/test/boom',
  operationId: 'boom',
  summary: 'throws an unexpected error',
  tag: 'Test',
  cost: 1,
  response: z.never(),
  needsBuild: false,
  handler: () => {
    throw new Error('secret internal detail at /srv/db.sql');
  },
});

/**
 * Each code's status and title, written out here (HTTP's own meaning of each status and
 * docs/api.md's titles), not read from the table under test.
 */
const EXPECTED: Record<ErrorCode, { status: number; title: string }> = {
  invalid_request: { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  credits_exhausted: { status: 402, title: 'Credits exhausted' },
  not_found: { status: 404, title: 'Not found' },
  not_covered: { status: 404, title: 'Not covered by the data' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request timeout' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  idempotency_key_mismatch: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Rate limited' },
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  uri_too_long: { status: 414, title: 'URI too long' },
  internal: { status: 500, title: 'Internal error' },
  data_unavailable: { status: 503, title: 'Data unavailable' },
  ledger_unavailable: { status: 503, title: 'Ledger unavailable' },
  rate_limit_unavailable: { status: 503, title: 'Rate limiter unavailable' },
};
/** Every code a request in this file was answered with. */
const seen = new Set<string>();

function expectProblem(r: Reply, code: ErrorCode, requestId?: string): void {
  seen.add(String(r.json?.code));
  const { status, title } = EXPECTED[code];
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  const keys = Object.keys(r.json).sort();
  expect(keys).toEqual(code === 'invalid_request' ? ['code', 'detail', 'errors', 'request_id', 'status', 'title', 'type'] : ['code', 'detail', 'request_id', 'status', 'title', 'type']);
  expect(r.json).toMatchObject({ type: problemType(code), title, status, code });
  expect(typeof r.json.detail).toBe('string');
  expect(r.json.request_id).toBe(r.headers['x-request-id']);
  if (requestId) expect(r.json.request_id).toBe(requestId);
  expect(r.text).not.toMatch(/\bat .*\.ts:\d+|Error:|stack/);
}

const spend = meteredRoute('spend', 50);

let s: TestServer;
let key: string;

beforeAll(async () => {
  // A short header timeout, for the 408 test (a whole request's headers arrive at once).
  s = await startTestServer({ routes: [...V1_ROUTES, boom, spend], env: { HEADERS_TIMEOUT_MS: '1000' } });
  key = (await s.account('business')).key;
});
afterAll(() => s.stop());

/** Each call at a fresh instant so the rate limit stays out of the way unless tested. */
const fresh = () => s.clock.advance(10_000);

describe('problem+json for every error code', () => {
  it('400 invalid_request lists every bad field (path, query and body at once)', async () => {
    fresh();
    const r = await call(s.base, 'GET', '/v1/addresses/search?q=a&limit=0&colour=red', { key });
    expectProblem(r, 'invalid_request');
    expect(r.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(['query', 'query.limit', 'query.q']);
    for (const e of r.json.errors) expect(Object.keys(e).sort()).toEqual(['message', 'path']);

    fresh();
    const p = await call(s.base, 'GET', '/v1/valuations/12ab/hmo?finish_quality=luxury&parking=maybe', { key });
    expectProblem(p, 'invalid_request');
    expect(p.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(['params.uprn', 'query.finish_quality', 'query.parking']);

    fresh();
    const b = await postJson(s.base, '/v1/valuations/str-estimate', key, { bedrooms: 'two', finish_quality: 'gold' });
    expectProblem(b, 'invalid_request');
    expect(b.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.bedrooms', 'body.finish_quality']);
  });

  it('400 for the one-location rule, unknown fields and malformed JSON', async () => {
    fresh();
    const two = await call(s.base, 'GET', '/v1/str/market?postcode=BS1%204DJ&outcode=BS1', { key });
    expectProblem(two, 'invalid_request');
    expect(two.json.errors).toEqual([{ path: 'query.location', message: expect.stringMatching(/exactly one way/) }]);
    fresh();
    const none = await call(s.base, 'GET', '/v1/str/market', { key });
    expect(none.json.errors[0].path).toBe('query.location');
    fresh();
    const radius = await call(s.base, 'GET', '/v1/str/market?lat=51.4&lng=-2.6&radius_m=5001', { key });
    expect(radius.json.errors.map((e: { path: string }) => e.path)).toEqual(['query.radius_m']);
    fresh();
    const poly = await call(s.base, 'GET', '/v1/str/market?polygon=-2.6,51.4%20-2.5,51.4', { key });
    expect(poly.json.errors[0]).toEqual({ path: 'query.polygon', message: 'polygon needs at least 3 lng,lat pairs' });
    fresh();
    const fields = await call(s.base, 'GET', '/v1/properties/123?fields=address,colour', { key });
    expectProblem(fields, 'invalid_request');
    expect(fields.json.errors).toEqual([{ path: 'query.fields', message: 'unknown field(s): colour' }]);
    fresh();
    const bad = await call(s.base, 'POST', '/v1/valuations/str-estimate', { key, headers: { 'content-type': 'application/json' }, body: '{"bedrooms": 2,' });
    expectProblem(bad, 'invalid_request');
    expect(bad.json.errors).toEqual([{ path: 'body', message: 'malformed JSON' }]);
    fresh();
    const dates = await call(s.base, 'GET', '/v1/account/usage?from=2026-02-31&to=2026-01-01', { key });
    // One error per field: the first thing wrong with it.
    expect(dates.json.errors).toEqual([{ path: 'query.from', message: 'not a calendar date' }]);
  });

  it('414 for a query string over the limit', async () => {
    fresh();
    const r = await call(s.base, 'GET', `/v1/addresses/search?q=${'a'.repeat(5_000)}`, { key });
    expectProblem(r, 'uri_too_long');
    expect(r.json.detail).toBe('The query string exceeds 4096 bytes.');
  });

  it('401 unauthorized for missing, malformed, unknown and revoked keys, all alike', async () => {
    const missing = await call(s.base, 'GET', '/v1/account');
    expectProblem(missing, 'unauthorized');
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="api"');
    expect(missing.headers['x-credits-cost']).toBeUndefined();
    const basic = await call(s.base, 'GET', '/v1/account', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expectProblem(basic, 'unauthorized');
    const unknown = await call(s.base, 'GET', '/v1/account', { key: 'pi_live_thiskeydoesnotexist0000000000' });
    expectProblem(unknown, 'unauthorized');
    const victim = await s.account('starter');
    fresh();
    expect((await call(s.base, 'GET', '/v1/account', { key: victim.key })).status).toBe(200);
    await s.ledger.revokeKey(victim.id, new Date(s.clock.ms));
    const revoked = await call(s.base, 'GET', '/v1/account', { key: victim.key });
    expectProblem(revoked, 'unauthorized');
    expect(revoked.json.detail).toBe(unknown.json.detail);
  });

  it('402 credits_exhausted when the call costs more than remains', async () => {
    const free = await s.account('free');
    // 100 one-time credits: two 50-credit calls spend them, the third is refused.
    for (let i = 0; i < 2; i++) {
      s.clock.advance(1_000);
      expect((await call(s.base, 'GET', '/v1/test/spend', { key: free.key })).status).toBe(200);
    }
    s.clock.advance(1_000);
    const r = await call(s.base, 'GET', '/v1/test/spend', { key: free.key });
    expectProblem(r, 'credits_exhausted');
    expect(r.headers['x-credits-cost']).toBe('0');
    expect(r.headers['x-credits-remaining']).toBe('0');
  });

  it('404 not_found for an unknown route, also outside /v1', async () => {
    expectProblem(await call(s.base, 'GET', '/v1/nothing-here', { key }), 'not_found');
    expectProblem(await call(s.base, 'GET', '/favicon.ico'), 'not_found');
  });

  it('405 method_not_allowed with Allow', async () => {
    const r = await call(s.base, 'DELETE', '/v1/account', { key });
    expectProblem(r, 'method_not_allowed');
    expect(r.headers.allow).toBe('GET');
    const g = await call(s.base, 'GET', '/v1/valuations/str-estimate', { key });
    expectProblem(g, 'method_not_allowed');
    expect(g.headers.allow).toBe('POST');
    // HEAD is not served through metered GET routes (it would charge for an empty body).
    const h = await call(s.base, 'HEAD', '/v1/account', { key });
    expect(h.status).toBe(405);
    expect(h.headers.allow).toBe('GET');
  });

  it('413 payload_too_large, by Content-Length and without one', async () => {
    fresh();
    const big = JSON.stringify({ bedrooms: 2, pad: 'x'.repeat(70_000) });
    expectProblem(await call(s.base, 'POST', '/v1/valuations/str-estimate', { key, headers: { 'content-type': 'application/json' }, body: big }), 'payload_too_large');
    fresh();
    // Chunked: no Content-Length, so the limit is enforced while reading.
    const chunked = await new Promise<Reply>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(`${s.base}/v1/valuations/str-estimate`, { method: 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: JSON.parse(text) }));
        });
        req.on('error', reject);
        for (let i = 0; i < 10; i++) req.write('x'.repeat(10_000));
        req.end();
      }, reject);
    });
    expectProblem(chunked, 'payload_too_large');
  });

  it('415 unsupported_media_type for a POST that is not JSON', async () => {
    fresh();
    expectProblem(await call(s.base, 'POST', '/v1/valuations/str-estimate', { key, headers: { 'content-type': 'text/plain' }, body: '{"bedrooms":2}' }), 'unsupported_media_type');
    fresh();
    expectProblem(await call(s.base, 'POST', '/v1/valuations/str-estimate', { key, body: '{"bedrooms":2}' }), 'unsupported_media_type');
  });

  it('429 rate_limited with Retry-After', async () => {
    const free = await s.account('free');
    s.clock.advance(5_000);
    expect((await call(s.base, 'GET', '/v1/account', { key: free.key })).status).toBe(200);
    expect((await call(s.base, 'GET', '/v1/account', { key: free.key })).status).toBe(200);
    const r = await call(s.base, 'GET', '/v1/account', { key: free.key });
    expectProblem(r, 'rate_limited');
    expect(r.headers['retry-after']).toBe('1');
    expect(r.headers['x-credits-cost']).toBe('0');
  });

  it('431 for oversized request headers, still problem+json', async () => {
    const r = await call(s.base, 'GET', '/v1/account', { key, headers: { 'x-padding': 'p'.repeat(20_000) } });
    expect(r.status).toBe(431);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.json).toMatchObject({ code: 'request_header_fields_too_large', status: 431, type: problemType('request_header_fields_too_large') });
    // Parser-level answers carry a request id too, the body's.
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.json.request_id).toBe(r.headers['x-request-id']);
    seen.add(r.json.code);
  });

  it('414 for a 100 kB URL, not 431, still problem+json with a request id', async () => {
    const r = await call(s.base, 'GET', `/v1/addresses/search?q=${'a'.repeat(100_000)}`, { key });
    expect(r.status).toBe(414);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.json).toMatchObject({ code: 'uri_too_long', status: 414, title: 'URI too long', type: problemType('uri_too_long') });
    expect(r.json.request_id).toBe(r.headers['x-request-id']);
    seen.add(r.json.code);
    // A short URL with oversized headers is still the headers' fault.
    const h = await call(s.base, 'GET', '/v1/account', { key, headers: { 'x-padding': 'p'.repeat(20_000) } });
    expect(h.status).toBe(431);
  });

  it('408 when the request headers do not arrive within HEADERS_TIMEOUT_MS (raw socket), with a request id', async () => {
    const { head, body } = await rawExchange(s.port, 'GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request timeout\r\n/);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/);
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})(\r\n|$)/.exec(head)?.[1];
    expect(id).toBeDefined();
    const json = JSON.parse(body);
    expect(json).toMatchObject({ code: 'request_timeout', status: 408, title: 'Request timeout', type: problemType('request_timeout'), request_id: id });
    seen.add(json.code);
  });

  it('a malformed request line: 400 from the parser, with a request id', async () => {
    const { head, body } = await rawExchange(s.port, 'GET /v1/account HTTP/1.1\r\nHost x\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Invalid request\r\n/);
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})(\r\n|$)/.exec(head)?.[1];
    expect(JSON.parse(body)).toMatchObject({ code: 'invalid_request', request_id: id });
  });

  it('500 internal: generic text in the response, the details only in the log; nothing charged', async () => {
    fresh();
    const before = s.ledger.account((await s.ledger.authenticate(key))!.account_id, new Date(s.clock.ms))!.remaining;
    const r = await call(s.base, 'GET', '/v1/test/boom', { key, headers: { 'x-request-id': 'trace-me-500-abc' } });
    expectProblem(r, 'internal');
    // The caller's id is kept beside the server's, which is the one in the body and the log.
    expect(r.headers['x-client-request-id']).toBe('trace-me-500-abc');
    expect(r.text).not.toContain('secret');
    expect(r.headers['x-credits-cost']).toBe('0');
    expect(r.headers['x-credits-remaining']).toBe(String(before));
    const logged = s.logs.map((l) => JSON.parse(l)).find((l) => l.request_id === r.json.request_id && l.err);
    expect(logged.client_request_id).toBe('trace-me-500-abc');
    expect(logged.err.message).toContain('secret internal detail');
  });

  it('503 data_unavailable for data endpoints until a build is published, after validation, free', async () => {
    fresh();
    const r = await call(s.base, 'GET', '/v1/addresses/search?q=high', { key });
    expectProblem(r, 'data_unavailable');
    expect(r.headers['x-credits-cost']).toBe('0');
    expect(r.headers['retry-after']).toBe('60');
    fresh();
    expect((await call(s.base, 'GET', '/v1/addresses/search?q=h', { key })).status).toBe(400);
    expectProblem(await call(s.base, 'GET', '/readyz'), 'data_unavailable');
  });

  it('the table has exactly the expected codes with their statuses and titles', () => {
    expect(ERROR_CODES).toEqual(EXPECTED);
  });

  it('every code in the table was answered to a real request above (ledger_unavailable: in ledger-disk-full, which fills a real disk; rate_limit_unavailable: in replicas-faults, which stops a real PostgreSQL; the idempotency codes: in idempotency.test.ts; not_covered: in coverage.test.ts, over Scottish and Welsh places of a synthetic build)', () => {
    const elsewhere = ['ledger_unavailable', 'rate_limit_unavailable', 'idempotency_key_in_use', 'idempotency_key_mismatch', 'not_covered'];
    expect([...seen, ...elsewhere].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
