import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LongTermRentsSchema } from '../../schemas/api/rents.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let sector: string;
let outcode: string;
let martRows: Record<string, unknown>[];
let postcode: string;
let point: { lat: number; lng: number };
let nearCount: number;
let flatCount: number;
let shrunkRows: Record<string, unknown>[];
let thinNear: { bedrooms: number; n: number }[];

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 3000, seed: 11 });
  const db = await buildSql(s.dataDir);
  // The sector with most whole lets, and the rent mart's evidence rows for it (same lets, same window).
  const [top] = await db.q(`SELECT sector, outcode, count(*) AS n FROM rent_lets WHERE let_type = 'whole' GROUP BY ALL ORDER BY n DESC, sector LIMIT 1`);
  sector = String(top!.sector);
  outcode = String(top!.outcode);
  martRows = await db.q(`SELECT * FROM rents_area WHERE area_level = 'sector' AND area_code = '${sector}' AND source = 'evidence' ORDER BY bedrooms`);
  const [pc] = await db.q(`SELECT postcode, lat, lng FROM postcodes WHERE sector = '${sector}' AND lat IS NOT NULL ORDER BY postcode LIMIT 1`);
  postcode = String(pc!.postcode);
  point = { lat: Number(pc!.lat), lng: Number(pc!.lng) };
  const [near] = await db.q(`SELECT count(*)::INTEGER AS n FROM rent_lets WHERE let_type = 'whole'
    AND 12742000 * asin(sqrt(pow(sin(radians(lat - ${point.lat}) / 2), 2) + cos(radians(${point.lat})) * cos(radians(lat)) * pow(sin(radians(lng - ${point.lng}) / 2), 2))) <= 1000`);
  nearCount = Number(near!.n);
  const [flats] = await db.q(`SELECT count(*)::INTEGER AS n FROM rent_lets WHERE let_type = 'whole' AND outcode = '${outcode}' AND property_type = 'flat'`);
  flatCount = Number(flats!.n);
  // Every thin sector group the mart shrank (its own lets under 10), and the radius groups with under 10 lets.
  shrunkRows = await db.q(`SELECT * FROM rents_area WHERE area_level = 'sector' AND source = 'shrunk' AND evidence_count > 0 ORDER BY area_code, bedrooms`);
  thinNear = (await db.q(`SELECT least(bedrooms, 4) AS bedrooms, count(*)::INTEGER AS n FROM rent_lets WHERE let_type = 'whole'
    AND 12742000 * asin(sqrt(pow(sin(radians(lat - ${point.lat}) / 2), 2) + cos(radians(${point.lat})) * cos(radians(lat)) * pow(sin(radians(lng - ${point.lng}) / 2), 2))) <= 1000
    GROUP BY 1 HAVING count(*) < 10 ORDER BY 1`)).map((r) => ({ bedrooms: Number(r.bedrooms), n: Number(r.n) }));
  db.close();
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const get = (qs: string) => call(s.base, 'GET', `/v1/rents/long-term?${qs}`, { key });
const total = (j: { by_bedrooms: { sample_size: number }[] }) => j.by_bedrooms.reduce((n, b) => n + b.sample_size, 0);

describe('GET /v1/rents/long-term', () => {
  it('a sector: per bedroom count median, mean, quartiles and sample size, for 2 credits; equal to the rent mart', async () => {
    const r = await get(`postcode=${encodeURIComponent(sector)}`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('2');
    LongTermRentsSchema.strict().parse(r.json);
    expect(r.json).toMatchObject({ location_label: sector, area: { level: 'sector', code: sector, radius_m: null }, property_type: null, currency: 'GBP' });
    expect(martRows.length).toBeGreaterThan(0);
    for (const m of martRows) {
      const b = r.json.by_bedrooms.find((x: { bedrooms: number }) => x.bedrooms === Number(m.bedrooms));
      expect(b, `bedrooms ${m.bedrooms}`).toBeDefined();
      expect(b.sample_size).toBe(Number(m.sample_size));
      expect(b.median_pcm).toBeCloseTo(Number(m.median_pcm), 1);
      expect(b.mean_pcm).toBeCloseTo(Number(m.mean_pcm), 1);
      expect(b.p25_pcm).toBeCloseTo(Number(m.p25_pcm), 1);
      expect(b.p75_pcm).toBeCloseTo(Number(m.p75_pcm), 1);
    }
    for (const b of r.json.by_bedrooms) expect(b.p25_pcm <= b.median_pcm && b.median_pcm <= b.p75_pcm).toBe(true);
    expect(r.json.period.from <= r.json.period.to).toBe(true);
  });

  it('a full postcode is answered for its sector, any case and spacing', async () => {
    const a = await get(`postcode=${encodeURIComponent(sector)}`);
    const b = await get(`postcode=${encodeURIComponent(postcode.toLowerCase().replace(' ', ''))}`);
    expect(b.status).toBe(200);
    expect(b.json.location_label).toBe(`${sector} (sector of ${postcode})`);
    expect(b.json.by_bedrooms).toEqual(a.json.by_bedrooms);
  });

  it('an outcode counts more lets than one of its sectors; property_type filters', async () => {
    const sec = await get(`postcode=${encodeURIComponent(sector)}`);
    const out = await get(`outcode=${outcode.toLowerCase()}`);
    expect(out.status).toBe(200);
    expect(out.json.area).toEqual({ level: 'outcode', code: outcode, radius_m: null });
    expect(total(out.json)).toBeGreaterThanOrEqual(total(sec.json));
    const flats = await get(`outcode=${outcode}&property_type=flat`);
    if (flatCount === 0) expect(flats.status).toBe(404);
    else {
      expect(flats.status).toBe(200);
      expect(flats.json.property_type).toBe('flat');
      expect(total(flats.json)).toBe(flatCount);
      // Another endpoint's word for a flat, in another case, is the same filter.
      const apartments = await get(`outcode=${outcode}&property_type=Apartment`);
      expect(apartments.status).toBe(200);
      expect(apartments.json.property_type).toBe('flat');
      expect(total(apartments.json)).toBe(flatCount);
    }
  });

  it('bedrooms keeps one group; 4 and more are the 4+ group', async () => {
    const two = await get(`outcode=${outcode}&bedrooms=2`);
    expect(two.status).toBe(200);
    expect(two.json.by_bedrooms.map((b: { bedrooms: number }) => b.bedrooms)).toEqual([2]);
    const six = await get(`outcode=${outcode}&bedrooms=6`);
    const four = await get(`outcode=${outcode}&bedrooms=4`);
    expect(six.status).toBe(four.status);
    if (four.status === 200) expect(six.json.by_bedrooms).toEqual(four.json.by_bedrooms);
  });

  it('lat+lng+radius_m counts the lets within the radius; a group of fewer than 10 lets there is marked thin', async () => {
    const r = await get(`lat=${point.lat}&lng=${point.lng}&radius_m=1000`);
    expect(r.status).toBe(200);
    expect(r.json.area).toEqual({ level: 'radius', code: null, radius_m: 1000 });
    expect(total(r.json)).toBe(nearCount);
    const thin = r.json.by_bedrooms.filter((b: any) => b.source === 'thin').map((b: any) => ({ bedrooms: b.bedrooms, n: b.sample_size }));
    expect(thin).toEqual(thinNear);
    for (const b of r.json.by_bedrooms) expect(b.source, `bedrooms ${b.bedrooms}`).toBe(b.sample_size < 10 ? 'thin' : 'evidence');
  });

  it('a sector group of fewer than 10 lets answers with the mart\'s figures shrunk toward the wider area, naming it; never the raw figures of two lets', async () => {
    expect(shrunkRows.length, 'the synthetic region has thin sector groups').toBeGreaterThan(0);
    for (const m of shrunkRows.slice(0, 12)) {
      const r = await get(`postcode=${encodeURIComponent(String(m.area_code))}&bedrooms=${m.bedrooms}`);
      expect(r.status, String(m.area_code)).toBe(200);
      const [b] = r.json.by_bedrooms;
      expect(b, `${m.area_code} ${m.bedrooms}`).toMatchObject({ bedrooms: Number(m.bedrooms), source: 'shrunk', prior_level: m.prior_level, sample_size: Number(m.evidence_count) });
      expect(b.median_pcm).toBeCloseTo(Number(m.median_pcm), 1);
      expect(b.p25_pcm).toBeCloseTo(Number(m.p25_pcm), 1);
      expect(b.p75_pcm).toBeCloseTo(Number(m.p75_pcm), 1);
    }
    // Nowhere in the region does a thin group rent for less than the next smaller group (the 3-bed below a 2-bed).
    const areas = [...new Set(shrunkRows.map((m) => String(m.area_code)))];
    for (const code of areas) {
      const r = await get(`postcode=${encodeURIComponent(code)}`);
      const g = r.json.by_bedrooms as { bedrooms: number; median_pcm: number; source: string }[];
      for (let i = 1; i < g.length; i++) {
        const [a, b] = [g[i - 1]!, g[i]!];
        if (b.bedrooms !== a.bedrooms + 1 || (a.source === 'evidence' && b.source === 'evidence')) continue;
        expect(b.median_pcm, `${code}: ${b.bedrooms} bedrooms (${b.source}) below ${a.bedrooms} (${a.source})`).toBeGreaterThanOrEqual(a.median_pcm - 0.01);
      }
    }
    // property_type has no shrunk figure of its own: the thin groups stand, marked thin.
    const flats = await get(`postcode=${encodeURIComponent(sector)}&property_type=flat`);
    for (const b of flats.json.by_bedrooms ?? []) expect(b.source).toBe(b.sample_size < 10 ? 'thin' : 'evidence');
  });

  it('zero or two location forms, or a partial point, are 400 naming location; nothing charged', async () => {
    for (const qs of [
      '',
      'bedrooms=2',
      `postcode=${encodeURIComponent(sector)}&outcode=${outcode}`,
      `outcode=${outcode}&lat=${point.lat}&lng=${point.lng}&radius_m=500`,
      `lat=${point.lat}&lng=${point.lng}`,
      `lat=${point.lat}&radius_m=500`,
      `outcode=${outcode}&radius_m=500`,
    ]) {
      const r = await get(qs);
      expect(r.status, qs).toBe(400);
      expect(r.json.code).toBe('invalid_request');
      expect(r.json.errors.map((e: { path: string }) => e.path), qs).toContain('query.location');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('malformed values are 400 naming the field', async () => {
    for (const [qs, field] of [
      ['postcode=NOTAPOSTCODE', 'query.postcode'],
      ['outcode=BS1%204', 'query.outcode'],
      [`lat=95&lng=${point.lng}&radius_m=500`, 'query.lat'],
      [`lat=${point.lat}&lng=${point.lng}&radius_m=6000`, 'query.radius_m'],
      [`lat=${point.lat}&lng=${point.lng}&radius_m=-1`, 'query.radius_m'],
      [`outcode=${outcode}&bedrooms=two`, 'query.bedrooms'],
      [`outcode=${outcode}&bedrooms=-1`, 'query.bedrooms'],
      [`outcode=${outcode}&property_type=castle`, 'query.property_type'],
      [`outcode=${outcode}&colour=red`, 'query'],
    ] as const) {
      const r = await get(qs);
      expect(r.status, qs).toBe(400);
      expect(r.json.errors.map((e: { path: string }) => e.path).join(' '), qs).toContain(field);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });

  it('an unknown postcode, or an area without lets, is a 404 charged nothing', async () => {
    for (const qs of ['postcode=ZZ9%209ZZ', 'outcode=ZZ9', 'lat=57.5&lng=-4.2&radius_m=500']) {
      const r = await get(qs);
      expect(r.status, qs).toBe(404);
      expect(r.json.code).toBe('not_found');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
