import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from './support.ts';

/**
 * A build published before the location tables existed (here: a build folder with a
 * manifest and no tables at all): the five endpoints (crime, schools, listings, deals, HMO licences) answer 503 data_unavailable for it and
 * charge nothing, rather than failing or answering empty.
 */
let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise')).key;
  const dir = join(s.dataDir, 'builds', 'old-build');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ build_id: 'old-build' }));
  symlinkSync(dir, join(s.dataDir, 'current'));
}, 60_000);

afterAll(async () => {
  await s?.stop();
});

describe('location endpoints on a build without their tables', () => {
  for (const path of [
    '/v1/crime?lat=51.45&lng=-2.59',
    '/v1/schools?lat=51.45&lng=-2.59',
    '/v1/listings?lat=51.45&lng=-2.59',
    '/v1/sourcing/deals?lat=51.45&lng=-2.59',
    '/v1/hmo/licences?lat=51.45&lng=-2.59',
  ]) {
    it(`${path.split('?')[0]}: 503 data_unavailable, free`, async () => {
      const r = await call(s.base, 'GET', path, { key });
      expect(r.status).toBe(503);
      expect(r.json.code).toBe('data_unavailable');
      expect(r.json.detail).toMatch(/does not serve GET/);
      expect(r.headers['x-credits-cost']).toBe('0');
    });
  }
});
