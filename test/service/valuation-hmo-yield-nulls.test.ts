/**
 * An HMO yield row without its figures (hmo_yields_area.gross/p25/p75_yield_pct NULL; the mart
 * never publishes one, so a real build is copied with one sector's gross and one district's p25
 * taken away) is no yield: the next wider level answers, never a 0 % yield (a value of rent ÷ 0).
 * The HMO areas of that build, loaded as the service loads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleViolationsSql } from '../../schemas/tables/contract.ts';
import { VALUATION_TABLES } from '../../schemas/tables/valuation.ts';
import { BuildStore } from '../../service/store/store.ts';
import { loadHmoAreas, type HmoAreas } from '../../service/valuers/hmo-areas.ts';
import { tempDir } from '../support/tmp.ts';
import { doctoredBuild } from './doctored-build.ts';

const tmp = tempDir('pi-hmo-yield-nulls-');
let store: BuildStore;
let areas: HmoAreas;
let q: (sql: string) => Promise<Record<string, unknown>[]>;
let close: () => void;

// A sector whose outcode has a yield of its own, and a district: the first of each by code.
const SECTOR = `(SELECT s.area_code FROM hmo_yields_area s JOIN hmo_yields_area o ON o.area_level = 'outcode' AND o.area_code = split_part(s.area_code, ' ', 1) WHERE s.area_level = 'sector' ORDER BY s.area_code LIMIT 1)`;
const DISTRICT = `(SELECT area_code FROM hmo_yields_area WHERE area_level = 'district' ORDER BY area_code LIMIT 1)`;

beforeAll(async () => {
  const b = await doctoredBuild(tmp.dir, {
    hmo_yields_area: `SELECT * REPLACE (
        CASE WHEN area_level = 'sector' AND area_code = ${SECTOR} THEN NULL ELSE gross_yield_pct END AS gross_yield_pct,
        CASE WHEN area_level = 'district' AND area_code = ${DISTRICT} THEN NULL ELSE p25_yield_pct END AS p25_yield_pct)
      FROM hmo_yields_area`,
  });
  ({ q, close } = b);
  store = await BuildStore.open(b.dir);
  areas = await loadHmoAreas(store);
}, 300_000);
afterAll(async () => {
  close?.();
  await store?.close();
  tmp.cleanup();
});

const figures = (r: Record<string, unknown>) => ({ gross_yield_pct: r.gross_yield_pct, p25_yield_pct: r.p25_yield_pct, p75_yield_pct: r.p75_yield_pct });

describe('an HMO yield level without its figures', () => {
  it('breaks hmo_yields_area\'s contract rule (the published build, which passed it, had none)', async () => {
    const rule = VALUATION_TABLES.find((x) => x.name === 'hmo_yields_area')!.rules!.find((r) => r.rule === 'every row has its yields')!;
    expect((await q(`SELECT (${ruleViolationsSql('hmo_yields_area', rule)})::INTEGER AS n`))[0]!.n).toBe(2);
  });

  it('a sector without a gross yield: its outcode answers, not a 0 % sector yield', async () => {
    const [s] = await q(`SELECT area_code, split_part(area_code, ' ', 1) AS outcode FROM hmo_yields_area WHERE area_level = 'sector' AND gross_yield_pct IS NULL`);
    expect(s).toBeDefined();
    const [o] = await q(`SELECT * FROM hmo_yields_area WHERE area_level = 'outcode' AND area_code = '${s!.outcode}'`);
    expect(areas.hmoYield(String(s!.area_code), String(s!.outcode), null)).toEqual({ level: 'outcode', ...figures(o!) });
  });

  it('a district without a p25: no district answer, and the all-areas median is of the complete districts only', async () => {
    const [d] = await q(`SELECT area_code FROM hmo_yields_area WHERE area_level = 'district' AND p25_yield_pct IS NULL`);
    expect(d).toBeDefined();
    const [all] = await q(`SELECT count(*)::INTEGER AS n, median(gross_yield_pct) AS gross_yield_pct, median(p25_yield_pct) AS p25_yield_pct, median(p75_yield_pct) AS p75_yield_pct
      FROM hmo_yields_area WHERE area_level = 'district' AND gross_yield_pct IS NOT NULL AND p25_yield_pct IS NOT NULL AND p75_yield_pct IS NOT NULL`);
    const y = areas.hmoYield(null, null, String(d!.area_code));
    if (all!.n === 0) return expect(y).toBeUndefined();
    expect(y!.level).toBe('all_areas');
    for (const k of ['gross_yield_pct', 'p25_yield_pct', 'p75_yield_pct'] as const) expect(y![k]).toBeCloseTo(Number(all![k]), 9);
  });
});
