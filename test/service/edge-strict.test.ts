/**
 * Strict at the edge (issue 45, part 4), on a real server with no build loaded: a request
 * that passes validation reaches the build check and gets 503 data_unavailable, so 503 here
 * means "accepted" and 400/415 "refused". Raw sockets where the bytes on the wire matter
 * (two Authorization headers, a key in the path, a compressed body).
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDir, readLogRecords } from '../../service/ledger/index.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { call, meteredRoute, rawExchange, startTestServer, type TestServer } from './support.ts';

/** A metered route that needs no build, so a charge (and its debit record) happens here. */
const metered = meteredRoute('metered', 3);

let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer({ routes: [...V1_ROUTES, metered] });
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 10_000 })).key;
});
afterAll(() => s?.stop());

const listings = (query: string) => call(s.base, 'GET', `/v1/listings?outcode=BS1&${query}`, { key });

const raw = (text: string) => rawExchange(s.port, text);

describe('query numbers: one strict decimal grammar for every endpoint', () => {
  it.each([
    ['per_page=0x1F', 'query.per_page'],
    ['per_page=%201', 'query.per_page'],
    ['per_page=1%20', 'query.per_page'],
    ['page=%2B1', 'query.page'],
    ['page=01', 'query.page'],
    ['page=1.0', 'query.page'],
    ['page=1e1', 'query.page'],
    ['min_bedrooms=1e-400', 'query.min_bedrooms'],
    ['min_price=-0', 'query.min_price'],
    ['min_price=Infinity', 'query.min_price'],
    ['min_price=', null],
  ])('%s', async (query, field) => {
    const r = await listings(query);
    if (field === null) {
      expect(r.status).toBe(503); // blank is absent
      return;
    }
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual([field]);
    expect(r.json.errors[0].message).toMatch(/plain decimal/);
  });

  it('plain decimals are accepted: integers, negative and fractional numbers where numbers are wanted', async () => {
    expect((await listings('per_page=31&page=2&min_price=0&min_bedrooms=1')).status).toBe(503);
    expect((await call(s.base, 'GET', '/v1/listings?lat=51.45&lng=-2.59&radius_m=250.5', { key })).status).toBe(503);
    for (const q of ['lat=51.45e0&lng=-2.59', 'lat=51.45&lng=-2.59&radius_m=.5', 'lat=51.45&lng=-0&radius_m=100']) {
      const r = await call(s.base, 'GET', `/v1/listings?${q}`, { key });
      expect(r.status, q).toBe(400);
    }
  });
});

describe('unknown query parameters, whatever their name', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'per_page_'])('?%s=x is a 400 naming it', async (name) => {
    const r = await listings(`${name}=x`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.errors)).toContain(name);
  });
});

describe('JSON bodies: uncompressed UTF-8 only', () => {
  const post = (body: Buffer, headers: Record<string, string>) => call(s.base, 'POST', '/v1/valuations/str-estimate', { key, headers: { 'content-type': 'application/json', ...headers }, body });
  const json = Buffer.from(JSON.stringify({ postcode: 'BS1 4DJ', bedrooms: 2 }));

  it('Content-Encoding: gzip is a 415, not read as text', async () => {
    const r = await post(gzipSync(json), { 'content-encoding': 'gzip' });
    expect(r.status).toBe(415);
    expect(r.json.code).toBe('unsupported_media_type');
    expect(r.json.detail).toMatch(/uncompressed/);
  });

  it('charset=utf-16 is a 415; utf-8 and no charset are read', async () => {
    const utf16 = Buffer.from(`\ufeff${json.toString()}`, 'utf16le');
    const r = await post(utf16, { 'content-type': 'application/json; charset=utf-16' });
    expect(r.status).toBe(415);
    expect(r.json.detail).toMatch(/UTF-8/);
    expect((await post(json, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(503);
    expect((await post(json, { 'content-encoding': 'identity' })).status).toBe(503);
  });

  it('bytes that are not UTF-8 are a 400 on body', async () => {
    const r = await post(Buffer.concat([Buffer.from('{"postcode":"BS1 4DJ","bedrooms":2,"x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]), {});
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ path: 'body', message: 'not UTF-8' }]);
  });
});

describe('headers', () => {
  it('two Authorization headers (raw socket): 400, not served with the first', async () => {
    const { head, body } = await raw(`GET /v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer pi_live_other\r\nConnection: close\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    const json = JSON.parse(body);
    expect(json.code).toBe('invalid_request');
    expect(json.errors).toEqual([{ path: 'headers.authorization', message: 'given 2 times; send it once' }]);
    expect(body).not.toContain('account_id');
  });

  it('every authenticated answer carries Cache-Control: no-store, errors included', async () => {
    expect((await call(s.base, 'GET', '/v1/account', { key })).headers['cache-control']).toBe('no-store');
    expect((await listings('per_page=0x1F')).headers['cache-control']).toBe('no-store');
    expect((await call(s.base, 'GET', '/v1/account', { key: 'pi_live_wrong-key-000000' })).headers['cache-control']).toBe('no-store');
  });
});

describe('keys in the URL are never echoed nor logged', () => {
  const secret = 'pi_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_x';

  it('a key in the path (raw socket): the 404 detail and the access log show it redacted', async () => {
    const { head, body } = await raw(`GET /v1/account/${secret} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(head).toMatch(/^HTTP\/1\.1 404 /);
    expect(JSON.parse(body).detail).toBe('No such endpoint: /v1/account/pi_live_[redacted]');
    expect(s.logs.join('\n')).not.toContain('AbCdEfGhIjKl');
    expect(s.logs.some((l) => l.includes('/v1/account/pi_live_[redacted]'))).toBe(true);
  });

  it('a key as a parameter name or value is not echoed in the 400', async () => {
    const r = await listings(`${secret}=1&per_page=${secret.replace('live', 'test')}`);
    expect(r.status).toBe(400);
    expect(r.text).not.toContain('AbCdEfGhIjKl');
    expect(r.text).toContain('pi_live_[redacted]');
    expect(r.text).toContain('pi_test_[redacted]');
  });
});

describe('request ids', () => {
  it('a charged call: the debit keeps the server\'s unique id and the caller\'s beside it', async () => {
    const send = () => call(s.base, 'GET', '/v1/test/metered', { key, headers: { 'x-request-id': 'client-chosen-01' } });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(a.headers['x-client-request-id']).toBe('client-chosen-01');
    const debits = (await readLogRecords(ledgerDir(s.dataDir))).records.filter((r) => r.t === 'debit' && r.e === 'GET /v1/test/metered');
    expect(debits.map((d) => d.t === 'debit' && [d.r, d.cr, d.c])).toEqual([
      [a.headers['x-request-id'], 'client-chosen-01', 3],
      [b.headers['x-request-id'], 'client-chosen-01', 3],
    ]);
    // Without a caller id, the debit has none.
    const c = await call(s.base, 'GET', '/v1/test/metered', { key });
    const last = (await readLogRecords(ledgerDir(s.dataDir))).records.filter((r) => r.t === 'debit').at(-1)!;
    expect(last).toMatchObject({ r: c.headers['x-request-id'] });
    expect('cr' in last).toBe(false);
  });
});
