import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrMarketSchema } from '../../schemas/api/str.ts';
import { SECTIONS } from '../../service/domain/str/market.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let conn: DuckDBConnection;
let dir: string;
/** The outcode and sector with the most listings, and the listing point in the outcode with most neighbours. */
let area: { outcode: string; sector: string; lat: number; lng: number; postcode: string };

const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, any>[];

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 4000, seed: 11 });
  conn = await (await DuckDBInstance.create(':memory:')).connect();
  dir = join(s.dataDir, 'current');
  await conn.run(`CREATE VIEW l AS SELECT * FROM read_parquet('${dir}/str_listings.parquet')`);
  await conn.run(`CREATE VIEW m AS SELECT * FROM read_parquet('${dir}/str_listing_months.parquet')`);
  await conn.run(`CREATE VIEW am AS SELECT * FROM read_parquet('${dir}/str_area_months.parquet')`);
  const [o] = await rows(`SELECT outcode, count(*) n FROM l WHERE outcode IS NOT NULL GROUP BY 1 ORDER BY n DESC, outcode LIMIT 1`);
  const [sec] = await rows(`SELECT sector, count(*) n FROM l WHERE sector IS NOT NULL GROUP BY 1 ORDER BY n DESC, sector LIMIT 1`);
  const [p] = await rows(`SELECT lat, lng, postcode FROM l WHERE outcode = '${o!.outcode}' AND postcode IS NOT NULL ORDER BY id LIMIT 1`);
  area = { outcode: o!.outcode, sector: sec!.sector, lat: p!.lat, lng: p!.lng, postcode: p!.postcode };
}, 180_000);
afterAll(async () => {
  conn?.closeSync();
  await s?.stop();
});

const get = (q: string) => call(s.base, 'GET', `/v1/str/market?${q}`, { key });

function ok(r: Reply) {
  expect(r.status, r.text).toBe(200);
  expect(r.headers['x-credits-cost']).toBe('3');
  return StrMarketSchema.parse(r.json) as any;
}

function refused(r: Reply, status: number, path?: string) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toContain('application/problem+json');
  expect(r.headers['x-credits-cost']).toBe('0');
  if (path) expect(r.json.errors.map((e: { path: string }) => e.path)).toContain(path);
}

/** Haversine metres in SQL, as the service measures. */
const dist = (lat: number, lng: number) =>
  `2 * 6371008.8 * asin(least(1, sqrt(sin(radians(l.lat - ${lat}) / 2) ^ 2 + cos(radians(${lat})) * cos(radians(l.lat)) * sin(radians(l.lng - ${lng}) / 2) ^ 2)))`;

describe('GET /v1/str/market', () => {
  it('outcode: every section of the spec, 3 credits, figures equal the published area table', async () => {
    const r = await get(`outcode=${area.outcode.toLowerCase()}`);
    const m = ok(r);
    expect(Object.keys(r.json).sort()).toEqual(['country', 'currency', 'listings', 'location', ...SECTIONS].sort());
    const [n] = await rows(`SELECT count(*) AS n FROM l WHERE outcode = '${area.outcode}'`);
    expect(m.listings).toBe(Number(n!.n));
    expect(m.location).toBe(area.outcode);
    expect(m.currency).toBe('GBP');
    expect(['England', 'Wales', 'Scotland']).toContain(m.country);
    const [counts] = await rows(`SELECT count(*) FILTER (WHERE active) AS active, count(*) FILTER (WHERE blocked) AS blocked FROM l WHERE outcode = '${area.outcode}'`);
    expect(m.summary.active_listings).toBe(Number(counts!.active));
    expect(m.supply.active_listings).toBe(Number(counts!.active));
    expect(m.supply.blocked_listings).toBe(Number(counts!.blocked));

    // 24 consecutive months ending at the scrape month, each equal to the area table's row.
    const months = await rows(`SELECT strftime(month, '%Y-%m') AS month, adr, occupancy, revenue_per_listing, revpar, yoy_revenue_change FROM am WHERE area_level = 'outcode' AND area_code = '${area.outcode}' ORDER BY month`);
    expect(m.historical).toHaveLength(24);
    expect(m.historical.map((h: any) => h.month)).toEqual(months.map((x) => x.month));
    m.historical.forEach((h: any, g: number) => {
      const x = months[g]!;
      expect(h.adr).toBeCloseTo(x.adr ?? 0, 1);
      expect(h.occupancy_pct).toBeCloseTo((x.occupancy ?? 0) * 100, 0);
      expect(h.revenue_pcm).toBeCloseTo(x.revenue_per_listing ?? 0, 1);
      expect(h.revpar).toBeCloseTo(x.revpar ?? 0, 1);
      // yoy is a fraction; the first year compares with str_listing_prior_months.
      if (x.yoy_revenue_change === null) expect(h.yoy_revenue_change).toBeNull();
      else expect(h.yoy_revenue_change).toBeCloseTo(x.yoy_revenue_change, 3);
    });

    // Summary: the last 12 months' sums over the outcode's listings.
    const [ltm] = await rows(`
      SELECT sum(revenue) / sum(booked_nights) AS adr, sum(booked_nights) / sum(available_nights) AS occ,
             sum(revenue) / sum(available_nights) AS revpar, sum(revenue) / count(*) FILTER (WHERE live) AS pcm
      FROM m JOIN l USING (id) WHERE l.outcode = '${area.outcode}' AND m.month > (SELECT max(month) FROM m) - INTERVAL 12 MONTH`);
    expect(m.summary.adr).toBeCloseTo(ltm!.adr, 1);
    expect(m.summary.occupancy_pct).toBeCloseTo(ltm!.occ * 100, 0);
    expect(m.summary.revpar).toBeCloseTo(ltm!.revpar, 1);
    expect(m.summary.revenue_pcm).toBeCloseTo(ltm!.pcm, 1);
    expect(m.summary.revenue_annual).toBeCloseTo(m.summary.revenue_pcm * 12, 0);

    for (const k of ['wifi_pct', 'kitchen_pct', 'washing_machine_pct', 'parking_pct']) expect(m.amenities).toHaveProperty(k);
    for (const v of Object.values(m.amenities) as number[]) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(100);
    expect(m.by_listing_type.reduce((t: number, x: any) => t + x.listings, 0)).toBe(m.summary.active_listings);
    expect(m.ratings.count_with_rating).toBeGreaterThan(0);
    expect(m.demand.lead_time_avg_days).toBeNull();
    expect(m.demand.length_of_stay_avg).toBeGreaterThanOrEqual(3);
    expect(['A', 'B', 'C', 'D', 'E', 'F']).toContain(m.grade.letter);
    expect(m.grade.strongest.length).toBeGreaterThan(0);
    for (const d of m.grade.strongest) expect(m.grade.weakest).not.toContain(d);
  });

  it('postcode sector, written with its space (without it, BS14 would be a district, so it is refused)', async () => {
    const m = ok(await get(`postcode=${encodeURIComponent(area.sector)}`));
    expect(m.location).toBe(area.sector);
    const [c] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE sector = '${area.sector}'`);
    expect(m.summary.active_listings).toBe(Number(c!.n));
    const lower = ok(await get(`postcode=${encodeURIComponent(area.sector.toLowerCase())}`));
    expect(lower.summary).toEqual(m.summary);
    const compact = await get(`postcode=${area.sector.replace(' ', '')}`);
    expect(compact.status).toBe(400);
    expect(compact.json.errors[0].message).toMatch(/use outcode/);
  });

  it('full postcode: listings within 1 km of its point', async () => {
    const m = ok(await get(`postcode=${encodeURIComponent(area.postcode)}`));
    expect(m.location).toBe(`within 1000 m of ${area.postcode}`);
    const [pt] = (await (await conn.runAndReadAll(`SELECT lat, lng FROM read_parquet('${dir}/postcodes.parquet') WHERE postcode = '${area.postcode}'`)).getRowObjectsJson()) as any[];
    const [c] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE ${dist(pt.lat, pt.lng)} <= 1000`);
    expect(m.summary.active_listings).toBe(Number(c!.n));
    // With radius_m, as comparables take it: within that radius of the postcode's point.
    const wide = ok(await get(`postcode=${encodeURIComponent(area.postcode)}&radius_m=3000`));
    expect(wide.location).toBe(`within 3000 m of ${area.postcode}`);
    const [w] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE ${dist(pt.lat, pt.lng)} <= 3000`);
    expect(wide.summary.active_listings).toBe(Number(w!.n));
    expect(Number(w!.n)).toBeGreaterThan(Number(c!.n));
  });

  it('lat, lng and radius_m: the listings within the radius', async () => {
    const m = ok(await get(`lat=${area.lat}&lng=${area.lng}&radius_m=3000&include=summary,supply`));
    const [c] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE ${dist(area.lat, area.lng)} <= 3000`);
    expect(m.summary.active_listings).toBe(Number(c!.n));
    expect(m.location).toBe(`within 3000 m of ${area.lat}, ${area.lng}`);
    const five = ok(await get(`lat=${area.lat}&lng=${area.lng}&radius_m=5000&include=summary`));
    expect(five.summary.active_listings).toBeGreaterThanOrEqual(m.summary.active_listings);
  });

  it('polygon: the listings inside the ring (a triangle and a square)', async () => {
    const d = 0.03;
    const [x, y] = [area.lng, area.lat];
    const square = `${x - d},${y - d} ${x + d},${y - d} ${x + d},${y + d} ${x - d},${y + d}`;
    const m = ok(await get(`polygon=${encodeURIComponent(square)}&include=summary`));
    expect(m.location).toBe('polygon of 4 points');
    const [c] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE lng BETWEEN ${x - d} AND ${x + d} AND lat BETWEEN ${y - d} AND ${y + d}`);
    expect(m.summary.active_listings).toBe(Number(c!.n));
    // Below the line from (x - d - e, y - d) to (x + d, y + d) (not through the listing at x, y).
    const e = 0.001;
    const tri = `${x - d - e},${y - d} ${x + d},${y - d} ${x + d},${y + d}`;
    const t = ok(await get(`polygon=${encodeURIComponent(tri)}&include=summary`));
    const [ct] = await rows(`SELECT count(*) FILTER (WHERE active) AS n FROM l WHERE lng BETWEEN ${x - d} AND ${x + d} AND lat BETWEEN ${y - d} AND ${y + d} AND lat - ${y - d} < (lng - ${x - d - e}) * ${(2 * d) / (2 * d + e)}`);
    expect(t.summary.active_listings).toBe(Number(ct!.n));
  });

  it('country from the listings\' postcodes, never a default: each country\'s outcodes, and a polygon across borders takes the majority', async () => {
    const byCountry = await rows(`SELECT country, min(outcode) AS outcode FROM l WHERE outcode IS NOT NULL GROUP BY country ORDER BY country`);
    expect(byCountry.length).toBeGreaterThanOrEqual(2);
    for (const c of byCountry) {
      // An outcode lies in one country: its listings' country is the answer.
      expect(ok(await get(`outcode=${c.outcode}&include=summary`)).country).toBe(c.country);
    }
    // A ring around the whole region, across the English, Welsh and Scottish towns.
    const [bb] = await rows(`SELECT min(lng) - 0.01 AS x0, max(lng) + 0.01 AS x1, min(lat) - 0.01 AS y0, max(lat) + 0.01 AS y1 FROM l`);
    const ring = `${bb!.x0},${bb!.y0} ${bb!.x1},${bb!.y0} ${bb!.x1},${bb!.y1} ${bb!.x0},${bb!.y1}`;
    const [major] = await rows(`SELECT country FROM l WHERE country IS NOT NULL GROUP BY country ORDER BY count(*) DESC, country LIMIT 1`);
    const all = ok(await get(`polygon=${encodeURIComponent(ring)}&include=summary`));
    expect(all.country).toBe(major!.country);
    const [n] = await rows(`SELECT count(*) AS n FROM l`);
    expect(all.listings).toBe(Number(n!.n));
  });

  it('include: only the named sections beside location, country and currency', async () => {
    const r = await get(`outcode=${area.outcode}&include=summary,historical,grade`);
    ok(r);
    expect(Object.keys(r.json).sort()).toEqual(['country', 'currency', 'grade', 'historical', 'listings', 'location', 'summary']);
    for (const sec of SECTIONS) {
      const one = await get(`outcode=${area.outcode}&include=${sec}`);
      ok(one);
      expect(Object.keys(one.json).sort()).toEqual(['country', 'currency', 'listings', 'location', sec].sort());
    }
  });

  it('filters apply to the listings', async () => {
    const q = `outcode=${area.outcode}`;
    const active = async (where: string) => Number((await rows(`SELECT count(*) FILTER (WHERE active) n FROM l WHERE outcode = '${area.outcode}' AND ${where}`))[0]!.n);

    const eh = ok(await get(`${q}&listing_type=entire_home`));
    expect(eh.by_listing_type.map((x: any) => x.listing_type)).toEqual(['entire_home']);
    expect(eh.summary.active_listings).toBe(await active(`listing_type = 'entire_home'`));

    const b2 = ok(await get(`${q}&bedrooms=2`));
    expect(b2.by_bedrooms.map((x: any) => x.bedrooms)).toEqual([2]);
    expect(b2.summary.active_listings).toBe(await active('bedrooms = 2'));

    const range = ok(await get(`${q}&min_bedrooms=1&max_bedrooms=2`));
    for (const x of range.by_bedrooms) expect([1, 2]).toContain(x.bedrooms);
    expect(range.summary.active_listings).toBe(await active('bedrooms BETWEEN 1 AND 2'));

    const house = await get(`${q}&property_type=house`);
    if ((await active(`property_type = 'house'`)) > 0) expect(ok(house).summary.active_listings).toBe(await active(`property_type = 'house'`));

    const rated = ok(await get(`${q}&min_rating=4.8`));
    expect(rated.summary.active_listings).toBe(await active('rating_overall >= 4.8'));
    expect(rated.ratings.overall_avg).toBeGreaterThanOrEqual(4.8);

    const tiers = ok(await get(`${q}&price_tier=Budget&price_tier=Luxury`));
    for (const x of tiers.by_price_tier) expect(['Budget', 'Luxury']).toContain(x.tier);
    expect(tiers.summary.active_listings).toBe(await active(`price_tier IN ('Budget', 'Luxury')`));
    const [t] = await rows(`SELECT price_tier FROM l WHERE outcode = '${area.outcode}' AND active AND price_tier IS NOT NULL ORDER BY id LIMIT 1`);
    const one = ok(await get(`${q}&price_tier=${t!.price_tier}`));
    expect(one.by_price_tier.map((x: any) => x.tier)).toEqual([t!.price_tier]);
  });

  it('404, charged nothing: an unknown area, or filters no listing matches', async () => {
    refused(await get('outcode=ZZ99'), 404);
    refused(await get('postcode=ZZ99%209ZZ'), 404);
    refused(await get(`outcode=${area.outcode}&bedrooms=19`), 404);
  });

  it('400 naming the field, charged nothing', async () => {
    const { lat, lng, outcode } = area;
    refused(await get('include=summary'), 400, 'query.location');
    refused(await get(`outcode=${outcode}&postcode=${encodeURIComponent(area.sector)}`), 400, 'query.location');
    refused(await get(`outcode=${outcode}&lat=${lat}&lng=${lng}&radius_m=100`), 400, 'query.location');
    refused(await get(`lat=${lat}&lng=${lng}`), 400, 'query.location');
    refused(await get(`lat=${lat}&radius_m=100`), 400, 'query.location');
    refused(await get('radius_m=100'), 400, 'query.location');
    refused(await get(`postcode=${encodeURIComponent(area.sector)}&radius_m=100`), 400, 'query.radius_m');
    refused(await get(`outcode=${outcode}&radius_m=100`), 400, 'query.radius_m');
    refused(await get(`lat=${lat}&lng=${lng}&radius_m=5001`), 400, 'query.radius_m');
    refused(await get(`lat=${lat}&lng=${lng}&radius_m=0`), 400, 'query.radius_m');
    refused(await get(`polygon=${encodeURIComponent('-2.6,51.4 -2.5,51.4')}`), 400, 'query.polygon');
    refused(await get(`polygon=${encodeURIComponent('-2.6,51.4 -2.5 51.5,-2.5,1')}`), 400, 'query.polygon');
    refused(await get(`polygon=abc`), 400, 'query.polygon');
    refused(await get(`postcode=NOTAPOSTCODE`), 400, 'query.postcode');
    refused(await get(`outcode=12345`), 400, 'query.outcode');
    refused(await get(`outcode=${outcode}&listing_type=hotel_room`), 400, 'query.listing_type');
    refused(await get(`outcode=${outcode}&property_type=castle`), 400, 'query.property_type');
    refused(await get(`outcode=${outcode}&bedrooms=two`), 400, 'query.bedrooms');
    refused(await get(`outcode=${outcode}&min_bedrooms=3&max_bedrooms=2`), 400, 'query.min_bedrooms');
    refused(await get(`outcode=${outcode}&min_rating=6`), 400, 'query.min_rating');
    refused(await get(`outcode=${outcode}&price_tier=Cheap`), 400);
    refused(await get(`outcode=${outcode}&include=summary,colour`), 400, 'query.include');
    refused(await get(`outcode=${outcode}&colour=red`), 400);
  });
});
