import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSynthBuild } from '../support/published.ts';
import { call, postJson, startTestServer, type TestServer } from './support.ts';

// A build published before the valuation_evidence stage (no rent_lets, sqft_sales,
// hmo_yields_area): the three endpoints answer 503 data_unavailable and charge nothing.
let s: TestServer;
let key: string;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 2000, seed: 11 });
  for (const t of ['rent_lets', 'sqft_sales', 'hmo_yields_area']) rmSync(join(s.dataDir, 'current', `${t}.parquet`));
}, 120_000);
afterAll(async () => {
  await s.stop();
});

describe('a build without the valuation evidence tables', () => {
  it('HMO, GDV, rental valuation and long-term rents are 503 data_unavailable, nothing charged', async () => {
    const replies = [
      await call(s.base, 'GET', '/v1/valuations/200000005/rental', { key }),
      await call(s.base, 'GET', '/v1/valuations/200000005/hmo', { key }),
      await call(s.base, 'GET', '/v1/rents/long-term?outcode=BS1', { key }),
      await postJson(s.base, '/v1/valuations/development-gdv', key, { lat: 51.45, lng: -2.59, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 1 }] }),
    ];
    for (const r of replies) {
      expect(r.status).toBe(503);
      expect(r.json.code).toBe('data_unavailable');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
