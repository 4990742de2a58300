/**
 * A home without a position (properties.lat/lng NULL; none in the synthetic region, so a real
 * build is copied with 60 homes' positions taken away) is no one's neighbour and has none: its
 * sale valuation rests on the rungs that need no position (its own indexed sale), never on
 * other unpositioned homes' sales "0 m away". The sale valuer of that build, opened as the
 * service opens it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SaleEvidence } from '../../service/domain/valuation-models/sale.ts';
import { BuildStore } from '../../service/store/store.ts';
import { SaleValuer } from '../../service/valuers/sale-valuer.ts';
import { tempDir } from '../support/tmp.ts';
import { doctoredBuild } from './doctored-build.ts';

const tmp = tempDir('pi-unpositioned-');
let store: BuildStore;
let valuer: SaleValuer;
let unpositioned: Record<string, unknown>[];
let positioned: Record<string, unknown>[];

// English and Welsh homes without a floor area (so the £/sq ft rung, which can use the home's
// own postcode without a position, never answers): the first 60 by UPRN lose their position.
const CHOSEN = `SELECT uprn FROM properties WHERE floor_area_sqft IS NULL AND country IN ('England', 'Wales') ORDER BY uprn LIMIT 60`;

beforeAll(async () => {
  const b = await doctoredBuild(tmp.dir, {
    properties: `SELECT * REPLACE (CASE WHEN uprn IN (${CHOSEN}) THEN NULL ELSE lat END AS lat, CASE WHEN uprn IN (${CHOSEN}) THEN NULL ELSE lng END AS lng) FROM properties`,
  });
  unpositioned = await b.q(`SELECT uprn, last_sold_price FROM properties WHERE lat IS NULL ORDER BY uprn`);
  positioned = await b.q(`SELECT uprn FROM properties WHERE lat IS NOT NULL AND floor_area_sqft IS NULL AND last_sold_price IS NULL AND country IN ('England', 'Wales') ORDER BY uprn LIMIT 20`);
  b.close();
  store = await BuildStore.open(b.dir);
  valuer = await SaleValuer.open(store);
}, 300_000);
afterAll(async () => {
  await store?.close();
  tmp.cleanup();
});

describe('a home without a position', () => {
  it('the doctored build has unpositioned homes that sold and some that did not', () => {
    expect(unpositioned).toHaveLength(60);
    expect(unpositioned.filter((h) => h.last_sold_price !== null).length).toBeGreaterThanOrEqual(5);
    expect(unpositioned.filter((h) => h.last_sold_price === null).length).toBeGreaterThanOrEqual(5);
  });

  it('never sold: no valuation (no sold home is near a home with no place), not comparables 0 m away', () => {
    for (const h of unpositioned.filter((h) => h.last_sold_price === null)) {
      const e = valuer.value(Number(h.uprn))!.estimate;
      expect(e, String(h.uprn)).toEqual({ value: null, reason: 'no recorded sale and no position to find sold homes near it' });
    }
  });

  it('sold: its own indexed sale alone (evidence 1, no anchor from other unpositioned homes), or none', () => {
    for (const h of unpositioned.filter((h) => h.last_sold_price !== null)) {
      const e = valuer.value(Number(h.uprn))!.estimate;
      if (e.value === null) continue;
      expect(e, String(h.uprn)).toMatchObject({ confidence: 'High', method: 'last_sold_growth', evidence: 1 });
    }
  });

  it('is in no radius or nearest search as evidence: its sales have no place, and a positioned home still finds comparables', () => {
    const away = new Set(unpositioned.map((h) => Number(h.uprn)));
    // Opened from the store alone: the evidence is in the heap.
    expect(valuer.evidence).toBeInstanceOf(SaleEvidence);
    const ev = valuer.evidence as SaleEvidence;
    let rows = 0;
    for (let i = 0; i < ev.size; i++) {
      if (!away.has(ev.cols.uprn[i]!)) continue;
      rows++;
      expect(Number.isNaN(ev.cols.x[i]!) && Number.isNaN(ev.cols.y[i]!), String(ev.cols.uprn[i])).toBe(true);
    }
    expect(rows).toBeGreaterThan(0);
    expect(positioned.length).toBeGreaterThan(0);
    for (const h of positioned) expect(valuer.value(Number(h.uprn))!.estimate, String(h.uprn)).toMatchObject({ method: 'comparables' });
  });
});
