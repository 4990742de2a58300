import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backtest } from '../../bench/backtest.ts';
import { SaleValuationSchema } from '../../schemas/api/valuation.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let sourcesDir: string;
let sold: Record<string, unknown>;
let unsoldWithArea: Record<string, unknown> | undefined;
let unsoldNoArea: Record<string, unknown> | undefined;
let scottish: Record<string, unknown> | undefined;
let scottishWithArea: Record<string, unknown> | undefined;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  ({ sourcesDir } = await publishSynthBuild(s.dataDir, { addresses: 2000, seed: 11 }));
  const db = await buildSql(s.dataDir);
  const englandWales = `country IN ('England', 'Wales')`;
  [sold] = (await db.q(`SELECT * FROM properties WHERE last_sold_price IS NOT NULL AND ${englandWales} ORDER BY uprn LIMIT 1`)) as [Record<string, unknown>];
  [unsoldWithArea] = await db.q(`SELECT * FROM properties WHERE last_sold_price IS NULL AND floor_area_sqft > 0 AND ${englandWales} ORDER BY uprn LIMIT 1`);
  [unsoldNoArea] = await db.q(`SELECT * FROM properties WHERE last_sold_price IS NULL AND floor_area_sqft IS NULL AND ${englandWales} ORDER BY uprn LIMIT 1`);
  [scottish] = await db.q(`SELECT * FROM properties WHERE country = 'Scotland' ORDER BY uprn LIMIT 1`);
  [scottishWithArea] = await db.q(`SELECT * FROM properties WHERE country = 'Scotland' AND floor_area_sqft > 0 ORDER BY uprn LIMIT 1`);
  db.close();
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const get = (uprn: unknown) => call(s.base, 'GET', `/v1/valuations/${uprn}/sale`, { key });

describe('GET /v1/valuations/{uprn}/sale', () => {
  it('a sold home: High / last_sold_growth, the spec fields, bounds 90% and 110%, 3 credits', async () => {
    const r = await get(sold.uprn);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('3');
    expect(SaleValuationSchema.strict().parse(r.json)).toBeTruthy();
    expect(Object.keys(r.json).sort()).toEqual(['confidence', 'currency', 'lower_bound', 'method', 'postcode', 'upper_bound', 'uprn', 'value']);
    expect(r.json).toMatchObject({ uprn: String(sold.uprn), postcode: sold.postcode, confidence: 'High', method: 'last_sold_growth', currency: 'GBP' });
    expect(r.json.lower_bound / r.json.value).toBeCloseTo(0.9, 2);
    expect(r.json.upper_bound / r.json.value).toBeCloseTo(1.1, 2);
    // Brought to today from its last sale: within a factor of 3 of that price.
    const ratio = r.json.value / Number(sold.last_sold_price);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(3);
  });

  it('a home never sold with a floor area: Medium / sqft_estimate', async () => {
    if (!unsoldWithArea) return expect.fail('the region has no unsold home with a floor area');
    const r = await get(unsoldWithArea.uprn);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ confidence: 'Medium', method: 'sqft_estimate' });
  });

  it('a home never sold without a floor area: Low / comparables', async () => {
    if (!unsoldNoArea) return expect.fail('the region has no unsold home without a floor area');
    const r = await get(unsoldNoArea.uprn);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ confidence: 'Low', method: 'comparables' });
  });

  it('the property record carries the same value as service_estimate, and it over the floor area as service_sqft', async () => {
    const sale = (await get(sold.uprn)).json;
    const rec = (await call(s.base, 'GET', `/v1/properties/${sold.uprn}?fields=service_estimate,service_sqft,floor_area_sqft`, { key })).json;
    expect(rec.service_estimate).toBe(sale.value);
    if (rec.floor_area_sqft) expect(rec.service_sqft).toBe(Math.round(sale.value / rec.floor_area_sqft));
    else expect(rec.service_sqft).toBeNull();
    const none = (await call(s.base, 'GET', `/v1/properties/${scottish!.uprn}?fields=service_estimate,service_sqft`, { key })).json;
    expect(none).toEqual({ service_estimate: null, service_sqft: null });
  });

  it('is reproducible: the same sources rebuilt by the ETL and served by a second server give the same answers', async () => {
    // A separate ETL run (its own DATA_DIR, tables and model; not a copy from the run's build
    // cache), not the first server's model asked twice.
    const other = await startTestServer();
    try {
      const otherKey = (await other.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
      const rebuilt = await publishSynthBuild(other.dataDir, { addresses: 2000, seed: 11, fresh: true });
      expect(rebuilt.sourcesDir).toBe(sourcesDir);
      for (const home of [sold, unsoldWithArea, unsoldNoArea]) {
        const a = await get(home!.uprn);
        const b = await call(other.base, 'GET', `/v1/valuations/${home!.uprn}/sale`, { key: otherKey });
        expect(a.status).toBe(200);
        expect(b.json, String(home!.uprn)).toEqual(a.json);
      }
    } finally {
      await other.stop();
    }
  }, 180_000);

  it('a Scottish home, even with a certificate\'s floor area, is a free 404 not_covered saying Scottish sale prices are not open data', async () => {
    if (!scottish) return expect.fail('the region has no Scottish home');
    if (!scottishWithArea) return expect.fail('no Scottish home has a floor area');
    for (const home of [scottish, scottishWithArea]) {
      const r = await get(home.uprn);
      expect(r.status).toBe(404);
      expect(r.json.code).toBe('not_covered');
      expect(r.json.detail).toContain(`UPRN ${home.uprn} is outside the data's coverage`);
      expect(r.json.detail).toMatch(/Scottish sale prices are not open data/);
      expect(r.json.detail).toMatch(/Registers of Scotland/);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('an unknown UPRN is a 404, charged nothing', async () => {
    const r = await get('999999999999');
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
    expect(r.json.detail).toContain('No property with UPRN');
    expect(r.headers['x-credits-cost']).toBe('0');
  });

  it('a malformed UPRN is a 400 naming the field, charged nothing', async () => {
    for (const bad of ['abc', '12x', '1234567890123']) {
      const r = await get(bad);
      expect(r.status).toBe(400);
      expect(r.json.errors[0].path).toBe('params.uprn');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('takes no query parameters: an unknown one is a 400', async () => {
    const r = await call(s.base, 'GET', `/v1/valuations/${sold.uprn}/sale?foo=1`, { key });
    expect(r.status).toBe(400);
  });
});

describe('backtest (bench/backtest.ts) on the same 2,000-address region', () => {
  it('meets the accuracy targets loosely, rung by rung, with no home left unvalued', async () => {
    const res = await backtest(s.dataDir, sourcesDir);
    const o = res.overall;
    // About 80 homes and a thin index (measured 9.6% against the true value, 12.6% against the
    // price): loose bounds that a broken model misses by far. The 100,000-address figures and
    // targets are in docs/valuation.md.
    expect(o.n).toBeGreaterThan(40);
    expect(res.coverage.none).toBe(0);
    expect(o.mdape_vs_true).toBeLessThanOrEqual(12);
    expect(o.mdape_vs_sale).toBeLessThanOrEqual(16);
    expect(o.within_20).toBeGreaterThanOrEqual(60);
    const high = res.by_rung.High!;
    expect(high.n).toBeGreaterThan(40);
    expect(high.mdape_vs_true).toBeLessThanOrEqual(12);
    const low = res.by_rung.Low!;
    if (low.n >= 5) expect(high.mdape_vs_true).toBeLessThan(low.mdape_vs_true);
  }, 60_000);
});
