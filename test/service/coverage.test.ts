import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_LETS } from '../../schemas/tables/market.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// The one rule for places no source covers (docs/api.md, "Coverage: places no source covers"),
// over a real synthetic build with English, Welsh and Scottish towns. The places are chosen by
// SQL over the published Parquet; the reasons are the sources' own facts, written out here.
let s: TestServer;
let key: string;
/** Metered accounts whose credits the uncovered calls must leave untouched (one per test: Premium allows 16 calls per 10 s). */
let metered: string[];
let db: Awaited<ReturnType<typeof buildSql>>;
let manifest: Awaited<ReturnType<typeof publishSynthBuild>>['manifest'];
const place: Record<'England' | 'Wales' | 'Scotland', { uprn: string; postcode: string; outcode: string; la_code: string; lat: number; lng: number }> = {} as never;

const PRICE_PAID = 'HM Land Registry Price Paid covers England and Wales only';
const GIAS = 'GIAS (Get Information About Schools) covers schools in England only';

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  metered = [(await s.account('premium')).key, (await s.account('premium')).key];
  ({ manifest } = await publishSynthBuild(s.dataDir, { addresses: 4000, seed: 11 }));
  db = await buildSql(s.dataDir);
  for (const country of ['England', 'Wales', 'Scotland'] as const) {
    const [p] = await db.q(`SELECT uprn::VARCHAR AS uprn, p.postcode, p.outcode, c.la_code, c.lat, c.lng FROM properties p JOIN postcodes c USING (postcode)
      WHERE p.country = '${country}' AND c.lat IS NOT NULL AND c.la_code IS NOT NULL ORDER BY uprn LIMIT 1`);
    expect(p, country).toBeDefined();
    place[country] = { uprn: String(p!.uprn), postcode: String(p!.postcode), outcode: String(p!.outcode), la_code: String(p!.la_code), lat: Number(p!.lat), lng: Number(p!.lng) };
  }
}, 240_000);
afterAll(async () => {
  db?.close();
  await s?.stop();
});

const get = (path: string, k = key) => call(s.base, 'GET', `/v1${path}`, { key: k });
const post = (path: string, body: object, k = key) => call(s.base, 'POST', `/v1${path}`, { key: k, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const pc = (p: { postcode: string }) => encodeURIComponent(p.postcode);
const gdvBody = (postcode: string) => ({ postcode, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }] });

/** A free 404 not_covered whose detail names the source; the account's credits are unchanged. */
async function expectNotCovered(r: Awaited<ReturnType<typeof get>>, source: string, what: string, before: string): Promise<void> {
  expect(r.status, `${what}: ${r.text}`).toBe(404);
  expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({ code: 'not_covered', status: 404, title: 'Not covered by the data', type: 'https://property-intelligence.example/problems/not-covered' });
  expect(r.json.detail, what).toContain(source);
  expect(r.headers['x-credits-cost'], what).toBe('0');
  expect(r.headers['x-credits-remaining'], what).toBe(before);
}

describe('a place no source covers: a free 404 not_covered naming the source', () => {
  it('Scottish places, for every endpoint that needs sale prices (Price Paid covers England and Wales)', async () => {
    const sc = place.Scotland;
    const k = metered[0]!;
    const before = String((await get('/account/usage', k)).headers['x-credits-remaining']);
    expect(before).toMatch(/^\d+$/);
    const cases: [string, () => ReturnType<typeof get>][] = [
      ['comparables by postcode', () => get(`/prices/comparables?postcode=${pc(sc)}`, k)],
      ['comparables by point', () => get(`/prices/comparables?lat=${sc.lat}&lng=${sc.lng}`, k)],
      ['comparables by UPRN', () => get(`/prices/comparables?uprn=${sc.uprn}`, k)],
      ['deals by outcode', () => get(`/sourcing/deals?outcode=${sc.outcode}`, k)],
      ['yields by outcode', () => get(`/yields?outcode=${sc.outcode}`, k)],
      ['trends by outcode', () => get(`/prices/trends?outcode=${sc.outcode}`, k)],
      ['trends by local authority', () => get(`/prices/trends?local_authority=${sc.la_code}`, k)],
      ['GDV by postcode', () => post('/valuations/development-gdv', gdvBody(sc.postcode), k)],
      ['sales of a home', () => get(`/properties/${sc.uprn}/sales`, k)],
      ['sale valuation', () => get(`/valuations/${sc.uprn}/sale`, k)],
      ['HMO valuation (its yield rests on sale prices)', () => get(`/valuations/${sc.uprn}/hmo`, k)],
    ];
    for (const [what, req] of cases) await expectNotCovered(await req(), PRICE_PAID, what, before);
    expect(String((await get('/account/usage', k)).headers['x-credits-remaining'])).toBe(before);
  });

  it('Welsh and Scottish places for schools (GIAS covers England)', async () => {
    const k = metered[1]!;
    const before = String((await get('/account/usage', k)).headers['x-credits-remaining']);
    for (const country of ['Wales', 'Scotland'] as const) {
      const p = place[country];
      await expectNotCovered(await get(`/schools?postcode=${pc(p)}`, k), GIAS, `${country} postcode`, before);
      await expectNotCovered(await get(`/schools?lat=${p.lat}&lng=${p.lng}`, k), GIAS, `${country} point`, before);
    }
  });

  it('a Welsh place is covered by Price Paid: comparables answer 200 with the sales SQL finds', async () => {
    const w = place.Wales;
    const r = await get(`/prices/comparables?postcode=${pc(w)}&radius_m=2000`);
    expect(r.status, r.text).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('5');
    expect(r.json.total).toBeGreaterThan(0);
  });
});

describe('a Scottish area is covered by the sources that reach it', () => {
  it('room rents of a Scottish outcode without room lets of its own widen to the local authority most of its postcodes lie in', async () => {
    // No price index is filed in Scotland, so the outcode's authority comes from the postcode directory.
    const [o] = await db.q(`WITH la AS (SELECT outcode, mode(la_code) AS la_code FROM postcodes WHERE country = 'Scotland' AND la_code IS NOT NULL GROUP BY outcode)
      SELECT la.outcode, la.la_code, d.median_pcm, d.sample_size FROM la
      JOIN rents_rooms d ON d.area_level = 'district' AND d.area_code = la.la_code AND d.source = 'evidence' AND d.sample_size >= ${MIN_LETS}
      WHERE la.outcode NOT IN (SELECT area_code FROM rents_rooms WHERE area_level = 'outcode') ORDER BY la.outcode LIMIT 1`);
    expect(o, 'a Scottish outcode without room lets in a district with enough').toBeDefined();
    const r = await get(`/rents/hmo?outcode=${o!.outcode}`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.area).toEqual({ level: 'outcode', code: o!.outcode });
    expect(r.json.from_area).toEqual({ level: 'district', code: o!.la_code, widened: true });
    expect(r.json.room).toMatchObject({ median_pcm: Number(o!.median_pcm), sample_size: Number(o!.sample_size), source: 'evidence' });
  });
});

describe('crime: police.uk has no Scottish force', () => {
  it('a Scottish postcode is a free 404 not_covered naming police.uk; a Welsh one is covered', async () => {
    const r = await get(`/crime?postcode=${pc(place.Scotland)}`);
    expect(r.status, r.text).toBe(404);
    expect(r.json.code).toBe('not_covered');
    expect(r.json.detail).toContain('Police Scotland does not publish to it');
    expect(r.headers['x-credits-cost']).toBe('0');
    const w = await get(`/crime?postcode=${pc(place.Wales)}`);
    expect(w.status, w.text).toBe(200);
  });
});

describe('a covered place where nothing matches: 200, an empty list and its sample size', () => {
  it('comparables in England with a date range after the data ends', async () => {
    const r = await get(`/prices/comparables?postcode=${pc(place.England)}&min_date=2099-01-01`);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ total: 0, total_pages: 0, comparables: [] });
    expect(r.headers['x-credits-cost']).toBe('5');
  });

  it('short-term-let listings in a Scottish outcode (Inside Airbnb covers the build\'s Scottish city) with none that pass the filters', async () => {
    const [o] = await db.q(`SELECT outcode FROM str_listings WHERE country = 'Scotland' AND outcode IS NOT NULL GROUP BY 1 ORDER BY 1 LIMIT 1`);
    expect(o).toBeDefined();
    const r = await get(`/str/listings?outcode=${o!.outcode}&bedrooms=20`);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ location_label: o!.outcode, page: 1, total: 0, listings: [] });
  });

});

describe('a flag whose layer is not loaded: null with a coverage note, never false', () => {
  it('listed_building of an English home, when the build has no listed-building layer', async () => {
    const planningFiles = manifest.sources.filter((x) => x.name === 'planning').map((x) => x.path.split('/').pop()!);
    expect(planningFiles.length).toBeGreaterThan(0);
    const listedLoaded = planningFiles.some((f) => f.startsWith('listed-building'));
    expect(listedLoaded).toBe(false); // the synthetic region ships flood, conservation and Article 4 layers only
    const r = await get(`/risks/${place.England.uprn}`);
    expect(r.status, r.text).toBe(200);
    expect(r.json.planning.listed_building).toBeNull();
    expect(typeof r.json.planning.conservation_area).toBe('boolean');
    expect(r.json.coverage).toEqual({ area: 'England', covered: true, note: 'No layer for listed_building is loaded in this build, so that flag is unknown (null), not false.' });
    expect(r.json.flags.map((f: { code: string }) => f.code)).not.toContain('listed_building');
  });
});
