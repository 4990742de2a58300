import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../etl/pipeline/context.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

const BUILD_A = '20251001T000000Z-aaaaaa';
const BUILD_B = '20251002T000000Z-bbbbbb';
const BUILD_C = '20251003T000000Z-cccccc';
const BUILD_D = '20251004T000000Z-dddddd';

let s: TestServer;
let key: string;
let ctx: BuildContext;
let some: { uprn: number; address: string; postcode: string };

beforeAll(async () => {
  ctx = await stagedContext(2000, 11);
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishFromContext(ctx, s.dataDir, BUILD_A);
  const [r] = (await ctx.conn.runAndReadAll(`SELECT uprn, address, postcode FROM addresses WHERE building_number = '32' AND sub_building IS NULL ORDER BY uprn LIMIT 1`)).getRowObjectsJson();
  some = { uprn: Number(r!.uprn), address: String(r!.address), postcode: String(r!.postcode) };
});
afterAll(async () => {
  await s.stop();
});

const search = (qs: string) => call(s.base, 'GET', `/v1/addresses/search?${qs}`, { key });

describe('GET /v1/addresses/search', () => {
  it('finds an address typed loosely, with the spec fields, ranked by a 0–1 score, for 1 credit', async () => {
    const q = some.address.replace(/, [A-Z0-9 ]+$/, '').toLowerCase().replace('road', 'rd');
    const r = await search(`q=${encodeURIComponent(q)}`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('1');
    expect(r.json.count).toBe(r.json.results.length);
    expect(r.json.results[0]).toMatchObject({ uprn: some.uprn, address: some.address, postcode: some.postcode });
    const top = r.json.results[0];
    expect(Object.keys(top).sort()).toEqual(['address', 'latitude', 'longitude', 'postcode', 'score', 'uprn']);
    expect(typeof top.uprn).toBe('number');
    expect(typeof top.latitude).toBe('number');
    const scores = r.json.results.map((m: { score: number }) => m.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const sc of scores) expect(sc).toBeGreaterThanOrEqual(0), expect(sc).toBeLessThanOrEqual(1);
  });

  it('limit defaults to 10 and is capped at 50', async () => {
    expect((await search('q=road')).json.count).toBe(10);
    expect((await search('q=road&limit=50')).json.count).toBe(50);
    expect((await search('q=road&limit=3')).json.count).toBe(3);
    expect((await search('q=road&limit=50')).headers['x-limit-capped']).toBeUndefined();
    // The spec: "capped at 50": a larger limit is served at 50, and the answer says so.
    for (const big of ['51', '999']) {
      const r = await search(`q=road&limit=${big}`);
      expect(r.status, big).toBe(200);
      expect(r.json.count).toBe(50);
      expect(r.headers['x-limit-capped']).toBe(`limit=${big} was capped to 50`);
    }
    for (const bad of ['limit=0', 'limit=abc', 'limit=2.5', 'limit=5&limit=6']) {
      const r = await search(`q=road&${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.json.code).toBe('invalid_request');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('q is required and at least 2 characters', async () => {
    for (const qs of ['', 'q=a', 'q=%20%20b%20']) {
      const r = await search(qs);
      expect(r.status, qs).toBe(400);
      expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(['query.q']);
    }
    expect((await search('q=zz')).status).toBe(200);
  });

  it('unknown query parameters are a 400', async () => {
    const r = await search('q=road&sort=score');
    expect(r.status).toBe(400);
  });

  it('requests while a new build is published all succeed, and the new build is then served', async () => {
    expect((await search('q=road')).headers['x-build-id']).toBe(BUILD_A);
    const queries = ['road', some.address.slice(0, 12), `32 ${some.postcode}`, 'flat 2', some.postcode.split(' ')[0]!];
    let publishing = true;
    const statuses: number[] = [];
    let afterSwitch = 0;
    const load = (async () => {
      // Keep going for 20 rounds after `current` switched: those meet the new build's index loading.
      while (publishing || afterSwitch++ < 20) {
        const batch = await Promise.all(queries.map((q) => search(`q=${encodeURIComponent(q)}&limit=5`)));
        for (const r of batch) statuses.push(r.status);
      }
    })();
    await publishFromContext(ctx, s.dataDir, BUILD_B);
    publishing = false;
    await load;
    expect(statuses.length).toBeGreaterThanOrEqual(100);
    expect(statuses.filter((x) => x !== 200)).toEqual([]);
    // The new build serves once the warmer has opened all of it (no deadline asserted: only that it happens).
    for (let i = 0; i < 600 && (await search('q=road')).headers['x-build-id'] !== BUILD_B; i++) await new Promise((r) => setTimeout(r, 100));
    const after = await search('q=road');
    expect(after.status).toBe(200);
    expect(after.headers['x-build-id']).toBe(BUILD_B);
  });
});

/** Waits until `build` serves, asking the property endpoint (not search: its index's blocks stay unread). */
async function servedBy(build: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const r = await call(s.base, 'GET', `/v1/properties/${some.uprn}`, { key });
    if (r.headers['x-build-id'] === build) return;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${build} never served`);
}

const expectUnavailable = (r: Awaited<ReturnType<typeof search>>) => {
  expect(r.status, r.text).toBe(503);
  expect(r.headers['content-type']).toBe('application/problem+json');
  expect(r.json.code).toBe('data_unavailable');
  expect(r.headers['x-credits-cost']).toBe('0');
};

describe('GET /v1/addresses/search over an index file it cannot read (read where it lies, issue 46)', () => {
  it('a build published with its index cut short: 503 problem+json for search, the rest served', async () => {
    await publishFromContext(ctx, s.dataDir, BUILD_C, (dir) => truncateSync(join(dir, 'search-index.bin'), 4096));
    await servedBy(BUILD_C);
    expectUnavailable(await search('q=road'));
    expect((await call(s.base, 'GET', `/v1/properties/${some.uprn}`, { key })).status).toBe(200);
  });

  it('an index cut short in place after it was opened: 503 problem+json, never a partial answer', async () => {
    const dir = await publishFromContext(ctx, s.dataDir, BUILD_D);
    await servedBy(BUILD_D);
    // Opened by the warmer, its addresses and postings not read yet: the query must read them.
    truncateSync(join(dir, 'search-index.bin'), 4096);
    expectUnavailable(await search(`q=${encodeURIComponent(some.address.slice(0, 14))}`));
    expectUnavailable(await search('q=road'));
  });
});
