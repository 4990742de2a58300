import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, cpSync, readdirSync, renameSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { AREA_LOOKUP_FILES, LOOKUP_FILES, type LookupFileName } from '../../lib/files/lookup-tables-format.ts';
import { lastDayOf } from '../../schemas/months.ts';
import { fileDataSource, type BuildInfo } from '../../service/build/source.ts';
import { AreaRowsFile, KeyedRows } from '../../service/lookups/keyed.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { closeLookupTables, loadLookupTables, type AreaRows, type LookupTables } from '../../service/lookups/tables.ts';
import { BuildStore } from '../../service/store/store.ts';
import { endpointRequests, readEndpointInputs } from '../support/endpoint-requests.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, startTestServer, type TestServer } from './support.ts';

/**
 * The per-area lookup tables read from the ETL's keyed-rows files (issue 46, ADR 0015 step 6)
 * against the same build's tables made in the store and the heap, as every build was served
 * before: every key of a real ETL build on a page cache far smaller than the files, one table
 * against DuckDB over the published Parquet, the endpoints that read them on both paths, and
 * the files missing, cut short or another table's.
 */
const tmp = tempDir();
let build: BuildInfo;
const stores: BuildStore[] = [];
async function storeOf(b: BuildInfo): Promise<BuildStore> {
  const s = await BuildStore.open(b.dir);
  stores.push(s);
  return s;
}
let paged: LookupTables;
let heap: LookupTables;
let duck: DuckDBInstance;

/** Each AreaRows table's file. */
const FILE_OF: Record<keyof AreaRows, LookupFileName> = {
  counts: 'areaCounts', mix: 'areaMix', index: 'areaIndex', growth: 'areaGrowth', sqft: 'areaSqft', rents: 'areaRents', str: 'areaStr', rooms: 'areaRooms',
};
const TABLES = Object.keys(FILE_OF) as (keyof AreaRows)[];

/** A copy of the build with `doctor` applied to its folder (and its manifest). */
function copyBuild(name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo {
  const dir = join(tmp.dir, 'copies', name);
  cpSync(build.dir, dir, { recursive: true });
  const manifest = structuredClone(build.manifest);
  doctor(dir, manifest);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { id: build.id, dir, manifest };
}
/** The build as published before the area files: none listed, none there. */
const withoutAreaFiles = (dir: string, m: Record<string, unknown>) => {
  for (const n of AREA_LOOKUP_FILES) {
    delete (m.artifacts as Record<string, unknown>)[LOOKUP_FILES[n].artifact];
    unlinkSync(join(dir, LOOKUP_FILES[n].file));
  }
};

beforeAll(async () => {
  await publishSynthBuild(join(tmp.dir, 'dd'));
  build = fileDataSource(join(tmp.dir, 'dd')).current()!;
  // 8 pages: most lookups miss, and a key's rows that run onto the next page are read across an eviction.
  paged = await loadLookupTables(await storeOf(build), build, { pages: new BlockCache(8 * 4096) });
  // The in-heap oracle: the same build as an older ETL published it (the big tables' files kept).
  const older = copyBuild('older', withoutAreaFiles);
  heap = await loadLookupTables(await storeOf(older), older, { pages: new BlockCache(1 << 20) });
  duck = await DuckDBInstance.create(':memory:');
}, 300_000);
afterAll(async () => {
  if (paged) closeLookupTables(paged);
  if (heap) closeLookupTables(heap);
  for (const s of stores) s.close();
  duck?.closeSync();
  tmp.cleanup();
});

/**
 * `got` with each number that is within 1e-12 (relative) of `want`'s at the same place
 * replaced by `want`'s, so `expect(asClose(got, want)).toEqual(want)` tells every other
 * difference. The per-area means and sums of doubles (an area's mean position, a let area's
 * ADR) are aggregated by DuckDB's threads in no fixed order, so two runs of the same query
 * (the ETL's and the in-heap path's) may differ in the last bit or two: as they did before.
 */
function asClose(got: unknown, want: unknown): unknown {
  if (typeof got === 'number' && typeof want === 'number') return Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(got), Math.abs(want)) ? want : got;
  if (Array.isArray(got) && Array.isArray(want)) return got.map((g, i) => asClose(g, want[i]));
  if (got && want && typeof got === 'object' && typeof want === 'object') {
    return Object.fromEntries(Object.entries(got).map(([k, v]) => [k, asClose(v, (want as Record<string, unknown>)[k])]));
  }
  return got;
}

const fileOf = (t: LookupTables, name: LookupFileName) => t.files.find((f) => f.path.endsWith(`/${LOOKUP_FILES[name].file}`)) as KeyedRowsFile<Record<string, unknown>> | undefined;
const parquet = (t: string) => `read_parquet('${join(build.dir, `${t}.parquet`)}')`;
async function query(sql: string): Promise<Record<string, unknown>[]> {
  const conn = await duck.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
  }
}

describe('per-area lookup tables read from the build\'s keyed-rows files', () => {
  it('the ETL published the eight files, and the service read them (not tables made in its store)', () => {
    const artifacts = build.manifest.artifacts as Record<string, { file: string }>;
    for (const n of AREA_LOOKUP_FILES) expect(artifacts[LOOKUP_FILES[n].artifact]?.file, n).toBe(LOOKUP_FILES[n].file);
    for (const t of TABLES) {
      expect(paged.rows[t], t).toBeInstanceOf(AreaRowsFile);
      expect(heap.rows[t], t).toBeInstanceOf(KeyedRows);
    }
    expect(paged.files).toHaveLength(4 + 8);
    expect(heap.files).toHaveLength(4);
    expect([...paged.has].sort()).toEqual([...heap.has].sort());
    expect([...paged.has].sort()).toEqual(['area', 'area_stats', 'epc', 'index', 'room_rents', 'sales', 'str']);
  });

  for (const t of TABLES) {
    it(`${t}: every key's rows and first row as the in-heap table gives them, in the same order`, () => {
      const file = fileOf(paged, FILE_OF[t])!;
      const keys = new Set([...file.scan()].map((r) => r.key as string));
      const h = heap.rows[t] as KeyedRows<unknown>;
      // Every key of the file is one of the heap's, and they are as many: the same keys.
      expect(keys.size).toBe(h.keys);
      expect(keys.size).toBeGreaterThan(t === 'rooms' || t === 'str' ? 5 : 50);
      let rows = 0;
      let multi = 0;
      for (const k of [...keys, '', 'sector:ZZ1 1', 'district:E99999999', 'a', '~']) {
        const got = paged.rows[t].get(k);
        expect(asClose(got, h.get(k)), `${t} ${k}`).toEqual(h.get(k));
        expect(asClose(paged.rows[t].first(k), h.first(k)), `${t} ${k}`).toEqual(h.first(k));
        if (keys.has(k)) expect(got.length, `${t} ${k}`).toBeGreaterThan(0);
        for (const r of got) expect(r as object).not.toHaveProperty('key');
        // A long run (an area's index series) is kept decoded: the same rows again, not a second decode.
        if (got.length >= 64) expect(paged.rows[t].get(k)).toBe(got);
        rows += got.length;
        if (got.length > 1) multi++;
      }
      expect(rows).toBe(file.size);
      if (t === 'mix' || t === 'index' || t === 'rents') expect(multi).toBeGreaterThan(10);
      if (t === 'index') expect(Math.max(...[...keys].map((k) => paged.rows.index.get(k).length))).toBeGreaterThanOrEqual(64);
    }, 120_000);
  }

  it('growth: every area\'s row as DuckDB reads it from price_growth.parquet', async () => {
    const want = await query(`SELECT area_level || ':' || area_code AS area_key, * FROM ${parquet('price_growth')}`);
    expect(want.length).toBeGreaterThan(50);
    for (const w of want) {
      const got = paged.rows.growth.get(String(w.area_key));
      expect(got, String(w.area_key)).toHaveLength(1);
      const row = got[0] as Record<string, unknown>;
      for (const c of ['area_level', 'area_code', 'parent_code', 'as_of_month', 'index', 'growth_1y', 'growth_3y', 'growth_5y', 'growth_10y', 'median_price_12m', 'enough_sales']) {
        expect(row[c], `${String(w.area_key)} ${c}`).toEqual(w[c]);
      }
      expect(row.sales_12m).toBe(Number(w.sales_12m));
      expect(row.repeat_pairs).toBe(Number(w.repeat_pairs));
    }
  });

  it('counts: each district\'s addresses and its sales in the 12 months to the end of Price Paid\'s as-of month, as DuckDB counts them over the Parquet', async () => {
    const month = (build.manifest.source_as_of as Record<string, { month: string }>).price_paid!.month;
    const end = lastDayOf(month);
    const homes = await query(`SELECT la_code, count(*)::INTEGER AS n FROM ${parquet('properties')} WHERE la_code IS NOT NULL GROUP BY 1`);
    const sales = await query(`SELECT p.la_code, count(*)::INTEGER AS n FROM ${parquet('sales')} s JOIN ${parquet('properties')} p USING (uprn)
      WHERE p.la_code IS NOT NULL AND s.date > DATE '${end}' - INTERVAL 12 MONTH AND s.date <= DATE '${end}' GROUP BY 1`);
    const recent = new Map(sales.map((r) => [r.la_code as string, r.n as number]));
    expect(homes.length).toBeGreaterThan(1);
    expect([...recent.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(10);
    for (const h of homes) {
      const row = paged.rows.counts.first(`district:${h.la_code as string}`)!;
      expect(row.addresses, String(h.la_code)).toBe(h.n);
      expect(row.sales_12m, String(h.la_code)).toBe(recent.get(h.la_code as string) ?? 0);
    }
  });
});

describe('a build whose area files are missing, cut short or not theirs', () => {
  const load = async (b: BuildInfo) => loadLookupTables(await storeOf(b), b, { pages: new BlockCache(1 << 20) });

  it('listed but missing: a clear error naming the file, not an answer', async () => {
    const b = copyBuild('missing', (dir) => unlinkSync(join(dir, LOOKUP_FILES.areaCounts.file)));
    await expect(load(b)).rejects.toThrow(LookupFileError);
    await expect(load(b)).rejects.toThrow(/the areaCounts lookup file cannot be read: ENOENT.*lookup-area-counts\.rows/);
  });

  it('cut short, by half or inside its trailer: a clear error', async () => {
    for (const cut of ['half', 3] as const) {
      const b = copyBuild(`cut-${cut}`, (dir) => {
        const f = join(dir, LOOKUP_FILES.areaIndex.file);
        truncateSync(f, cut === 'half' ? Math.floor(statSync(f).size / 2) : statSync(f).size - cut);
      });
      await expect(load(b)).rejects.toThrow(/the areaIndex lookup file cannot be read: .*lookup-area-index\.rows is not a keyed-rows file/);
    }
  });

  it('another table\'s keyed-rows file in its place: a clear error, not its rows', async () => {
    const b = copyBuild('swapped', (dir) => copyFileSync(join(dir, LOOKUP_FILES.areaMix.file), join(dir, LOOKUP_FILES.areaStr.file)));
    await expect(load(b)).rejects.toThrow(/lookup-area-str\.rows is not the areaStr lookup table: it holds .*"dim"/);
  });

  it('the manifest names another file for the artifact: a clear error', async () => {
    const b = copyBuild('renamed', (_dir, m) => {
      (m.artifacts as Record<string, { file: string }>).lookup_area_rooms!.file = 'elsewhere.rows';
    });
    await expect(load(b)).rejects.toThrow(/artifact lookup_area_rooms is elsewhere\.rows, not lookup-area-rooms\.rows/);
  });

  it('one table of a group listed without the others: a clear error, not a mix of the two paths', async () => {
    const b = copyBuild('half-group', (dir, m) => {
      delete (m.artifacts as Record<string, unknown>)[LOOKUP_FILES.areaGrowth.artifact];
      unlinkSync(join(dir, LOOKUP_FILES.areaGrowth.file));
    });
    await expect(load(b)).rejects.toThrow(/lists the sqft, rents area file\(s\) but not growth: republish it/);
  });

  it('a failed load closes every file it had opened', async () => {
    const b = copyBuild('late-failure', (dir) => truncateSync(join(dir, LOOKUP_FILES.areaRooms.file), 10));
    const store = await storeOf(b);
    const fail = () => expect(loadLookupTables(store, b, { pages: new BlockCache(1 << 20) })).rejects.toThrow(/areaRooms lookup file cannot be read/);
    await fail();
    const before = readdirSync('/proc/self/fd').length;
    for (let i = 0; i < 5; i++) await fail();
    // Each failed load opened eleven files before the last (rooms is the last area file): none is left open.
    expect(readdirSync('/proc/self/fd').length).toBeLessThanOrEqual(before + 2);
  });
});

/** The endpoints that read the per-area tables, with their generated requests. */
const ROUTES = ['GET /v1/areas/{code}', 'GET /v1/postcodes/{postcode}', 'GET /v1/prices/trends', 'GET /v1/rents/long-term', 'GET /v1/rents/hmo', 'GET /v1/yields', 'GET /v1/flood-risk'];

/** A test server serving `b` (a copy of the build under its id). */
async function serve(b: BuildInfo): Promise<{ s: TestServer; key: string }> {
  const s = await startTestServer();
  const dir = join(s.dataDir, 'builds', build.id);
  cpSync(b.dir, dir, { recursive: true });
  symlinkSync(join('builds', build.id), join(s.dataDir, 'current.tmp'));
  renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  const { key } = await s.account('enterprise', { limit: 1_000_000_000, windowMs: 1000 });
  return { s, key };
}
/** GET `path`, waiting out the moments before the build is picked up. */
async function get(s: TestServer, key: string, path: string) {
  let r = await call(s.base, 'GET', path, { key });
  for (let i = 0; i < 200 && r.status === 503 && /No published data build/.test(String(r.json?.detail)); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    r = await call(s.base, 'GET', path, { key });
  }
  return r;
}

describe('the endpoints that read the area tables, over the files and over the in-heap tables', () => {
  let files: { s: TestServer; key: string };
  let inHeap: { s: TestServer; key: string };
  beforeAll(async () => {
    files = await serve(build);
    inHeap = await serve(copyBuild('served-older', withoutAreaFiles));
  }, 120_000);
  afterAll(async () => {
    await files?.s.stop();
    await inHeap?.s.stop();
  });

  it('answer every request identically on both paths', async () => {
    const reqs = endpointRequests(await readEndpointInputs(build.dir, 400), 40);
    let compared = 0;
    let ok = 0;
    for (const route of ROUTES) {
      const list = reqs.get(route);
      expect(list?.length, route).toBeGreaterThan(20);
      for (const r of list!) {
        const [a, b] = [await get(files.s, files.key, r.path), await get(inHeap.s, inHeap.key, r.path)];
        expect(a.status, r.path).toBe(b.status);
        const [ja, jb] = [{ ...a.json, request_id: null }, { ...b.json, request_id: null }];
        expect(asClose(ja, jb), r.path).toEqual(jb);
        compared++;
        if (a.status === 200) ok++;
      }
    }
    expect(ok).toBeGreaterThan(compared / 2);
  }, 300_000);
});

describe('GET /areas/{code} on a build whose area files are broken', () => {
  it('a file cut short before the build opens: 503 data_unavailable as problem+json, charging nothing', async () => {
    const { s, key } = await serve(copyBuild('served-cut', (dir) => truncateSync(join(dir, LOOKUP_FILES.areaCounts.file), 100)));
    try {
      const code = (await query(`SELECT sector FROM ${parquet('postcodes')} WHERE sector IS NOT NULL LIMIT 1`))[0]!.sector as string;
      const r = await get(s, key, `/v1/areas/${encodeURIComponent(code)}`);
      expect(r.status).toBe(503);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
      expect(r.headers['x-credits-cost']).toBe('0');
    } finally {
      await s.stop();
    }
  }, 120_000);

  it('the files cut to nothing once the build is warm: 503 for an area whose pages were not read, never an answer from half a page', async () => {
    const { s, key } = await serve(build);
    try {
      const sector = (await query(`SELECT sector FROM ${parquet('postcodes')} WHERE sector IS NOT NULL ORDER BY sector LIMIT 1`))[0]!.sector as string;
      // Opened (directories read) by the warm-up, no page of them read yet.
      for (let i = 0; i < 600 && !s.logs.some((l) => l.includes('"build warmed"')); i++) await new Promise((ok) => setTimeout(ok, 100));
      expect(s.logs.some((l) => l.includes('"build warmed"'))).toBe(true);
      const dir = join(s.dataDir, 'builds', build.id);
      for (const n of AREA_LOOKUP_FILES) truncateSync(join(dir, LOOKUP_FILES[n].file), 0);
      const r = await get(s, key, `/v1/areas/${encodeURIComponent(sector)}`);
      expect(r.status).toBe(503);
      expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    } finally {
      await s.stop();
    }
  }, 120_000);
});
