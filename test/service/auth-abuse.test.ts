/**
 * Authentication abuse against a real server: every bad key is a 401 (or a 400/431 for a
 * request that is itself malformed) with the same detail, a key in the query string is
 * never accepted nor logged, and checking a key takes the same time however much of a real
 * key it matches (keys are compared as SHA-256 hashes, never character by character).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let good: { id: string; key: string };

beforeAll(async () => {
  s = await startTestServer();
  good = await s.account('enterprise', { limit: 1_000_000, windowMs: 10_000 });
});
afterAll(() => s?.stop());

const account = (headers: Record<string, string>, path = '/v1/account') => call(s.base, 'GET', path, { headers });

describe('auth abuse', () => {
  it('missing, malformed, wrong, revoked and rotated-out keys: 401 with one detail', async () => {
    expect((await account({ authorization: `Bearer ${good.key}` })).status).toBe(200);
    const bad: Record<string, string>[] = [
      {},
      { authorization: '' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer ' },
      { authorization: `bearer ${good.key}` },
      { authorization: `Bearer  ${good.key}` },
      { authorization: `Bearer ${good.key}x` },
      { authorization: `Bearer ${good.key.slice(0, -1)}` },
      { authorization: `Basic ${Buffer.from(`user:${good.key}`).toString('base64')}` },
      { authorization: `Bearer ${'a'.repeat(201)}` },
      { authorization: `Bearer ${good.key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}` },
      { authorization: 'Bearer pi_live_é' },
      { 'x-api-key': good.key },
    ];
    const details = new Set<string>();
    for (const h of bad) {
      const r = await account(h);
      expect(r.status, JSON.stringify(h)).toBe(401);
      expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="api"');
      // Without the header the detail says how to send a key; every key that is sent but refused gets one detail.
      if (h.authorization) details.add(r.json.detail as string);
    }
    expect(details.size).toBe(1);

    const victim = await s.account('starter');
    const { api_key: rotated } = await s.ledger.rotateKey(victim.id, new Date(s.clock.ms));
    expect((await account({ authorization: `Bearer ${victim.key}` })).status).toBe(401);
    expect((await account({ authorization: `Bearer ${rotated}` })).status).toBe(200);
    await s.ledger.revokeKey(victim.id, new Date(s.clock.ms));
    const revoked = await account({ authorization: `Bearer ${rotated}` });
    expect(revoked.status).toBe(401);
    expect(details.has(revoked.json.detail as string)).toBe(true);
  });

  it('a key in the query string is not accepted, and not written to the log', async () => {
    const before = s.logs.length;
    const alone = await account({}, `/v1/account?api_key=${good.key}`);
    expect(alone.status).toBe(401);
    const both = await account({ authorization: `Bearer ${good.key}` }, `/v1/account?api_key=${good.key}`);
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.json.errors)).toMatch(/api_key/);
    const logged = s.logs.slice(before).join('\n');
    expect(logged).toContain('"status":401');
    expect(logged).not.toContain(good.key);
  });

  it('very long and very many headers: 431 problem+json, never a 500', async () => {
    const long = await account({ authorization: `Bearer ${'a'.repeat(20_000)}` });
    expect(long.status).toBe(431);
    expect(long.headers['content-type']).toMatch(/^application\/problem\+json/);
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h-${i}`, 'v']));
    const r = await account({ ...many, authorization: `Bearer ${good.key}` });
    expect([200, 400, 431]).toContain(r.status);
  });

  it('checking a key takes the same time whether it shares nothing or all but its last character with a real key', () => {
    const near = good.key.slice(0, -1) + (good.key.endsWith('A') ? 'B' : 'A');
    const far = 'pi_live_' + 'Z'.repeat(good.key.length - 8);
    expect(near.length).toBe(far.length);
    const perCall = (key: string, n: number) => {
      const t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) s.ledger.authenticate(key);
      return Number(process.hrtime.bigint() - t) / n;
    };
    perCall(near, 5_000);
    perCall(far, 5_000);
    // Interleaved batches, so drift in the machine's speed hits both alike; medians. The check
    // hashes the key (SHA-256) and looks the hash up, so nothing it does depends on how much
    // of a real key was guessed; this asserts that as measured, within ±25%.
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 60; i++) {
      a.push(perCall(near, 500));
      b.push(perCall(far, 500));
    }
    const med = (v: number[]) => v.sort((x, y) => x - y)[v.length >> 1]!;
    const ratio = med(a) / med(b);
    expect(s.ledger.authenticate(near)).toBeUndefined();
    expect(s.ledger.authenticate(far)).toBeUndefined();
    expect(ratio, `near ${med(a).toFixed(0)} ns, far ${med(b).toFixed(0)} ns per check`).toBeGreaterThan(0.8);
    expect(ratio).toBeLessThan(1.25);
  });
});
