/**
 * Operations: health, readiness, status, metrics and logs from a real server, before
 * and after a build is published under DATA_DIR (picked up without a restart).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { call, startTestServer, type TestServer } from './support.ts';

const BUILD_ID = '20260115T090000Z-abc123';

function publishBuild(dataDir: string): void {
  const dir = join(dataDir, 'builds', BUILD_ID);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({ build_id: BUILD_ID, created_at: '2026-01-15T09:00:00Z', schema_version: 1, sources: [{ name: 'ppd', as_of: '2025-12-31' }], tables: {} }),
  );
  symlinkSync(join('builds', BUILD_ID), join(dataDir, 'current'));
}

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('scale')).key;
  s.clock.tickMs = 1_000;
});
afterAll(() => s.stop());

describe('operational endpoints', () => {
  it('healthz is up; readyz and status say no build', async () => {
    expect((await call(s.base, 'GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await call(s.base, 'GET', '/readyz')).status).toBe(503);
    expect((await call(s.base, 'GET', '/v1/status')).json).toEqual({ status: 'no_data', build_id: null, build_created_at: null, sources: [], source_as_of: {}, address_source: null, sales_coverage: null });
  });

  it('a published build is picked up without a restart', async () => {
    publishBuild(s.dataDir);
    expect((await call(s.base, 'GET', '/readyz')).json).toEqual({ status: 'ready', build_id: BUILD_ID });
    expect((await call(s.base, 'GET', '/v1/status')).json).toEqual({ status: 'ok', build_id: BUILD_ID, build_created_at: '2026-01-15T09:00:00Z', sources: [{ name: 'ppd', as_of: '2025-12-31' }], source_as_of: {}, address_source: null, sales_coverage: null });
    // Data endpoints not built yet still answer 503 and charge nothing.
    const r = await call(s.base, 'GET', '/v1/properties/12345', { key });
    expect(r.status).toBe(503);
    expect(r.json.detail).toBe('The current data build does not serve GET /properties/{uprn} yet.');
    expect(r.headers['x-credits-cost']).toBe('0');
    expect(r.headers['x-credits-remaining']).toBe('100000');
    // A served endpoint whose data this (older) build lacks: the same 503, and clients are
    // told to look again in an hour (its data comes with a later build).
    const p = await call(s.base, 'GET', '/v1/yields?outcode=BS1', { key });
    expect(p.status).toBe(503);
    expect(p.json.code).toBe('data_unavailable');
    expect(p.json.detail).toBe('The current data build does not serve GET /yields yet.');
    expect(p.headers['retry-after']).toBe('3600');
    expect(p.headers['x-credits-cost']).toBe('0');
    expect(p.headers['x-credits-remaining']).toBe('100000');
  });

  it('metrics: requests by route and status, latency, credits, rate limits, build id', async () => {
    await call(s.base, 'GET', '/v1/account', { key });
    const m = await call(s.metricsBase, 'GET', '/metrics');
    expect(m.status).toBe(200);
    expect(m.headers['content-type']).toMatch(/^text\/plain/);
    expect(m.text).toMatch(/http_requests_total\{method="GET",route="GET \/v1\/account",status="200"\} 1/);
    expect(m.text).toMatch(/http_requests_total\{method="GET",route="GET \/v1\/properties\/\{uprn\}",status="503"\} 1/);
    expect(m.text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",method="GET",route="GET \/v1\/account"\}/);
    expect(m.text).toContain('# TYPE credits_spent_total counter');
    expect(m.text).toContain('# TYPE rate_limited_total counter');
    expect(m.text).toContain(`data_build_info{build_id="${BUILD_ID}"} 1`);
    // The process's own metrics, for memory and event-loop alerts (docs/operations.md).
    expect(m.text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(m.text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    // Unknown paths share one label: the cardinality stays bounded.
    await call(s.base, 'GET', '/v1/random-path-123');
    expect((await call(s.metricsBase, 'GET', '/metrics')).text).toMatch(/route="unmatched",status="404"/);
  });

  it('metrics are served on their own port only: the API port answers 404 problem+json', async () => {
    const api = await call(s.base, 'GET', '/metrics');
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(api.text).not.toContain('http_requests_total');
    // The metrics listener serves /metrics and nothing else.
    expect((await call(s.metricsBase, 'GET', '/v1/account', { key })).status).toBe(404);
    expect((await call(s.metricsBase, 'POST', '/metrics')).status).toBe(405);
  });

  it('logs: one JSON line per request with the request id, never the key', async () => {
    const r = await call(s.base, 'GET', '/v1/account/usage', { key, headers: { 'x-request-id': 'log-check-0001' } });
    // The server's own id, unique; the caller's beside it.
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-client-request-id']).toBe('log-check-0001');
    const lines = s.logs.map((l) => JSON.parse(l));
    const line = lines.find((l) => l.request_id === r.headers['x-request-id'] && l.msg === 'request');
    expect(line.client_request_id).toBe('log-check-0001');
    expect(line).toMatchObject({ level: 30, method: 'GET', route: 'GET /v1/account/usage', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(line.account_id).toMatch(/^acc_/);
    expect(s.logs.join('\n')).not.toContain(key);
    expect(s.logs.join('\n')).not.toContain(key.slice(-16));
  });

  it('an unsafe caller request id is dropped: not echoed, not logged', async () => {
    const r = await call(s.base, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers['x-client-request-id']).toBeUndefined();
    expect(s.logs.join('\n')).not.toContain('bad id with spaces');
  });

  it('one caller id sent twice: two unique server ids, each request logged with both', async () => {
    const a = await call(s.base, 'GET', '/healthz', { headers: { 'x-request-id': 'same-id-twice' } });
    const b = await call(s.base, 'GET', '/healthz', { headers: { 'x-request-id': 'same-id-twice' } });
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    const lines = s.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.client_request_id === 'same-id-twice');
    expect(lines.map((l) => l.request_id).sort()).toEqual([a.headers['x-request-id'], b.headers['x-request-id']].sort());
  });

  it('every registry route is reachable (no 404/405 for its own method)', async () => {
    for (const route of V1_ROUTES) {
      const path = `/v1${route.path.replace('{uprn}', '1').replace('{postcode}', 'BS14DJ').replace('{code}', 'BS1')}`;
      const r = await call(s.base, route.method, path);
      expect(r.status, path).toBe(401);
    }
  });
});
