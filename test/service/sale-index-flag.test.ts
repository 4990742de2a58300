/**
 * A district whose repeat-sales index the build flagged against UK HPI (issue 48; manifest
 * `quality.index_vs_ukhpi.flagged`, written by the index_vs_ukhpi check stage) carries no High
 * sale valuation: the sale valuer of a real published build, opened as the service opens it,
 * with and without the flag.
 */
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flaggedDistricts } from '../../service/build/resources.ts';
import { BuildStore } from '../../service/store/store.ts';
import { SaleValuer } from '../../service/valuers/sale-valuer.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-index-flag-');
let store: BuildStore;
let buildDir: string;
let manifest: Record<string, unknown>;
beforeAll(async () => {
  const built = await publishSynthBuild(tmp.dir);
  manifest = built.manifest as unknown as Record<string, unknown>;
  buildDir = join(tmp.dir, 'builds', built.build_id);
  store = await BuildStore.open(buildDir);
}, 300_000);
afterAll(async () => {
  await store?.close();
  tmp.cleanup();
});

describe('a flagged district index', () => {
  it('the manifest carries the check; the service reads its flagged list (none on a consistent region)', () => {
    const check = (manifest.quality as Record<string, unknown>).index_vs_ukhpi as { compared: number; flagged: string[] };
    expect(check.compared).toBeGreaterThan(0);
    expect(flaggedDistricts(manifest)).toEqual(new Set(check.flagged));
    expect(flaggedDistricts({ quality: { index_vs_ukhpi: { flagged: ['E06000023', 'W06000015'] } } })).toEqual(new Set(['E06000023', 'W06000015']));
    expect(flaggedDistricts({})).toEqual(new Set());
  });

  it('turns the High answers of its homes to the next rung, and leaves other districts alone', async () => {
    const plain = await SaleValuer.open(store);
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const rows = (await conn.runAndReadAll(`SELECT p.uprn, a.la_code FROM '${join(buildDir, 'properties.parquet')}' p JOIN '${join(buildDir, 'addresses.parquet')}' a USING (uprn) ORDER BY p.uprn LIMIT 400`)).getRowObjectsJson();
    conn.closeSync();
    const high = rows.filter((r) => plain.value(Number(r.uprn))?.estimate.value !== null && (plain.value(Number(r.uprn))!.estimate as { confidence?: string }).confidence === 'High');
    expect(high.length).toBeGreaterThan(10);
    const district = String(high[0]!.la_code);
    const flagged = await SaleValuer.open(store, new Set([district]));
    for (const r of high) {
      const e = flagged.value(Number(r.uprn))!.estimate as { value: number | null; confidence?: string };
      if (String(r.la_code) === district) expect(e.value === null || e.confidence !== 'High', String(r.uprn)).toBe(true);
      else expect(e.confidence, String(r.uprn)).toBe('High');
    }
  });
});
