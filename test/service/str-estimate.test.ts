import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrEstimateSchema } from '../../schemas/api/str.ts';
import { publishSynthBuild } from '../support/published.ts';
import { postJson, startTestServer, type Reply, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
/** A listing with the most other eligible listings within 2 km, and a property near it. */
let spot: { lat: number; lng: number; postcode: string; uprn: string; bedrooms: number; property_type: string };

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 4000, seed: 11 });
  const conn = await (await DuckDBInstance.create(':memory:')).connect();
  const dir = join(s.dataDir, 'current');
  const rows = (await conn.runAndReadAll(`
    WITH l AS (SELECT * FROM read_parquet('${dir}/str_listings.parquet') WHERE active AND listing_type = 'entire_home' AND bedrooms IS NOT NULL),
    best AS (
      SELECT a.id, a.lat, a.lng, count(*) AS near FROM l a JOIN l b ON abs(a.lat - b.lat) < 0.015 AND abs(a.lng - b.lng) < 0.02
      GROUP BY ALL ORDER BY near DESC, a.id LIMIT 1
    )
    SELECT best.lat, best.lng, p.uprn::VARCHAR AS uprn, p.postcode, p.bedrooms, p.property_type
    FROM best, read_parquet('${dir}/properties.parquet') p
    WHERE p.bedrooms IS NOT NULL AND p.lat IS NOT NULL
    ORDER BY (p.lat - best.lat) ^ 2 + (p.lng - best.lng) ^ 2, p.uprn LIMIT 1`)).getRowObjectsJson() as Record<string, unknown>[];
  conn.closeSync();
  const r = rows[0]!;
  spot = { lat: Number(r.lat), lng: Number(r.lng), postcode: String(r.postcode), uprn: String(r.uprn), bedrooms: Number(r.bedrooms), property_type: String(r.property_type) };
}, 120_000);
afterAll(async () => {
  await s?.stop();
});

const post = (body: unknown) => postJson(s.base, '/v1/valuations/str-estimate', key, body);

function expectRefused(r: Reply, status: number, path?: string) {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toContain('application/problem+json');
  expect(r.headers['x-credits-cost']).toBe('0');
  if (path) expect(r.json.errors.map((e: { path: string }) => e.path)).toContain(path);
}

describe('POST /v1/valuations/str-estimate', () => {
  it('lat and lng: the spec object, 12 months January to December, 50 credits', async () => {
    const r = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2 });
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('50');
    const e = StrEstimateSchema.parse(r.json);
    expect(Object.keys(r.json).sort()).toEqual(['comps', 'confidence', 'currency', 'location_label', 'monthly_breakdown', 'projected_annual', 'projected_monthly']);
    expect(e.currency).toBe('GBP');
    expect(e.monthly_breakdown.map((m) => m.month)).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
    expect(e.comps.radius_m).toBe(2000);
    expect(e.comps.listings_sampled).toBeGreaterThan(0);
    expect(e.comps.listings_sampled).toBeLessThanOrEqual(100);
    expect(e.comps.similarity_weight_avg).toBeGreaterThan(0);
    expect(e.comps.similarity_weight_avg).toBeLessThanOrEqual(1);
    expect('comparables' in r.json.comps).toBe(false);
    // The months add up to the year; the year's figures are their ratios.
    const sum = e.monthly_breakdown.reduce((a, m) => a + m.revenue_pcm, 0);
    expect(Math.abs(sum - e.projected_annual.revenue)).toBeLessThan(2);
    expect(e.projected_monthly.revenue_pcm).toBeCloseTo(e.projected_annual.revenue / 12, -1);
    expect(e.projected_monthly.occupancy_pct).toBe(e.projected_annual.occupancy_pct);
    for (const m of e.monthly_breakdown) {
      expect(m.occupancy_pct).toBeGreaterThan(0);
      expect(m.occupancy_pct).toBeLessThanOrEqual(95);
      expect(m.revpar).toBeCloseTo((m.adr * m.occupancy_pct) / 100, 0);
    }
    // Real seasonality: the synthetic region's summer is busier and dearer than its winter.
    const by = Object.fromEntries(e.monthly_breakdown.map((m) => [m.month, m]));
    expect(by.Aug!.revenue_pcm).toBeGreaterThan(by.Jan!.revenue_pcm * 1.3);
    expect(e.projected_annual.high_season_months).toContain('Aug');
    expect(e.projected_annual.low_season_months).toContain('Jan');
    expect(e.location_label).toMatch(/^-?\d+\.\d+, -?\d+\.\d+/);
  });

  it('include_comparables lists the listings used with their documented fields, most similar and nearest first', async () => {
    const r = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, include_comparables: true });
    expect(r.status).toBe(200);
    const e = StrEstimateSchema.parse(r.json);
    const cs = e.comps.comparables!;
    expect(cs).toHaveLength(e.comps.listings_sampled);
    expect(Object.keys(cs[0]!).sort()).toEqual(['adr', 'bathrooms', 'bedrooms', 'distance_m', 'listing_id', 'occupancy_pct', 'property_type', 'revenue_annual', 'similarity_weight']);
    for (const c of cs) expect(c.distance_m).toBeLessThanOrEqual(2000);
    const avg = cs.reduce((a, c) => a + c.similarity_weight, 0) / cs.length;
    expect(e.comps.similarity_weight_avg).toBeCloseTo(avg, 2);
    expect(new Set(cs.map((c) => c.listing_id)).size).toBe(cs.length);
  });

  it('more bedrooms earn more; finish quality moves ADR by -10% to +10%', async () => {
    const base = { lat: spot.lat, lng: spot.lng, property_type: 'apartment', bathrooms: 1 };
    const one = (await post({ ...base, bedrooms: 1 })).json;
    const three = (await post({ ...base, bedrooms: 3 })).json;
    expect(three.projected_annual.revenue).toBeGreaterThan(one.projected_annual.revenue);
    const avg = (await post({ ...base, bedrooms: 2 })).json;
    const low = (await post({ ...base, bedrooms: 2, finish_quality: 'below_average' })).json;
    const high = (await post({ ...base, bedrooms: 2, finish_quality: 'very_high' })).json;
    const above = (await post({ ...base, bedrooms: 2, finish_quality: 'above_average' })).json;
    expect(low.projected_monthly.adr / avg.projected_monthly.adr).toBeCloseTo(0.9, 2);
    expect(above.projected_monthly.adr / avg.projected_monthly.adr).toBeCloseTo(1.05, 2);
    expect(high.projected_monthly.adr / avg.projected_monthly.adr).toBeCloseTo(1.1, 2);
    expect(high.projected_annual.occupancy_pct).toBe(avg.projected_annual.occupancy_pct);
    // Reproducible: same build, same inputs, same answer.
    expect((await post({ ...base, bedrooms: 2 })).json).toEqual(avg);
  });

  it('postcode: located at the postcode, labelled with it', async () => {
    const r = await post({ postcode: spot.postcode.replace(' ', '').toLowerCase(), bedrooms: 2 });
    expect(r.status).toBe(200);
    expect(r.json.location_label).toBe(spot.postcode);
    StrEstimateSchema.parse(r.json);
  });

  it('uprn: bedrooms and type from the property record when left out, labelled with the address', async () => {
    const r = await post({ uprn: spot.uprn });
    expect(r.status).toBe(200);
    const explicit = await post({
      uprn: spot.uprn, bedrooms: spot.bedrooms, bathrooms: Math.max(1, spot.bedrooms - 1),
      property_type: spot.property_type === 'Flat' ? 'apartment' : 'house',
    });
    expect(explicit.json).toEqual(r.json);
    expect(r.json.location_label).toMatch(new RegExp(spot.postcode));
    // A given bedroom count overrides the record's.
    const other = await post({ uprn: spot.uprn, bedrooms: spot.bedrooms + 2 });
    expect(other.json.projected_annual.revenue).not.toBe(r.json.projected_annual.revenue);
  });

  it('bathrooms default to max(1, bedrooms - 1)', async () => {
    const a = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 3, property_type: 'house' });
    const b = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 3, property_type: 'house', bathrooms: 2 });
    expect(a.json).toEqual(b.json);
    const c = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 0, property_type: 'apartment' });
    const d = await post({ lat: spot.lat, lng: spot.lng, bedrooms: 0, property_type: 'apartment', bathrooms: 1 });
    expect(c.json).toEqual(d.json);
  });

  it('400 naming the field, nothing charged: no location, two locations, half a point, no bedrooms, bad values, unknown fields', async () => {
    expectRefused(await post({ bedrooms: 2 }), 400, 'body.location');
    expectRefused(await post({ postcode: spot.postcode, lat: spot.lat, lng: spot.lng, bedrooms: 2 }), 400, 'body.location');
    expectRefused(await post({ uprn: spot.uprn, postcode: spot.postcode }), 400, 'body.location');
    expectRefused(await post({ lat: spot.lat, bedrooms: 2 }), 400, 'body.lng');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng }), 400, 'body.bedrooms');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2.5 }), 400, 'body.bedrooms');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: -1 }), 400, 'body.bedrooms');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: '2' }), 400, 'body.bedrooms');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, bathrooms: -1 }), 400, 'body.bathrooms');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, property_type: 'castle' }), 400, 'body.property_type');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, finish_quality: 'luxurious' }), 400, 'body.finish_quality');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, include_comparables: 'yes' }), 400, 'body.include_comparables');
    expectRefused(await post({ postcode: 'not a postcode', bedrooms: 2 }), 400, 'body.postcode');
    expectRefused(await post({ uprn: 'abc', bedrooms: 2 }), 400, 'body.uprn');
    expectRefused(await post({ lat: 10, lng: spot.lng, bedrooms: 2 }), 400, 'body.lat');
    expectRefused(await post({ lat: spot.lat, lng: spot.lng, bedrooms: 2, colour: 'red' }), 400);
  });

  it('404, nothing charged: unknown UPRN, unknown postcode, no listing within 2 km', async () => {
    expectRefused(await post({ uprn: '999999999999', bedrooms: 2 }), 404);
    expectRefused(await post({ postcode: 'ZZ9 9ZZ', bedrooms: 2 }), 404);
    const r = await post({ lat: 57.5, lng: -4.5, bedrooms: 2 });
    expectRefused(r, 404);
    expect(r.json.code).toBe('not_found');
    expect(r.json.detail).toContain('2 km');
  });
});
