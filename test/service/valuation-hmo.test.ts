import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HmoValuationSchema } from '../../schemas/api/valuation.ts';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { HMO_FINISH_FACTOR, HMO_NO_OUTSIDE_SPACE_FACTOR, HMO_NO_PARKING_FACTOR } from '../../service/domain/hmo.ts';
import { loadHmoAreas } from '../../service/valuers/hmo-areas.ts';
import { BuildStore } from '../../service/store/store.ts';
import { licensedSpace } from './hmo-space.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let house: Record<string, unknown>;
let article4: Record<string, unknown> | undefined;
let noBedrooms: Record<string, unknown> | undefined;
let sectorRent: Record<string, unknown> | undefined;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 3000, seed: 11 });
  const db = await buildSql(s.dataDir);
  [house] = await db.q(`SELECT * FROM properties WHERE bedrooms = 4 AND property_type <> 'Flat' AND country = 'England' ORDER BY uprn LIMIT 1`) as [Record<string, unknown>];
  [article4] = await db.q(`SELECT * FROM properties WHERE article_4 ORDER BY uprn LIMIT 1`);
  [noBedrooms] = await db.q(`SELECT * FROM properties WHERE bedrooms IS NULL AND floor_area_sqft IS NULL AND property_type <> 'Flat' ORDER BY uprn LIMIT 1`);
  [sectorRent] = await db.q(`SELECT * FROM rents_rooms WHERE area_level = 'sector' AND area_code = '${house.sector}' AND source = 'evidence'`);
  db.close();
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => call(s.base, 'GET', `/v1/valuations/${path}`, { key });

describe('GET /v1/valuations/{uprn}/hmo', () => {
  it('answers the spec fields for 5 credits: 4 bedrooms, communal living room → 4 rooms', async () => {
    const r = await get(`${house.uprn}/hmo`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('5');
    expect(HmoValuationSchema.strict().parse(r.json)).toBeTruthy();
    expect(Object.keys(r.json).sort()).toEqual(['article_4', 'as_of', 'gross_rent_pcm', 'gross_yield_pct', 'hmo_sale_value', 'uprn']);
    expect(r.json.uprn).toBe(String(house.uprn));
    expect(r.json.gross_rent_pcm.rooms).toBe(4);
    expect(r.json.gross_rent_pcm.total).toBe(r.json.gross_rent_pcm.per_room_avg * 4);
    if (sectorRent) expect(Math.abs(r.json.gross_rent_pcm.per_room_avg - Number(sectorRent.median_pcm))).toBeLessThanOrEqual(2.5);
    const v = r.json.hmo_sale_value;
    expect(v.low).toBeLessThanOrEqual(v.point);
    expect(v.point).toBeLessThanOrEqual(v.high);
    expect(['high', 'medium', 'low']).toContain(v.confidence);
    expect(r.json.gross_yield_pct).toBeCloseTo((100 * 12 * r.json.gross_rent_pcm.total) / v.point, 1);
    expect(r.json.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.json.article_4).toBe(house.article_4 === true);
  });

  it('living_room=false lets the living room too: one more room', async () => {
    const r = await get(`${house.uprn}/hmo?living_room=false`);
    expect(r.status).toBe(200);
    expect(r.json.gross_rent_pcm.rooms).toBe(5);
  });

  it('finish, parking and outside space scale the room rent by the documented factors', async () => {
    const base = (await get(`${house.uprn}/hmo`)).json;
    const hi = (await get(`${house.uprn}/hmo?finish_quality=very_high`)).json;
    const lo = (await get(`${house.uprn}/hmo?finish_quality=below_average&parking=false&outside_space=false`)).json;
    const median = base.gross_rent_pcm.per_room_avg;
    expect(Math.abs(hi.gross_rent_pcm.per_room_avg - median * HMO_FINISH_FACTOR.very_high)).toBeLessThanOrEqual(5);
    expect(Math.abs(lo.gross_rent_pcm.per_room_avg - median * HMO_FINISH_FACTOR.below_average * HMO_NO_PARKING_FACTOR * HMO_NO_OUTSIDE_SPACE_FACTOR)).toBeLessThanOrEqual(5);
    expect(hi.hmo_sale_value.point).toBeGreaterThan(base.hmo_sale_value.point);
    expect(lo.hmo_sale_value.point).toBeLessThan(base.hmo_sale_value.point);
  });

  it('explicit defaults give the same answer as none (reproducible)', async () => {
    const a = await get(`${house.uprn}/hmo`);
    const b = await get(`${house.uprn}/hmo?finish_quality=average&living_room=true&parking=true&outside_space=true`);
    expect(b.json).toEqual(a.json);
  });

  it('article_4 comes from the planning layer', async () => {
    if (!article4) return expect.fail('the region has no Article 4 home');
    const r = await get(`${article4.uprn}/hmo`);
    expect(r.status).toBe(200);
    expect(r.json.article_4).toBe(true);
  });

  it('article_4 is null (unknown) for a Welsh home: the planning layers cover England only', async () => {
    const db = await buildSql(s.dataDir);
    const welsh = await db.q(`SELECT uprn FROM properties WHERE country = 'Wales' AND property_type <> 'Flat' AND bedrooms >= 3 ORDER BY uprn LIMIT 20`);
    db.close();
    expect(welsh.length).toBeGreaterThan(0);
    let valued = 0;
    for (const w of welsh) {
      const r = await get(`${w.uprn}/hmo`);
      if (r.status !== 200) continue; // no room rents or HMO yield measured for its area
      valued++;
      expect(HmoValuationSchema.strict().parse(r.json)).toBeTruthy();
      expect(r.json.article_4).toBeNull();
    }
    expect(valued).toBeGreaterThan(0);
  });

  it('too few licensed HMOs in the build (under 20): the national standards\' 129 sq ft per room bounds the rooms', async () => {
    const db = await buildSql(s.dataDir);
    const licensed = (await licensedSpace(db)).length;
    // The tightest English houses of 4+ bedrooms: the least floor area per bedroom.
    const tight = await db.q(`SELECT uprn, bedrooms, floor_area_sqft FROM properties
      WHERE bedrooms >= 4 AND property_type <> 'Flat' AND country = 'England' AND floor_area_sqft > 0
      ORDER BY floor_area_sqft / bedrooms, uprn LIMIT 10`);
    db.close();
    expect(licensed).toBeLessThan(20);
    const store = await BuildStore.open(realpathSync(join(s.dataDir, 'current')), 1);
    try {
      expect((await loadHmoAreas(store)).spacePerRoom).toEqual({ bound_sqft: 129, typical_sqft: null, source: 'national_standards', sample_size: licensed });
    } finally {
      store.close();
    }
    let valued = 0;
    for (const t of tight) {
      const r = await get(`${t.uprn}/hmo?living_room=false`);
      if (r.status !== 200) continue; // no room rent or yield for its area
      valued++;
      expect(r.json.gross_rent_pcm.rooms).toBe(Math.min(Number(t.bedrooms) + 1, Math.floor(Number(t.floor_area_sqft) / 129)));
    }
    expect(valued).toBeGreaterThan(0);
  });

  it('neither bedrooms nor floor area recorded: the typical count is assumed and confidence is low', async () => {
    if (!noBedrooms) return expect.fail('the region has no house without recorded bedrooms');
    const r = await get(`${noBedrooms.uprn}/hmo`);
    expect(r.status).toBe(200);
    expect(r.json.gross_rent_pcm.rooms).toBe(3);
    expect(r.json.hmo_sale_value.confidence).toBe('low');
  });

  it('bad parameters are 400 naming the field, charged nothing', async () => {
    for (const [qs, field] of [
      ['finish_quality=luxury', 'query.finish_quality'],
      ['living_room=yes', 'query.living_room'],
      ['parking=1', 'query.parking'],
      ['outside_space=TRUE', 'query.outside_space'],
      ['colour=red', 'query'],
    ] as const) {
      const r = await get(`${house.uprn}/hmo?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.json.code).toBe('invalid_request');
      expect(r.json.errors.map((e: { path: string }) => e.path).join(' '), qs).toContain(field);
      expect(r.headers['x-credits-cost']).toBe('0');
    }
    const bad = await get('12x/hmo');
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].path).toBe('params.uprn');
  });

  it('unknown UPRN is a 404, charged nothing', async () => {
    const r = await get('999999999999/hmo');
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
    expect(r.headers['x-credits-cost']).toBe('0');
  });
});
