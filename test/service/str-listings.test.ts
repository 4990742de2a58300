import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrListingsSchema } from '../../schemas/api/str.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// Expectations are SQL over the published str_listings: which listings an outcode or circle
// holds, in which order a sort puts them (ties by id), and their figures.
let s: TestServer;
let key: string;
let db: Awaited<ReturnType<typeof buildSql>>;
let outcode: string;
let point: { lat: number; lng: number };

const dist = (lat: number, lng: number) =>
  `12742000 * asin(sqrt(pow(sin(radians(lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(lat)) * pow(sin(radians(lng - ${lng}) / 2), 2)))`;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 4000, seed: 11 });
  db = await buildSql(s.dataDir);
  const [o] = await db.q(`SELECT outcode, count(*) n FROM str_listings WHERE outcode IS NOT NULL AND lat IS NOT NULL GROUP BY 1 ORDER BY n DESC, outcode LIMIT 1`);
  outcode = String(o!.outcode);
  const [p] = await db.q(`SELECT lat, lng FROM str_listings WHERE outcode = '${outcode}' AND lat IS NOT NULL ORDER BY id LIMIT 1`);
  point = { lat: Number(p!.lat), lng: Number(p!.lng) };
}, 180_000);
afterAll(async () => {
  db?.close();
  await s?.stop();
});

const get = (q: string) => call(s.base, 'GET', `/v1/str/listings?${q}`, { key });

describe('GET /v1/str/listings', () => {
  it('an outcode by revenue, highest first (none last, ties by id), paged, for 3 credits', async () => {
    const expected = await db.q(`SELECT id, revenue_ltm, lat, lng, bedrooms, listing_type, number_of_reviews, host_listings_count, scrape_date::VARCHAR AS scraped
      FROM str_listings WHERE outcode = '${outcode}' AND lat IS NOT NULL AND lng IS NOT NULL ORDER BY revenue_ltm DESC NULLS LAST, id`);
    expect(expected.length).toBeGreaterThan(4);
    const p1 = await get(`outcode=${outcode}&per_page=2`);
    expect(p1.status, p1.text).toBe(200);
    expect(p1.headers['x-credits-cost']).toBe('3');
    StrListingsSchema.strict().parse(p1.json);
    expect(p1.json).toMatchObject({ location_label: outcode, sort: 'revenue', page: 1, per_page: 2, total: expected.length, currency: 'GBP' });
    expect(p1.json.listings.map((l: { listing_id: string }) => l.listing_id)).toEqual(expected.slice(0, 2).map((r) => String(r.id)));
    const p2 = await get(`outcode=${outcode}&per_page=2&page=2`);
    expect(p2.json.listings.map((l: { listing_id: string }) => l.listing_id)).toEqual(expected.slice(2, 4).map((r) => String(r.id)));
    const first = p1.json.listings[0];
    const e = expected[0]!;
    expect(first).toMatchObject({
      listing_id: String(e.id), listing_type: e.listing_type, revenue_annual: Math.round(Number(e.revenue_ltm)),
      lat: Math.round(Number(e.lat) * 1000) / 1000, lng: Math.round(Number(e.lng) * 1000) / 1000,
      reviews_count: e.number_of_reviews, host_listings_count: e.host_listings_count, last_scraped: e.scraped, distance_m: null,
    });
    expect(typeof first.listing_id).toBe('string');
  });

  it('a circle by distance, nearest first, each with its distance; filters as GET /str/market', async () => {
    const r = await get(`lat=${point.lat}&lng=${point.lng}&radius_m=1500&sort=distance&per_page=50`);
    expect(r.status, r.text).toBe(200);
    const expected = await db.q(`SELECT id, ${dist(point.lat, point.lng)} AS d FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL AND ${dist(point.lat, point.lng)} <= 1500 ORDER BY d, id`);
    expect(r.json.total).toBe(expected.length);
    expect(r.json.listings.map((l: { listing_id: string }) => l.listing_id)).toEqual(expected.slice(0, 50).map((x) => String(x.id)));
    r.json.listings.forEach((l: { distance_m: number }, k: number) => expect(Math.abs(l.distance_m - Number(expected[k]!.d))).toBeLessThanOrEqual(1));
    const beds = await get(`outcode=${outcode}&bedrooms=2&per_page=50`);
    const [{ n }] = (await db.q(`SELECT count(*)::INTEGER AS n FROM str_listings WHERE outcode = '${outcode}' AND lat IS NOT NULL AND lng IS NOT NULL AND bedrooms = 2`)) as [{ n: number }];
    if (n === 0) expect(beds.status).toBe(404);
    else {
      expect(beds.json.total).toBe(n);
      for (const l of beds.json.listings) expect(l.bedrooms).toBe(2);
    }
  });

  it('a full postcode with radius_m, as comparables take it: the listings within that radius of its point', async () => {
    const [pc] = await db.q(`SELECT postcode, lat, lng FROM postcodes WHERE lat IS NOT NULL ORDER BY ${dist(point.lat, point.lng)}, postcode LIMIT 1`);
    const at = { lat: Number(pc!.lat), lng: Number(pc!.lng) };
    const r = await get(`postcode=${encodeURIComponent(String(pc!.postcode))}&radius_m=1500&sort=distance&per_page=50`);
    expect(r.status, r.text).toBe(200);
    const expected = await db.q(`SELECT id, ${dist(at.lat, at.lng)} AS d FROM str_listings WHERE lat IS NOT NULL AND lng IS NOT NULL AND ${dist(at.lat, at.lng)} <= 1500 ORDER BY d, id`);
    expect(r.json.total).toBe(expected.length);
    expect(r.json.listings.map((l: { listing_id: string }) => l.listing_id)).toEqual(expected.slice(0, 50).map((x) => String(x.id)));
  });

  it('400s: sort=distance without a point, per_page over 50, a page past the end, no location; nothing charged', async () => {
    const cases: [string, string][] = [
      [`outcode=${outcode}&sort=distance`, 'sort'],
      [`outcode=${outcode}&per_page=51`, 'per_page'],
      [`outcode=${outcode}&page=9999`, 'page'],
      [`sort=revenue`, 'location'],
      [`outcode=${outcode}&sort=price`, 'sort'],
    ];
    for (const [q, field] of cases) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(JSON.stringify(r.json.errors), q).toContain(field);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('an outcode the build does not know is a free 404; filters nothing passes are an empty, charged page', async () => {
    const none = await get('outcode=ZE3');
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('not_found');
    expect(none.json.detail).toBe('No postcode of the build lies in or within 2 km of ZE3, so which source covers it is not known.');
    expect(none.headers['x-credits-cost']).toBe('0');
    const filtered = await get(`outcode=${outcode}&bedrooms=20`);
    expect(filtered.status).toBe(200);
    expect(filtered.json).toMatchObject({ location_label: outcode, page: 1, total: 0, listings: [] });
    expect(filtered.headers['x-credits-cost']).toBe('3');
  });
});
