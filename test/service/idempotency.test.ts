/**
 * Idempotency-Key through the real chain, a real file ledger and a real server (issue 45):
 * a retry gets the kept answer, byte for byte, free; another request with the key is a 422;
 * a key held by a running request is a 409; a non-2xx is not kept; malformed keys are 400s;
 * keys are per account and kept for 24 h.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { problemType } from '../../schemas/api/problem.ts';
import { ApiError } from '../../service/middleware/errors.ts';
import { defineRoute, type RouteDef } from '../../service/routes/types.ts';
import { deferred } from '../support/deferred.ts';
import { parseResponse, rawSend } from '../support/raw-http.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';

let runs = 0;
const echo = defineRoute({
  method: 'POST',
  path: '/test/echo',
  operationId: 'echo',
  summary: 'echoes its input and how many times it ran',
  tag: 'Test',
  cost: 3,
  query: z.strictObject({ x: z.string().optional(), y: z.string().optional() }),
  body: z.strictObject({ a: z.number(), b: z.string().optional() }),
  response: z.any(),
  needsBuild: false,
  handler: ({ query, body, setHeader }) => {
    setHeader('X-Test-Answer', `run-${++runs}`);
    return { run: runs, query, body };
  },
});

let gate = deferred();
let entered = deferred();
const slow = defineRoute({
  method: 'GET',
  path: '/test/slow',
  operationId: 'slow',
  summary: 'waits for the test',
  tag: 'Test',
  cost: 2,
  response: z.any(),
  needsBuild: false,
  handler: async () => {
    entered.resolve();
    await gate.promise;
    return { run: ++runs };
  },
});

let failFirst = true;
const flaky = defineRoute({
  method: 'GET',
  path: '/test/flaky',
  operationId: 'flaky',
  summary: '404 the first time, 200 after',
  tag: 'Test',
  cost: 1,
  mayNotFind: true,
  response: z.any(),
  needsBuild: false,
  handler: () => {
    if (failFirst) {
      failFirst = false;
      throw new ApiError('not_found', 'not yet');
    }
    return { run: ++runs };
  },
});

const free = defineRoute({ method: 'GET', path: '/test/free', operationId: 'free', summary: 'free', tag: 'Test', cost: 0, response: z.any(), needsBuild: false, handler: () => ({ run: ++runs }) });

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ routes: [echo, slow, flaky, free] as RouteDef[] });
});
afterAll(() => s.stop());

const remaining = (id: string) => s.ledger.account(id, new Date(s.clock.ms))!.remaining;
const post = (key: string, idem: string | undefined, body: string, query = '') =>
  call(s.base, 'POST', `/v1/test/echo${query}`, { key, headers: { 'content-type': 'application/json', ...(idem !== undefined ? { 'idempotency-key': idem } : {}) }, body });

function expectProblem(r: Reply, status: number, code: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.json).toMatchObject({ status, code, type: problemType(code as never) });
  expect(r.headers['x-credits-cost']).toBe('0');
}

describe('Idempotency-Key', () => {
  it('a retry with the same key and request gets the kept answer byte for byte, marked as a replay, and is not charged', async () => {
    const acc = await s.account('premium');
    const start = remaining(acc.id)!;
    const first = await post(acc.key, 'order-1', '{"a":1,"b":"x"}', '?x=1&y=2');
    expect(first.status).toBe(200);
    expect(first.headers['x-credits-cost']).toBe('3');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(remaining(acc.id)).toBe(start - 3);
    const ranBefore = runs;
    // The same request written differently: keys reordered, spacing, query order.
    const again = await post(acc.key, 'order-1', '{ "b": "x", "a": 1 }', '?y=2&x=1');
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['x-credits-cost']).toBe('0');
    expect(again.headers['x-credits-remaining']).toBe(String(start - 3));
    expect(again.headers['x-test-answer']).toBe(first.headers['x-test-answer']);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(runs).toBe(ranBefore); // the handler did not run again
    expect(remaining(acc.id)).toBe(start - 3);
    expect(s.ledger.usage({ account_id: acc.id }, new Date(s.clock.ms)).total_calls).toBe(1);
  });

  it("a replay echoes this delivery's X-Request-Id as X-Client-Request-Id, never the first one's", async () => {
    const acc = await s.account('premium');
    // The caller's own id belongs to one delivery: a retry under another id is echoed that id, one without an id none.
    const tagged = (idem: string, id?: string) =>
      call(s.base, 'POST', '/v1/test/echo', { key: acc.key, headers: { 'content-type': 'application/json', 'idempotency-key': idem, ...(id ? { 'x-request-id': id } : {}) }, body: '{"a":3}' });
    expect((await tagged('order-2', 'first-000001')).headers['x-client-request-id']).toBe('first-000001');
    const retried = await tagged('order-2', 'retry-000001');
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.headers['x-client-request-id']).toBe('retry-000001');
    const bare = await tagged('order-2');
    expect(bare.headers['idempotent-replayed']).toBe('true');
    expect(bare.headers['x-client-request-id']).toBeUndefined();
  });

  it('the same key with another body, query or path is a 422 and charges nothing', async () => {
    const acc = await s.account('premium');
    expect((await post(acc.key, 'k-422', '{"a":1}')).status).toBe(200);
    const after = remaining(acc.id);
    expectProblem(await post(acc.key, 'k-422', '{"a":2}'), 422, 'idempotency_key_mismatch');
    expectProblem(await post(acc.key, 'k-422', '{"a":1}', '?x=1'), 422, 'idempotency_key_mismatch');
    expectProblem(await call(s.base, 'GET', '/v1/test/flaky', { key: acc.key, headers: { 'idempotency-key': 'k-422' } }), 422, 'idempotency_key_mismatch');
    expect(remaining(acc.id)).toBe(after);
  });

  it('without a key every call runs and is charged', async () => {
    const acc = await s.account('premium');
    const start = remaining(acc.id)!;
    const a = await post(acc.key, undefined, '{"a":1}');
    const b = await post(acc.key, undefined, '{"a":1}');
    expect(a.json.run).not.toBe(b.json.run);
    expect(remaining(acc.id)).toBe(start - 6);
  });

  it('keys are per account: another account with the same key runs its own request', async () => {
    const one = await s.account('premium');
    const two = await s.account('premium');
    const a = await post(one.key, 'shared-key', '{"a":1}');
    const b = await post(two.key, 'shared-key', '{"a":1}');
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json.run).not.toBe(a.json.run);
    expect(b.headers['x-credits-cost']).toBe('3');
  });

  it('two concurrent requests with one key run once: the second gets 409 with Retry-After, then the kept answer', async () => {
    const acc = await s.account('premium');
    const start = remaining(acc.id)!;
    gate = deferred();
    entered = deferred();
    const first = call(s.base, 'GET', '/v1/test/slow', { key: acc.key, headers: { 'idempotency-key': 'concurrent' } });
    await entered.promise; // the first holds the key and is inside its handler
    const second = await call(s.base, 'GET', '/v1/test/slow', { key: acc.key, headers: { 'idempotency-key': 'concurrent' } });
    expectProblem(second, 409, 'idempotency_key_in_use');
    expect(second.headers['retry-after']).toBe('1');
    gate.resolve();
    const done = await first;
    expect(done.status).toBe(200);
    const third = await call(s.base, 'GET', '/v1/test/slow', { key: acc.key, headers: { 'idempotency-key': 'concurrent' } });
    expect(third.text).toBe(done.text);
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(remaining(acc.id)).toBe(start - 2);
  });

  it('a non-2xx answer is not kept: the retry runs again, is charged once, and is then kept', async () => {
    const acc = await s.account('premium');
    const start = remaining(acc.id)!;
    const h = { 'idempotency-key': 'flaky-1' };
    expect((await call(s.base, 'GET', '/v1/test/flaky', { key: acc.key, headers: h })).status).toBe(404);
    expect(remaining(acc.id)).toBe(start);
    const ok = await call(s.base, 'GET', '/v1/test/flaky', { key: acc.key, headers: h });
    expect(ok.status).toBe(200);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
    const replay = await call(s.base, 'GET', '/v1/test/flaky', { key: acc.key, headers: h });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(ok.text);
    expect(remaining(acc.id)).toBe(start - 1);
  });

  it('a kept answer is replayed for 24 hours, then the key runs a new request', async () => {
    const acc = await s.account('enterprise');
    const first = await post(acc.key, 'day-old', '{"a":5}');
    s.clock.advance(24 * 3_600_000 - 1_000);
    expect((await post(acc.key, 'day-old', '{"a":5}')).headers['idempotent-replayed']).toBe('true');
    s.clock.advance(2_000);
    const fresh = await post(acc.key, 'day-old', '{"a":5}');
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.json.run).not.toBe(first.json.run);
    expect(fresh.headers['x-credits-cost']).toBe('3');
  });

  it('free endpoints ignore the header (nothing to charge twice)', async () => {
    const acc = await s.account('premium');
    const a = await call(s.base, 'GET', '/v1/test/free', { key: acc.key, headers: { 'idempotency-key': 'f' } });
    const b = await call(s.base, 'GET', '/v1/test/free', { key: acc.key, headers: { 'idempotency-key': 'f' } });
    expect(b.json.run).toBe(a.json.run + 1);
  });

  it('a malformed key is a 400 naming the header, and charges nothing', async () => {
    const acc = await s.account('premium');
    const start = remaining(acc.id);
    const bad = async (headerLines: string) => {
      const body = '{"a":1}';
      const ex = await rawSend(
        s.port,
        `POST /v1/test/echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acc.key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n${headerLines}Connection: close\r\n\r\n${body}`,
      );
      const r = parseResponse(await ex.closed)!;
      expect(r.status, headerLines).toBe(400);
      const json = JSON.parse(r.body);
      expect(json.code).toBe('invalid_request');
      expect(json.errors[0].path).toBe('header.Idempotency-Key');
      return json.errors[0].message as string;
    };
    expect(await bad('Idempotency-Key: \r\n')).toBe('empty');
    expect(await bad('Idempotency-Key:    \r\n')).toBe('empty');
    expect(await bad(`Idempotency-Key: ${'k'.repeat(256)}\r\n`)).toBe('longer than 255 characters');
    expect(await bad('Idempotency-Key: caf\xe9\r\n')).toBe('only printable ASCII characters are allowed');
    expect(await bad('Idempotency-Key: one\r\nIdempotency-Key: two\r\n')).toBe('send it once');
    expect(remaining(acc.id)).toBe(start);
    // 255 printable characters are fine.
    expect((await post(acc.key, `${'k'.repeat(254)}~`, '{"a":1}')).status).toBe(200);
  });
});
