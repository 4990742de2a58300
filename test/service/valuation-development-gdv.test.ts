import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevelopmentGdvSchema } from '../../schemas/api/valuation.ts';
import { GDV_FINISH_FACTOR, GDV_RADII_M, MIN_NEW_BUILD_SALES } from '../../service/domain/gdv.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { postJson, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let site: { uprn: string; postcode: string; lat: number; lng: number };
let expected: { radius_m: number; n: number; median: number } | undefined;
let edinburgh: { lat: number; lng: number } | undefined;

const dist = (lat: number, lng: number) =>
  `12742000 * asin(sqrt(pow(sin(radians(lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(lat)) * pow(sin(radians(lng - ${lng}) / 2), 2)))`;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 3000, seed: 11 });
  const db = await buildSql(s.dataDir);
  // A site next to new-build flat sales: the home of one of them.
  const [p] = await db.q(`SELECT p.uprn, p.postcode, p.lat, p.lng FROM sqft_sales s JOIN properties p USING (uprn) WHERE s.new_build AND s.kind = 'flat' ORDER BY p.uprn LIMIT 1`);
  site = { uprn: String(p!.uprn), postcode: String(p!.postcode), lat: Number(p!.lat), lng: Number(p!.lng) };
  for (const r of GDV_RADII_M) {
    const [row] = await db.q(`SELECT count(*)::INTEGER AS n, median(gbp_sqft) AS m FROM sqft_sales WHERE kind = 'flat' AND new_build AND ${dist(site.lat, site.lng)} <= ${r}`);
    if (Number(row!.n) >= MIN_NEW_BUILD_SALES) {
      expected = { radius_m: r, n: Number(row!.n), median: Number(row!.m) };
      break;
    }
  }
  [edinburgh] = (await db.q(`SELECT lat, lng FROM properties WHERE country = 'Scotland' ORDER BY uprn LIMIT 1`)).map((r) => ({ lat: Number(r.lat), lng: Number(r.lng) }));
  db.close();
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const post = (body: unknown) => postJson(s.base, '/v1/valuations/development-gdv', key, body);
const flats = [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }];

describe('POST /v1/valuations/development-gdv', () => {
  it('values a unit mix from new-build £/sq ft in the smallest radius with enough sales, for 5 credits', async () => {
    const r = await post({ uprn: site.uprn, units: flats });
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('5');
    DevelopmentGdvSchema.strict().parse(r.json);
    const e = r.json.evidence[0];
    expect(expected, 'the region has enough new-build flat sales near the site').toBeDefined();
    if (expected) {
      expect(e).toMatchObject({ property_type: 'flat', basis: 'new_build', count: expected.n, radius_m: expected.radius_m, new_build_premium: null });
      expect(e.median_gbp_sqft).toBeCloseTo(expected.median, 1);
    } else {
      expect(e.basis).toBe('resale_with_premium');
      expect(e.new_build_premium).toBeGreaterThan(0.8);
    }
    const line = r.json.lines[0];
    expect(line).toMatchObject({ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 });
    expect(Math.abs(line.value_per_unit - line.gbp_per_sqft * 700)).toBeLessThanOrEqual(500);
    expect(line.subtotal).toBe(line.value_per_unit * 10);
    expect(r.json.gdv).toBe(line.subtotal);
    expect(r.json.currency).toBe('GBP');
    expect(['High', 'Medium', 'Low']).toContain(r.json.confidence);
  });

  it('the same site by postcode and by lat+lng gives evidence from the same places', async () => {
    const byPc = await post({ postcode: site.postcode.toLowerCase(), units: flats });
    const byPoint = await post({ lat: site.lat, lng: site.lng, units: flats });
    expect(byPc.status).toBe(200);
    expect(byPoint.status).toBe(200);
    const byUprn = await post({ uprn: site.uprn, units: flats });
    expect(byPoint.json).toEqual(byUprn.json);
  });

  it('a mix of houses and flats: one line per unit type, the total their sum; finish scales £/sq ft', async () => {
    const units = [...flats, { property_type: 'house', bedrooms: 3, floor_area_sqft: 1000, count: 4 }];
    const r = await post({ uprn: site.uprn, units });
    expect(r.status).toBe(200);
    expect(r.json.lines).toHaveLength(2);
    expect(r.json.evidence.map((e: { property_type: string }) => e.property_type).sort()).toEqual(['flat', 'house']);
    expect(r.json.gdv).toBe(r.json.lines[0].subtotal + r.json.lines[1].subtotal);
    const hi = await post({ uprn: site.uprn, units, finish_quality: 'very_high' });
    expect(hi.json.lines[0].gbp_per_sqft).toBeCloseTo(r.json.lines[0].gbp_per_sqft * GDV_FINISH_FACTOR.very_high, 1);
  });

  it('a Scottish site (Scotland is not in Price Paid): a free 404 not_covered saying why', async () => {
    if (!edinburgh) return expect.fail('the region has no Scottish home');
    const r = await post({ lat: edinburgh.lat, lng: edinburgh.lng, units: flats });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_covered');
    expect(r.json.detail).toContain('Scottish sale prices are not open data');
    expect(r.headers['x-credits-cost']).toBe('0');
  });

  it('unknown UPRN or postcode: 404', async () => {
    for (const body of [{ uprn: '999999999999', units: flats }, { postcode: 'ZZ9 9ZZ', units: flats }]) {
      const r = await post(body);
      expect(r.status).toBe(404);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('exactly one location form; bad units are 400 naming the field; nothing charged', async () => {
    const cases: [unknown, string][] = [
      [{ units: flats }, 'body.location'],
      [{ uprn: site.uprn, postcode: site.postcode, units: flats }, 'body.location'],
      [{ uprn: site.uprn, lat: site.lat, lng: site.lng, units: flats }, 'body.location'],
      [{ lat: site.lat, units: flats }, 'body.lng'],
      [{ uprn: site.uprn, units: [] }, 'body.units'],
      [{ uprn: site.uprn }, 'body.units'],
      [{ uprn: site.uprn, units: [{ ...flats[0], property_type: 'castle' }] }, 'body.units.0.property_type'],
      [{ uprn: site.uprn, units: [{ ...flats[0], floor_area_sqft: undefined }] }, 'body.units.0.floor_area_sqft'],
      [{ uprn: site.uprn, units: [{ ...flats[0], floor_area_sqft: -5 }] }, 'body.units.0.floor_area_sqft'],
      [{ uprn: site.uprn, units: [{ ...flats[0], count: 0 }] }, 'body.units.0.count'],
      [{ uprn: site.uprn, units: [{ ...flats[0], bedrooms: 2.5 }] }, 'body.units.0.bedrooms'],
      [{ uprn: site.uprn, units: flats, finish_quality: 'luxury' }, 'body.finish_quality'],
      [{ uprn: site.uprn, units: flats, colour: 'red' }, 'body'],
      [{ postcode: 'BS1', units: flats }, 'body.postcode'],
      [{ lat: 95, lng: -2.6, units: flats }, 'body.lat'],
    ];
    for (const [body, field] of cases) {
      const r = await post(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors.map((e: { path: string }) => e.path).join(' '), JSON.stringify(body)).toContain(field);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
