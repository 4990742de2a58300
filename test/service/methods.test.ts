/**
 * HEAD and OPTIONS say the same thing (issue 44): an unmetered GET (health, status, the
 * OpenAPI document, the docs) answers HEAD with its headers and no body, and OPTIONS offers
 * HEAD there; a metered GET refuses HEAD (it would charge for an empty answer) and OPTIONS
 * does not offer it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1000, windowMs: 10_000 })).key;
});
afterAll(async () => {
  await s?.stop();
});

describe('HEAD', () => {
  it('an unmetered GET answers HEAD with the GET headers and no body', async () => {
    for (const path of ['/healthz', '/v1/openapi.json', '/docs']) {
      const get = await call(s.base, 'GET', path);
      const head = await call(s.base, 'HEAD', path);
      expect(head.status, path).toBe(get.status);
      expect(head.text, path).toBe('');
      expect(head.headers['content-type'], path).toBe(get.headers['content-type']);
      expect(head.headers['content-length'], path).toBe(get.headers['content-length']);
    }
  });

  it('a metered GET refuses HEAD with 405 and Allow: GET, and charges nothing', async () => {
    const before = (await s.ledger.account((await s.ledger.authenticate(key))!.account_id, new Date(s.clock.ms)))!.used_this_cycle;
    const r = await call(s.base, 'HEAD', '/v1/properties/1', { key });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET');
    const after = (await s.ledger.account((await s.ledger.authenticate(key))!.account_id, new Date(s.clock.ms)))!.used_this_cycle;
    expect(after).toBe(before);
  });
});

describe('OPTIONS', () => {
  const allow = async (path: string) => {
    const r = await call(s.base, 'OPTIONS', path);
    expect(r.status, path).toBeLessThan(300);
    return String(r.headers.allow).split(/,\s*/).sort();
  };
  it('offers HEAD where HEAD is served, and not on metered routes', async () => {
    expect(await allow('/healthz')).toEqual(['GET', 'HEAD']);
    expect(await allow('/v1/openapi.json')).toEqual(['GET', 'HEAD']);
    expect(await allow('/v1/account')).toEqual(['GET']);
    expect(await allow('/v1/properties/200000005')).toEqual(['GET']);
    expect(await allow('/v1/valuations/str-estimate')).toEqual(['POST']);
  });
});
