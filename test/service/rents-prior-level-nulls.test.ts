/**
 * A shrunk rents_area row names the area it was shrunk toward (prior_level): the mart only
 * calls a row shrunk when it has one, and the table's contract rule now fails a build that
 * breaks it. The service does not lean on that alone: a shrunk row without a prior_level (a
 * real build copied with one taken away) is no shrunk figure, so GET /rents/long-term's thin
 * group keeps its own figures, marked thin, never prior_level "null".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ruleViolationsSql } from '../../schemas/tables/contract.ts';
import { MARKET_TABLES } from '../../schemas/tables/market.ts';
import { shrinkThinGroups } from '../../service/lookups/areas.ts';
import type { LookupTables } from '../../service/lookups/tables.ts';
import { tempDir } from '../support/tmp.ts';
import { doctoredLookupTables } from './doctored-build.ts';

const tmp = tempDir('pi-prior-level-nulls-');
let t: LookupTables;
let q: (sql: string) => Promise<Record<string, unknown>[]>;
let close: () => void;

// The first shrunk sector or outcode row, and a second one left as published.
const SHRUNK = `SELECT area_level, area_code, bedrooms FROM rents_area WHERE source = 'shrunk' AND area_level IN ('sector', 'outcode') ORDER BY area_level, area_code, bedrooms`;

beforeAll(async () => {
  ({ t, q, close } = await doctoredLookupTables(tmp.dir, {
    rents_area: `SELECT * REPLACE (CASE WHEN (area_level, area_code, bedrooms) IN (${SHRUNK} LIMIT 1) THEN NULL ELSE prior_level END AS prior_level) FROM rents_area`,
  }));
}, 300_000);
afterAll(async () => {
  close?.();
  tmp.cleanup();
});

const own = { sample_size: 1, median_pcm: 1000, mean_pcm: 1010, p25_pcm: 900, p75_pcm: 1100 };

describe('a shrunk rent row without the area it was shrunk toward', () => {
  it('breaks rents_area\'s contract rule (the published build, which passed it, had none)', async () => {
    const rule = MARKET_TABLES.find((x) => x.name === 'rents_area')!.rules!.find((r) => r.rule.startsWith('a shrunk row'))!;
    expect((await q(`SELECT (${ruleViolationsSql('rents_area', rule)})::INTEGER AS n`))[0]!.n).toBe(1);
  });

  it('leaves the thin group its own figures, marked thin, prior_level null (not "null")', async () => {
    const [m] = await q(`SELECT area_level, area_code, bedrooms FROM rents_area WHERE source = 'shrunk' AND prior_level IS NULL`);
    expect(m).toBeDefined();
    const g = { bedrooms: Number(m!.bedrooms), ...own };
    expect(shrinkThinGroups([g], t, { level: String(m!.area_level), code: String(m!.area_code) }, null)).toEqual([{ ...g, source: 'thin', prior_level: null }]);
  });

  it('a shrunk row with its prior_level still gives the mart\'s shrunk figures', async () => {
    const [m] = await q(`SELECT * FROM rents_area WHERE source = 'shrunk' AND prior_level IS NOT NULL AND area_level IN ('sector', 'outcode') ORDER BY area_level, area_code, bedrooms LIMIT 1`);
    expect(m).toBeDefined();
    const g = { bedrooms: Number(m!.bedrooms), ...own };
    const pence = (v: unknown) => Math.round(Number(v) * 100) / 100;
    expect(shrinkThinGroups([g], t, { level: String(m!.area_level), code: String(m!.area_code) }, null)).toEqual([{
      ...g, median_pcm: pence(m!.median_pcm), mean_pcm: pence(m!.mean_pcm), p25_pcm: pence(m!.p25_pcm), p75_pcm: pence(m!.p75_pcm), source: 'shrunk', prior_level: m!.prior_level,
    }]);
  });
});
