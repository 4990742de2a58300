/**
 * A gross yield without the sales behind it (yields_area.sales_count NULL; the mart counts them
 * wherever it has a row, so a real build is copied with one sector's count taken away) is not a
 * figure GET /yields quotes: the nearest wider area with a whole yield answers, never a yield
 * "from 0 sales". The lookup tables of that build, loaded as the service loads them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaYield } from '../../service/lookups/area-rents.ts';
import type { LookupTables } from '../../service/lookups/tables.ts';
import { ruleViolationsSql } from '../../schemas/tables/contract.ts';
import { MARKET_TABLES } from '../../schemas/tables/market.ts';
import { tempDir } from '../support/tmp.ts';
import { doctoredLookupTables } from './doctored-build.ts';

const tmp = tempDir('pi-yield-sales-nulls-');
let t: LookupTables;
let q: (sql: string) => Promise<Record<string, unknown>[]>;
let close: () => void;

// The first sector-and-bedrooms yield on enough lets whose outcode has one too.
const PICK = `SELECT s.area_code, s.bedrooms FROM yields_area s
  JOIN yields_area o ON o.area_level = 'outcode' AND o.area_code = split_part(s.area_code, ' ', 1) AND o.bedrooms = s.bedrooms
  WHERE s.area_level = 'sector' AND s.rent_source = 'evidence' AND o.rent_source = 'evidence' AND o.gross_yield_pct IS NOT NULL
  ORDER BY s.area_code, s.bedrooms LIMIT 1`;

beforeAll(async () => {
  ({ t, q, close } = await doctoredLookupTables(tmp.dir, {
    yields_area: `SELECT * REPLACE (CASE WHEN area_level = 'sector' AND (area_code, bedrooms) IN (${PICK}) THEN NULL ELSE sales_count END AS sales_count) FROM yields_area`,
  }));
}, 300_000);
afterAll(async () => {
  close?.();
  tmp.cleanup();
});

describe('a yield without its sales count', () => {
  it('breaks yields_area\'s contract rule (the published build, which passed it, had none)', async () => {
    const rule = MARKET_TABLES.find((x) => x.name === 'yields_area')!.rules!.find((r) => r.rule === 'every yield counts its sales')!;
    expect((await q(`SELECT (${ruleViolationsSql('yields_area', rule)})::INTEGER AS n`))[0]!.n).toBe(1);
  });

  it('GET /yields gives the outcode\'s whole yield, widened, not the sector\'s "from 0 sales"', async () => {
    const [s] = await q(`SELECT area_code, bedrooms, split_part(area_code, ' ', 1) AS outcode FROM yields_area WHERE area_level = 'sector' AND sales_count IS NULL`);
    expect(s).toBeDefined();
    const [o] = await q(`SELECT gross_yield_pct, median_price, sales_count FROM yields_area WHERE area_level = 'outcode' AND area_code = '${s!.outcode}' AND bedrooms = ${s!.bedrooms}`);
    const y = areaYield(t, { level: 'sector', code: String(s!.area_code) }, null, Number(s!.bedrooms));
    expect(y).toMatchObject({
      area: { level: 'outcode', code: s!.outcode, widened: true },
      gross_yield_pct: o!.gross_yield_pct, median_price: o!.median_price, sales_count: o!.sales_count,
    });
    expect(y!.sales_count).toBeGreaterThanOrEqual(5);
  });
});
