import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parquetTypes, renderDictionary, undocumented } from '../../etl/data-dictionary.ts';
import { BuildValidationError, runBuild } from '../../etl/pipeline/run.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { currentBuildId, verifyBuild } from '../../etl/publish/publish.ts';
import { hasRaw, RAW_DIR } from '../support/raw.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-run-');
afterAll(tmp.cleanup);

describe('runBuild on a synthetic region', () => {
  it('publishes every table with the manifest, meets the matching targets and counts exactly the planted bad rows', async () => {
    const sources = await synthRegion(2000, 11);
    const dataDir = join(tmp.dir, 'a');
    const { build_id, manifest } = await runBuild({ dataDir, sourcesDir: sources, log: quietLog });
    expect(await currentBuildId(dataDir)).toBe(build_id);
    await verifyBuild(join(dataDir, 'current'));
    // The build's working database (.work.duckdb, its log) and its spill are gone once published.
    expect(readdirSync(join(dataDir, 'current')).filter((f) => f.startsWith('.'))).toEqual([]);
    expect(Object.keys(manifest.tables).sort()).toEqual(PUBLISHED_TABLES.map((t) => t.name).sort());
    expect(manifest.tables.properties!.rows).toBe(2000);
    expect(manifest.match_rates.sale_match_precision).toBeGreaterThanOrEqual(0.995);
    expect(manifest.match_rates.sale_match_recall).toBeGreaterThanOrEqual(0.97);
    const expected = JSON.parse(readFileSync(join(sources, 'truth', 'expected-rejects.json'), 'utf8')) as Record<string, Record<string, number>>;
    for (const s of manifest.sources) {
      expect(s.rejected_by_reason, s.path).toEqual(expected[s.path] ?? {});
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(Object.keys(manifest.stage_timings_ms)).toContain('match_addresses');
    // The data dictionary documents exactly the published columns, and the committed copy is current.
    const types = await parquetTypes(join(dataDir, 'current'));
    expect(undocumented(types)).toEqual([]);
    const committed = readFileSync(join(import.meta.dirname, '../../docs/data-dictionary.md'), 'utf8');
    expect(committed, 'docs/data-dictionary.md is stale: npx tsx etl/data-dictionary.ts --write').toBe(renderDictionary(types));
  }, 180_000);

  it('leaves current on the previous build when a source is not of its format, and cleans up next time', async () => {
    const sources = join(tmp.dir, 'src-bad');
    cpSync(await synthRegion(2000, 11), sources, { recursive: true });
    const dataDir = join(tmp.dir, 'b');
    const first = await runBuild({ dataDir, sourcesDir: sources, log: quietLog });
    writeFileSync(join(sources, 'ppd', 'pp-2025.csv'), 'this is not,price paid\n');
    await expect(runBuild({ dataDir, sourcesDir: sources, log: quietLog })).rejects.toThrow(/not a Price Paid file/);
    expect(await currentBuildId(dataDir)).toBe(first.build_id);
    await verifyBuild(join(dataDir, 'current'));
    expect(readdirSync(join(dataDir, 'builds'))).toEqual([first.build_id]); // the failed build left nothing
  }, 180_000);

  it('refuses to publish a build whose tables shrink below half of the previous build', async () => {
    const dataDir = join(tmp.dir, 'c');
    const first = await runBuild({ dataDir, sourcesDir: await synthRegion(2000, 11), log: quietLog });
    const err = await runBuild({ dataDir, sourcesDir: await synthRegion(500, 3), log: quietLog }).catch((e) => e);
    expect(err).toBeInstanceOf(BuildValidationError);
    expect((err as BuildValidationError).failures.join('\n')).toMatch(/properties: 500 rows, under 50% of the 2000/);
    expect(await currentBuildId(dataDir)).toBe(first.build_id);
  }, 180_000);
});

describe.skipIf(!hasRaw('SOURCES.md'))('runBuild on the shared real samples', () => {
  it('publishes a build, rejects counted not fatal', async () => {
    const dataDir = join(tmp.dir, 'real');
    const { manifest } = await runBuild({ dataDir, sourcesDir: RAW_DIR, log: quietLog });
    const rows = (kind: string) => manifest.sources.filter((s) => s.name === kind).reduce((n, s) => n + s.rows_read, 0);
    expect(rows('airbnb_listings')).toBe(2845);
    expect(rows('codepoint')).toBe(27245 + 3650);
    expect(manifest.sources.find((s) => s.path.includes('ni_export'))!.rows_rejected).toBe(1);
    // No AddressBase among the samples, so the open-data fallback (docs/open-data.md): the
    // EPC format samples carry UPRNs, but no OS Open UPRN file places them, so no properties,
    // and every sale kept as unmatched.
    expect(manifest.quality.address_source).toMatchObject({ kind: 'open_data', uprns_with_address: 0 });
    expect((manifest.quality.address_source as { certificate_uprns_without_point: number }).certificate_uprns_without_point).toBeGreaterThan(0);
    expect(manifest.tables.properties!.rows).toBe(0);
    expect(manifest.tables.sales_unmatched!.rows).toBe(rows('price_paid'));
    expect(manifest.quality.ground_truth).toMatch(/not measured/);
  }, 300_000);
});
