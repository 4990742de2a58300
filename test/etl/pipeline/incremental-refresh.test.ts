import { DuckDBInstance } from '@duckdb/node-api';
import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../schemas/manifest.ts';
import { sha256File } from '../../../etl/pipeline/discover.ts';
import { runBuild } from '../../../etl/pipeline/run.ts';
import { quietLog, synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-refresh-');
afterAll(tmp.cleanup);
const now = new Date('2025-10-01T00:00:00Z');

const field = (line: string, i: number) => line.split('","')[i]!.replace(/^"|"$/g, '');
const withFields = (line: string, changes: Record<number, string>) =>
  line.split('","').map((v, i) => {
    const bare = v.replace(/^"|"$/g, '');
    return `"${changes[i] ?? bare}"`;
  }).join(',');

/**
 * A month's Price Paid update on top of the region's own: a new sale of a known home, a
 * changed price (C) and a deleted sale (D) of two sales in the bulk file.
 */
function changeMonthlyUpdate(sources: string): { added: string; changed: string; deleted: string } {
  const bulk = readFileSync(join(sources, 'ppd', 'pp-complete.csv'), 'utf8').trim().split('\n');
  const [a, c, d] = [bulk[10]!, bulk[20]!, bulk[30]!];
  const added = '{0F0F0F0F-1111-2222-3333-444455556666}';
  appendFileSync(join(sources, 'ppd', 'pp-monthly-update.csv'), [
    withFields(a, { 0: added, 1: '412500', 2: '2025-09-19 00:00', 15: 'A' }),
    withFields(c, { 1: String(Number(field(c, 1)) + 1000), 15: 'C' }),
    withFields(d, { 15: 'D' }),
  ].join('\n') + '\n');
  return { added, changed: field(c, 0), deleted: field(d, 0) };
}

async function rows(conn: Awaited<ReturnType<DuckDBInstance['connect']>>, sql: string): Promise<number> {
  const r = await conn.runAndReadAll(sql);
  return Number(r.getRowObjectsJson()[0]!.n);
}

/**
 * A table's rows with doubles rounded to 6 places: DuckDB's parallel sums add in varying
 * order, so two fresh builds of the same sources differ in the last bits of some STR sums.
 */
async function comparable(conn: Awaited<ReturnType<DuckDBInstance['connect']>>, file: string): Promise<string> {
  const from = `read_parquet('${file}')`;
  const cols = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${from}`)).getRowObjectsJson();
  const list = cols.map((c) => (c.column_type === 'DOUBLE' ? `round("${String(c.column_name)}", 6)` : `"${String(c.column_name)}"`));
  return `(SELECT ${list.join(', ')} FROM ${from})`;
}

/** The stages whose output a refresh of Price Paid alone reuses. */
const REUSABLE = ['addresses', 'certificates', 'spatial_flags', 'search-index', 'marts_str', 'marts_location'];

/** Every published table (rows compared both ways), the binary files byte for byte, the source reports and match rates. */
async function expectSameBuild(aDir: string, a: Manifest, bDir: string, b: Manifest): Promise<void> {
  expect(Object.keys(a.tables).sort()).toEqual(Object.keys(b.tables).sort());
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    for (const [name, t] of Object.entries(b.tables)) {
      const x = await comparable(conn, join(aDir, t.file));
      const y = await comparable(conn, join(bDir, t.file));
      expect(a.tables[name]!.rows, name).toBe(t.rows);
      expect(await rows(conn, `SELECT count(*) AS n FROM (SELECT * FROM ${x} EXCEPT ALL SELECT * FROM ${y})`), name).toBe(0);
      expect(await rows(conn, `SELECT count(*) AS n FROM (SELECT * FROM ${y} EXCEPT ALL SELECT * FROM ${x})`), name).toBe(0);
    }
  } finally {
    conn.closeSync();
  }
  expect(Object.keys(a.artifacts).sort()).toEqual(Object.keys(b.artifacts).sort());
  for (const f of Object.values(b.artifacts)) {
    expect(await sha256File(join(aDir, f.file)), f.file).toBe(await sha256File(join(bDir, f.file)));
  }
  const bare = (m: Manifest) => m.sources.map(({ from_cache: _, ...s }) => s);
  expect(bare(a)).toEqual(bare(b));
  expect(a.match_rates).toEqual(b.match_rates);
}

describe('an incremental refresh with only the monthly Price Paid update changed', () => {
  let first: Manifest;
  let refresh: Manifest;
  let fresh: Manifest;
  let refreshDir: string;
  let freshDir: string;
  let change: ReturnType<typeof changeMonthlyUpdate>;

  beforeAll(async () => {
    const sources = join(tmp.dir, 'region');
    cpSync(await synthRegion(3000, 5), sources, { recursive: true });
    const cached = join(tmp.dir, 'cached');
    first = (await runBuild({ dataDir: cached, sourcesDir: sources, log: quietLog, now })).manifest;
    change = changeMonthlyUpdate(sources);
    refresh = (await runBuild({ dataDir: cached, sourcesDir: sources, log: quietLog, now })).manifest;
    refreshDir = join(cached, 'builds', refresh.build_id);
    const uncached = join(tmp.dir, 'uncached');
    fresh = (await runBuild({ dataDir: uncached, sourcesDir: sources, log: quietLog, now, cache: false })).manifest;
    freshDir = join(uncached, 'builds', fresh.build_id);
  }, 300_000);

  it('re-stages only the changed file and re-matches only the new and changed sales', () => {
    expect(first.quality.stage_cache).toMatchObject({ read: true, corrupt: 0 });
    const restaged = refresh.sources.filter((s) => !s.from_cache).map((s) => s.path);
    expect(restaged).toEqual(['ppd/pp-monthly-update.csv']);
    expect(refresh.quality.stage_cache).toMatchObject({ read: true, misses: 1, corrupt: 0, hits: refresh.sources.length - 1 });
    // Loaded lazily: the files whose tables only reused stages read (addresses, spatial_flags, marts_str, marts_location) are never loaded.
    const onlyReused = new Set(['addressbase', 'os_uprn', 'planning', 'airbnb_listings', 'airbnb_calendar', 'airbnb_reviews', 'police_crime', 'gias_schools', 'listings']);
    const notLoaded = refresh.sources.filter((s) => onlyReused.has(s.name)).length;
    expect(notLoaded).toBeGreaterThanOrEqual(9);
    expect(refresh.quality.stage_cache).toMatchObject({ not_loaded: notLoaded });
    expect(first.quality.stage_cache).toMatchObject({ not_loaded: 0 });
    expect(fresh.sources.every((s) => s.from_cache === false)).toBe(true);
    // Only the new sale: the changed one changed its price, which the matcher does not read,
    // and the deleted one is gone from ppd_current.
    expect(refresh.quality.match_cache).toMatchObject({ read: true, matched: { sale: 1, epc: 0 }, corrupt: 0 });
    expect((refresh.quality.match_cache as { reused: { sale: number } }).reused.sale).toBeGreaterThan(2000);
    // The HMO licences are unchanged: all reused, the matcher never built for them. The
    // listings' stage is reused whole (no Price Paid file feeds it): its match stats are the
    // first build's, as it stored them.
    expect(refresh.quality.hmo_match_cache).toMatchObject({ matched: { hmo: 0 }, corrupt: 0 });
    expect(refresh.quality.listing_match_cache).toEqual(first.quality.listing_match_cache);
    expect(first.quality.listing_match_cache).toMatchObject({ reused: { listing: 0 }, corrupt: 0 });
    expect((refresh.quality.hmo_match_cache as { reused: { hmo: number } }).reused.hmo).toBeGreaterThan(0);
  });

  it('reuses the output of the stages no Price Paid file feeds, and the street keys, recomputing the rest', () => {
    expect(first.quality.stage_output_cache).toMatchObject({ read: true, reused: [], computed: REUSABLE, not_stored: {}, corrupt: 0 });
    expect(refresh.quality.stage_output_cache).toMatchObject({ read: true, reused: REUSABLE, computed: [], corrupt: 0 });
    expect(fresh.quality.stage_output_cache).toMatchObject({ read: false, reused: [], computed: REUSABLE });
    expect(first.quality.match_cache).toMatchObject({ tables: { street_keys: 'derived' } });
    expect(refresh.quality.match_cache).toMatchObject({ tables: { street_keys: 'loaded' } });
  });

  it('links the files of the tables unchanged since the previous build and writes the changed ones', () => {
    const firstDir = join(tmp.dir, 'cached', 'builds', first.build_id);
    const inode = (dir: string, t: Manifest['tables'][string]) => statSync(join(dir, t.file)).ino;
    const stats = refresh.quality.table_files as { reused: string[]; written: number };
    // addresses comes from a reused stage; the sales changed (a new sale, a price, a deletion).
    expect(stats.reused).toContain('addresses');
    expect(stats.reused).not.toContain('sales');
    expect(stats.reused.length + stats.written).toBe(Object.keys(refresh.tables).length);
    for (const [name, t] of Object.entries(refresh.tables)) {
      const same = inode(refreshDir, t) === inode(firstDir, first.tables[name]!);
      expect(same, name).toBe(stats.reused.includes(name));
      if (same) expect(t, name).toEqual(first.tables[name]);
    }
    expect(first.quality.table_files).toMatchObject({ reused: [] });
    expect(fresh.quality.table_files).toMatchObject({ reused: [] });
  });

  it('publishes the same content as a fresh build without the cache', async () => {
    await expectSameBuild(refreshDir, refresh, freshDir, fresh);
  });

  it('a build without caches (ETL_CACHES=off) writes none, links no table from the previous build, and publishes a fresh build\'s content', async () => {
    const dataDir = join(tmp.dir, 'without-caches');
    const previous = (await runBuild({ dataDir, sourcesDir: join(tmp.dir, 'region'), log: quietLog, now, caches: false })).manifest;
    const again = (await runBuild({ dataDir, sourcesDir: join(tmp.dir, 'region'), log: quietLog, now, caches: false })).manifest;
    expect(existsSync(join(dataDir, 'cache'))).toBe(false);
    for (const m of [previous, again]) {
      expect(m.sources.every((s) => s.from_cache !== true)).toBe(true);
      expect(m.quality.stage_cache).toBeUndefined();
      expect(m.quality.match_cache).toBeUndefined();
      expect(m.quality.stage_output_cache).toBeUndefined();
    }
    expect(again.quality.table_files).toMatchObject({ reused: [] });
    await expectSameBuild(join(dataDir, 'builds', again.build_id), again, freshDir, fresh);
  }, 300_000);

  it('shows the change: the new sale is published, the deleted one is not', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const ids = async (dir: string) => (await conn.runAndReadAll(
        `SELECT transaction_id FROM read_parquet('${join(dir, 'sales.parquet')}') UNION ALL SELECT transaction_id FROM read_parquet('${join(dir, 'sales_unmatched.parquet')}')`,
      )).getRowObjectsJson().map((r) => String(r.transaction_id));
      const published = new Set(await ids(refreshDir));
      const bare = (id: string) => id.replace(/[{}]/g, '');
      expect(published.has(bare(change.added))).toBe(true);
      expect(published.has(bare(change.deleted))).toBe(false);
      expect(published.has(bare(change.changed))).toBe(true);
    } finally {
      conn.closeSync();
    }
    expect(readdirSync(join(tmp.dir, 'cached', 'cache', 'staging')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('matches every row again when the match cache is unreadable, with the same result', async () => {
    const matches = join(tmp.dir, 'cached', 'cache', 'matches', 'addresses');
    const files = readdirSync(matches).filter((n) => n.endsWith('.parquet'));
    expect(files.length).toBe(2);
    for (const f of files) writeFileSync(join(matches, f), 'not parquet');
    // The street keys' entry too: its rows cut short.
    const keys = readdirSync(matches).filter((n) => n.endsWith('.street_keys'));
    expect(keys.length).toBe(1);
    const parquet = join(matches, keys[0]!, 'rows.parquet');
    writeFileSync(parquet, readFileSync(parquet).subarray(0, 100));
    const again = (await runBuild({ dataDir: join(tmp.dir, 'cached'), sourcesDir: join(tmp.dir, 'region'), log: quietLog, now })).manifest;
    expect(again.quality.match_cache).toMatchObject({ corrupt: 3, reused: { sale: 0, epc: 0 }, tables: { street_keys: 'derived' } });
    expect(again.match_rates).toEqual(fresh.match_rates);
    expect(again.tables.sales!.rows).toBe(fresh.tables.sales!.rows);
  }, 120_000);
});

describe('a refresh after a change to a file a reused stage reads', () => {
  const dir = join(tmp.dir, 'feeds');
  const sources = join(dir, 'region');
  const cached = join(dir, 'cached');

  /** A refresh with the cache, and a fresh build without it into a new folder, of the same sources. */
  async function refreshAndFresh(name: string) {
    const refreshed = (await runBuild({ dataDir: cached, sourcesDir: sources, log: quietLog, now })).manifest;
    const uncached = join(dir, `uncached-${name}`);
    const uncachedBuild = (await runBuild({ dataDir: uncached, sourcesDir: sources, log: quietLog, now, cache: false })).manifest;
    return { refreshed, refreshedDir: join(cached, 'builds', refreshed.build_id), uncachedBuild, uncachedDir: join(uncached, 'builds', uncachedBuild.build_id) };
  }

  let base: Manifest;

  beforeAll(async () => {
    cpSync(await synthRegion(3000, 5), sources, { recursive: true });
    base = (await runBuild({ dataDir: cached, sourcesDir: sources, log: quietLog, now })).manifest;
  }, 120_000);

  it('an Airbnb file: the STR marts run again, the rest is reused, and the build is a fresh one\'s', async () => {
    const reviews = join(sources, 'airbnb', 'reviews.csv.gz');
    const lines = gunzipSync(readFileSync(reviews)).toString('utf8').trimEnd().split('\n');
    writeFileSync(reviews, gzipSync(lines.slice(0, -5).join('\n') + '\n'));
    const r = await refreshAndFresh('airbnb');
    expect(r.refreshed.quality.stage_output_cache).toMatchObject({ reused: ['addresses', 'certificates', 'spatial_flags', 'search-index', 'marts_location'], computed: ['marts_str'], corrupt: 0 });
    expect(r.refreshed.quality.match_cache).toMatchObject({ tables: { street_keys: 'loaded' } });
    await expectSameBuild(r.refreshedDir, r.refreshed, r.uncachedDir, r.uncachedBuild);
  }, 120_000);

  it('the address base: every stage it feeds runs again, the street keys are derived again, and the build is a fresh one\'s', async () => {
    const file = join(sources, 'addressbase', 'addressbase-core.csv');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // A second UPRN at the address of the tenth record: its sales become ambiguous.
    const twin = lines[10]!.replace(/^\d+/, '999999999001');
    appendFileSync(file, twin + '\n');
    const r = await refreshAndFresh('addressbase');
    expect(r.refreshed.quality.stage_output_cache).toMatchObject({ reused: [], computed: REUSABLE, corrupt: 0 });
    expect(r.refreshed.quality.match_cache).toMatchObject({ tables: { street_keys: 'derived' }, reused: { sale: 0, epc: 0 } });
    expect(r.refreshed.tables.properties!.rows).toBe(base.tables.properties!.rows + 1);
    await expectSameBuild(r.refreshedDir, r.refreshed, r.uncachedDir, r.uncachedBuild);
  }, 120_000);
});
