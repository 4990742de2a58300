import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RentalValuationSchema } from '../../schemas/api/valuation.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// The expectations are computed in SQL over the published rent_lets: which lets lie within
// each radius (haversine), of the home's bedroom group (4 = four or more); the weighting
// itself is unit-tested in test/unit/rental-valuation.test.ts.
let s: TestServer;
let key: string;
let db: Awaited<ReturnType<typeof buildSql>>;
let home: { uprn: string; postcode: string; bedrooms: number; lat: number; lng: number };

const dist = (lat: number | string, lng: number | string) =>
  `12742000 * asin(sqrt(pow(sin(radians(l.lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(l.lat)) * pow(sin(radians(l.lng - ${lng}) / 2), 2)))`;
const likeLets = (h: { lat: number; lng: number }, bedrooms: number, radius: number) =>
  db.q(`SELECT count(*)::INTEGER AS n, min(rent_pcm) AS lo, max(rent_pcm) AS hi, avg(rent_pcm) AS mean FROM rent_lets l
        WHERE let_type = 'whole' AND l.lat IS NOT NULL AND least(bedrooms, 4) = ${Math.min(4, bedrooms)} AND ${dist(h.lat, h.lng)} <= ${radius}`).then((r) => r[0]!);

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 3000, seed: 11 });
  db = await buildSql(s.dataDir);
  // A home with bedrooms in the sector with the most whole lets.
  const [h] = await db.q(`WITH top AS (SELECT sector FROM rent_lets WHERE let_type = 'whole' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1)
    SELECT uprn::VARCHAR AS uprn, postcode, bedrooms, lat, lng FROM properties WHERE sector = (SELECT sector FROM top) AND bedrooms BETWEEN 1 AND 3 AND lat IS NOT NULL ORDER BY uprn LIMIT 1`);
  home = { uprn: String(h!.uprn), postcode: String(h!.postcode), bedrooms: Number(h!.bedrooms), lat: Number(h!.lat), lng: Number(h!.lng) };
}, 120_000);
afterAll(async () => {
  db.close();
  await s.stop();
});

const get = (uprn: string, qs = '') => call(s.base, 'GET', `/v1/valuations/${uprn}/rental${qs}`, { key });

describe('GET /v1/valuations/{uprn}/rental', () => {
  it('values a home from the like lets of the first radius holding five, for 3 credits', async () => {
    const r = await get(home.uprn);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('3');
    RentalValuationSchema.strict().parse(r.json);
    expect(r.json).toMatchObject({ uprn: Number(home.uprn), postcode: home.postcode, bedrooms: home.bedrooms, currency: 'GBP' });
    const radius = r.json.search_radius_m as number;
    const radii = [220, 670, 1300];
    for (const smaller of radii.filter((x) => x < radius)) expect(Number((await likeLets(home, home.bedrooms, smaller)).n)).toBeLessThan(5);
    const at = await likeLets(home, home.bedrooms, radius);
    expect(r.json.comparable_count).toBe(Number(at.n));
    if (radius < 1300) expect(r.json.comparable_count).toBeGreaterThanOrEqual(5);
    // The range is of the lets brought to today and to the home's size (exact figures:
    // test/unit/rental-valuation.test.ts), so it brackets the estimate.
    expect(r.json.min_rent).toBeLessThanOrEqual(r.json.monthly_rent);
    expect(r.json.max_rent).toBeGreaterThanOrEqual(r.json.monthly_rent);
    expect(r.json.min_rent).toBeLessThan(r.json.max_rent);
    expect(r.json.monthly_rent % 5).toBe(0);
    const [{ d }] = (await db.q(`SELECT max(let_date)::VARCHAR AS d FROM rent_lets WHERE let_type = 'whole' AND lat IS NOT NULL`)) as [{ d: string }];
    expect(r.json.as_of).toBe(d);
  });

  it('`bedrooms` overrides the recorded count and changes the lets searched', async () => {
    const other = home.bedrooms === 1 ? 3 : 1;
    const r = await get(home.uprn, `?bedrooms=${other}`);
    if (Number((await likeLets(home, other, 1300)).n) === 0) {
      expect(r.status).toBe(404);
      return;
    }
    expect(r.status).toBe(200);
    expect(r.json.bedrooms).toBe(other);
    expect(r.json.comparable_count).toBe(Number((await likeLets(home, other, r.json.search_radius_m)).n));
  });

  it('no like let within 1,300 m is a 404 saying so, charging nothing', async () => {
    // A home and bedroom group (0 … 4) with no whole let of that group within 1,300 m.
    const [h] = await db.q(`SELECT p.uprn::VARCHAR AS uprn, b.g FROM properties p, range(0, 5) b(g)
      WHERE p.lat IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rent_lets l WHERE l.let_type = 'whole' AND l.lat IS NOT NULL AND least(l.bedrooms, 4) = b.g
        AND ${dist('p.lat', 'p.lng')} <= 1300)
      ORDER BY p.uprn, b.g LIMIT 1`);
    expect(h, 'the synthetic region has a home with no like let within 1,300 m').toBeDefined();
    const r = await get(String(h!.uprn), `?bedrooms=${h!.g}`);
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
    expect(r.json.detail).toMatch(/within 1,300 m in the last 24 months/);
    expect(r.headers['x-credits-cost']).toBe('0');
  });

  it('an unknown UPRN is a 404; a bad UPRN or bedrooms, or an unknown parameter, a 400; none charged', async () => {
    const unknown = await get('999999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.json.detail).toBe('No property with UPRN 999999999999.');
    for (const [path, field] of [['abc', 'uprn'], [`${home.uprn}?bedrooms=-1`, 'bedrooms'], [`${home.uprn}?bedrooms=two`, 'bedrooms'], [`${home.uprn}?beds=2`, 'beds']] as const) {
      const [u, qs = ''] = path.split('?');
      const r = await get(u!, qs ? `?${qs}` : '');
      expect(r.status, path).toBe(400);
      expect(JSON.stringify(r.json), path).toContain(field);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
