/**
 * The HMO valuation's rooms answer to the floor area (docs/valuation-rental-hmo.md, "Letting
 * rooms"): on a real built region with enough licensed HMOs (4,000 addresses, seed 11: 24 of
 * them matched with households and floor area), the space per room is measured on the build,
 * and a house too small for its bedrooms lets fewer rooms. The fallback to the national
 * standards is tested on the 3,000-address build in valuation-hmo.test.ts.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHmoAreas } from '../../service/valuers/hmo-areas.ts';
import { BuildStore } from '../../service/store/store.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type TestServer } from './support.ts';
import { licensedSpace, quantile } from './hmo-space.ts';

let s: TestServer;
let key: string;
let space: { n: number; p10: number; median: number };
let small: Record<string, unknown>;
let big: Record<string, unknown>;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, { addresses: 4000, seed: 11 });
  const db = await buildSql(s.dataDir);
  const perHousehold = await licensedSpace(db);
  space = { n: perHousehold.length, p10: quantile(perHousehold, 0.1), median: quantile(perHousehold, 0.5) };
  // Two English 3-bedroom houses in one sector (so one room rent and one yield): one too small
  // for 3 rooms at the measured space per room, one big enough.
  const bound = Math.round(space.p10);
  const pairs = await db.q(`
    SELECT s.uprn AS small_uprn, s.floor_area_sqft AS small_area, b.uprn AS big_uprn, b.floor_area_sqft AS big_area
    FROM properties s JOIN properties b ON b.sector = s.sector
    WHERE s.bedrooms = 3 AND b.bedrooms = 3 AND s.property_type <> 'Flat' AND b.property_type <> 'Flat'
      AND s.country = 'England' AND b.country = 'England'
      AND s.floor_area_sqft < 3 * ${bound} AND b.floor_area_sqft >= 3 * ${bound}
    ORDER BY s.floor_area_sqft, s.uprn, b.uprn LIMIT 40`);
  db.close();
  // The first pair whose area has figures (some sectors have no room rent or yield).
  for (const p of pairs) {
    const [a, b] = [await get(`${p.small_uprn}/hmo`), await get(`${p.big_uprn}/hmo`)];
    if (a.status === 200 && b.status === 200) {
      small = { ...p, answer: a.json };
      big = { ...p, answer: b.json };
      break;
    }
  }
}, 120_000);
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => call(s.base, 'GET', `/v1/valuations/${path}`, { key });

describe('HMO rooms and floor area on a built region with enough licences', () => {
  it('the space per room is the licensed HMOs\' own: 10th percentile and median floor area per household, with the sample size', async () => {
    expect(space.n).toBeGreaterThanOrEqual(20);
    const store = await BuildStore.open(realpathSync(join(s.dataDir, 'current')), 1);
    try {
      expect((await loadHmoAreas(store)).spacePerRoom).toEqual({
        bound_sqft: Math.round(space.p10),
        typical_sqft: Math.round(space.median),
        source: 'hmo_licences',
        sample_size: space.n,
      });
    } finally {
      store.close();
    }
  });

  it('two 3-bedroom houses in one sector: the one too small for 3 rooms lets what its floor area holds, and is worth less', () => {
    expect(small, 'no sector with a small and a big 3-bedroom house valued').toBeDefined();
    const bound = Math.round(space.p10);
    const a = small.answer as { gross_rent_pcm: { rooms: number; per_room_avg: number; total: number }; hmo_sale_value: { point: number; confidence: string } };
    const b = big.answer as typeof a;
    const held = Math.max(1, Math.floor(Number(small.small_area) / bound));
    expect(held).toBeLessThan(3);
    expect(a.gross_rent_pcm.rooms).toBe(held);
    expect(b.gross_rent_pcm.rooms).toBe(3);
    // One sector: the same rent per room and yield, so value scales with the rooms.
    expect(a.gross_rent_pcm.per_room_avg).toBe(b.gross_rent_pcm.per_room_avg);
    expect(a.gross_rent_pcm.total).toBe(a.gross_rent_pcm.per_room_avg * held);
    expect(a.hmo_sale_value.point).toBeLessThan(b.hmo_sale_value.point);
    expect(Math.abs(a.hmo_sale_value.point - (b.hmo_sale_value.point * held) / 3)).toBeLessThanOrEqual(1000);
    // Rooms cut by the floor area are an inference: confidence low.
    expect(a.hmo_sale_value.confidence).toBe('low');
  });

  it('living_room=false asks for one room more than the bedrooms, still bounded by the floor area', async () => {
    const bound = Math.round(space.p10);
    const bigArea = Number(big.big_area);
    const r = await get(`${big.big_uprn}/hmo?living_room=false`);
    expect(r.status).toBe(200);
    expect(r.json.gross_rent_pcm.rooms).toBe(Math.min(4, Math.floor(bigArea / bound)));
  });
});
