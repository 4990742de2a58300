import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, rmSync, truncateSync, unlinkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOOKUP_FILES } from '../../lib/files/lookup-tables-format.ts';
import { PROPERTY_RECORDS_FILE } from '../../lib/files/record-file-format.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource, type BuildInfo } from '../../service/build/source.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { RowsByNumber, RowsByText } from '../../service/lookups/packed-rows.ts';
import { closeLookupTables, loadLookupTables, type KeyedLookup, type LookupTables } from '../../service/lookups/tables.ts';
import { BuildStore } from '../../service/store/store.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { doctoredCopy } from '../support/doctored-build.ts';

/**
 * The lookup tables read from the ETL's keyed-rows files (issue 46, ADR 0015 step 2) against
 * the same build's tables made in the heap from its store, as every build was served before:
 * every key of a real ETL build, on a page cache far smaller than the files.
 */
const tmp = tempDir();
let build: BuildInfo;
/** Each load makes the area tables in its store: a store per load. */
const stores: BuildStore[] = [];
async function storeOf(b: BuildInfo): Promise<BuildStore> {
  const s = await BuildStore.open(b.dir);
  stores.push(s);
  return s;
}
let paged: LookupTables;
let heap: LookupTables;
let duck: DuckDBInstance;
const TABLES = ['sales', 'epc', 'postcodes', 'typeMonths'] as const;

beforeAll(async () => {
  await publishSynthBuild(join(tmp.dir, 'dd'));
  build = fileDataSource(join(tmp.dir, 'dd')).current()!;
  // 16 pages: most lookups miss, and a key's rows that run onto the next page are read across an eviction.
  paged = await loadLookupTables(await storeOf(build), build, { pages: new BlockCache(16 * 4096) });
  heap = await loadLookupTables(await storeOf(build), build);
  duck = await DuckDBInstance.create(':memory:');
}, 300_000);
afterAll(async () => {
  if (paged) closeLookupTables(paged);
  for (const s of stores) s.close();
  duck?.closeSync();
  tmp.cleanup();
});

/** A table's rows without the key the in-heap sales and certificates leave out. */
const withoutKey = (rows: unknown[], key: string) => rows.map((r) => Object.fromEntries(Object.entries(r as object).filter(([k]) => k !== key)));

/** Every key of a table: the file's (scanned) and DuckDB's own over the build's tables, and some no table has. */
async function keysOf(name: (typeof TABLES)[number]): Promise<Array<number | string>> {
  const file = paged.files.find((f) => f.path.endsWith(LOOKUP_FILES[name].file)) as KeyedRowsFile<Record<string, number | string>>;
  const keys = new Set<number | string>([...file.scan()].map((r) => r[LOOKUP_FILES[name].key.name]!));
  const parquet = (t: string) => `read_parquet('${join(build.dir, `${t}.parquet`)}')`;
  const direct = {
    sales: `SELECT DISTINCT uprn::DOUBLE AS k FROM ${parquet('sales')} WHERE uprn IS NOT NULL`,
    epc: `SELECT DISTINCT uprn::DOUBLE AS k FROM ${parquet('epc_linked')} WHERE uprn IS NOT NULL`,
    postcodes: `SELECT postcode AS k FROM ${parquet('postcodes')}`,
    typeMonths: null,
  }[name];
  if (direct) {
    const conn = await duck.connect();
    const fromDuckDb = (await conn.runAndReadAll(direct)).getColumnsJS()[0] as Array<number | string>;
    conn.closeSync();
    expect(new Set(fromDuckDb), `${name}: the file's keys are DuckDB's over the build's Parquet`).toEqual(keys);
  }
  const absent = LOOKUP_FILES[name].key.kind === 'num' ? [0, -1, 1e15, 0.5] : ['', 'ZZ99 9ZZ', 'sector:ZZ1 1:D', 'a'];
  return [...keys, ...absent];
}

describe('lookup tables read from the build\'s keyed-rows files', () => {
  it('the ETL published the four files, and the service opened them (not the heap\'s tables)', () => {
    const artifacts = build.manifest.artifacts as Record<string, { file: string }>;
    for (const t of TABLES) expect(artifacts[LOOKUP_FILES[t].artifact]?.file).toBe(LOOKUP_FILES[t].file);
    for (const t of TABLES) expect(paged[t]).toBeInstanceOf(KeyedRowsFile);
    // The four here and the eight per-area tables' (test/service/area-lookup-files.test.ts).
    expect(paged.files).toHaveLength(12);
    expect(heap.sales).toBeInstanceOf(RowsByNumber);
    expect(heap.postcodes).toBeInstanceOf(RowsByText);
    expect(heap.files).toHaveLength(0);
    expect([...paged.has].sort()).toEqual([...heap.has].sort());
  });

  for (const name of TABLES) {
    it(`${name}: every key's rows as the in-heap table gives them, in the same order`, async () => {
      const p = paged[name] as KeyedLookup<number | string, unknown>;
      const h = heap[name] as KeyedLookup<number | string, unknown>;
      expect(p.size).toBe(h.size);
      expect(p.size).toBeGreaterThan({ sales: 1000, epc: 1000, typeMonths: 500, postcodes: 50 }[name]);
      const key = LOOKUP_FILES[name].key.name;
      // The in-heap sales and certificates leave their UPRN out of the row; postcodes and months keep their key.
      const strip = name === 'sales' || name === 'epc';
      let rows = 0;
      let multi = 0;
      for (const k of await keysOf(name)) {
        const got = p.get(k);
        expect(strip ? withoutKey(got, key) : got, `${name} ${k}`).toEqual(h.get(k));
        if (strip) for (const r of got) expect((r as Record<string, unknown>)[key]).toBe(k);
        rows += got.length;
        if (got.length > 1) multi++;
      }
      // Every row was some key's: the tables are the same.
      expect(rows).toBe(h.size);
      if (name !== 'postcodes') expect(multi).toBeGreaterThan(10);
    }, 120_000);
  }

  it('postcodes: first() as the in-heap table\'s', () => {
    for (const pc of ['', 'ZZ99 9ZZ', ...[...(paged.files.find((f) => f.path.endsWith(LOOKUP_FILES.postcodes.file))!.scan())].slice(0, 200).map((r) => (r as { postcode: string }).postcode)]) {
      expect(paged.postcodes!.first(pc)).toEqual(heap.postcodes!.first(pc));
    }
  });
});

describe('a build whose lookup files are missing, cut short or not theirs', () => {
    /** A copy of the build with `doctor` applied to its folder and manifest (test/support/doctored-build.ts). */
  const copyBuild = (name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo => doctoredCopy(build, tmp.dir, name, doctor);
  const load = async (b: BuildInfo) => loadLookupTables(await storeOf(b), b, { pages: new BlockCache(1 << 20) });

  it('listed but missing: a clear error naming the file, not an answer', async () => {
    const b = copyBuild('missing', (dir) => unlinkSync(join(dir, LOOKUP_FILES.sales.file)));
    await expect(load(b)).rejects.toThrow(LookupFileError);
    await expect(load(b)).rejects.toThrow(/the sales lookup file cannot be read: ENOENT.*lookup-sales\.rows/);
  });

  it('cut short: a clear error (its trailer is gone)', async () => {
    const b = copyBuild('truncated', (dir) => {
      const f = join(dir, LOOKUP_FILES.postcodes.file);
      truncateSync(f, Math.floor(statSync(f).size / 2));
    });
    await expect(load(b)).rejects.toThrow(/the postcodes lookup file cannot be read: .*lookup-postcodes\.rows is not a keyed-rows file, or was not finished/);
  });

  it('cut short by a few bytes inside its trailer, or to nothing: a clear error', async () => {
    for (const cut of [3, 'all'] as const) {
      const b = copyBuild(`cut-${cut}`, (dir) => {
        const f = join(dir, LOOKUP_FILES.epc.file);
        truncateSync(f, cut === 'all' ? 0 : statSync(f).size - cut);
      });
      await expect(load(b)).rejects.toThrow(/the epc lookup file cannot be read: .*lookup-epc\.rows is not a keyed-rows file/);
    }
  });

  it('another kind of file in its place: a clear error', async () => {
    const b = copyBuild('not-keyed-rows', (dir) => copyFileSync(join(dir, PROPERTY_RECORDS_FILE), join(dir, LOOKUP_FILES.typeMonths.file)));
    await expect(load(b)).rejects.toThrow(/the typeMonths lookup file cannot be read: .*not a keyed-rows file/);
  });

  it('another table\'s keyed-rows file in its place: a clear error, not its rows', async () => {
    const b = copyBuild('swapped', (dir) => copyFileSync(join(dir, LOOKUP_FILES.epc.file), join(dir, LOOKUP_FILES.sales.file)));
    await expect(load(b)).rejects.toThrow(/lookup-sales\.rows is not the sales lookup table: it holds .*certificate_id/);
  });

  it('the manifest names another file for the artifact: a clear error', async () => {
    const b = copyBuild('renamed', (_dir, m) => {
      (m.artifacts as Record<string, { file: string }>).lookup_epc!.file = 'elsewhere.rows';
    });
    await expect(load(b)).rejects.toThrow(/artifact lookup_epc is elsewhere\.rows, not lookup-epc\.rows/);
  });

  it('a build published before the files (its manifest lists none): the in-heap tables, the same answers', async () => {
    const b = copyBuild('older', (dir, m) => {
      const artifacts = m.artifacts as Record<string, unknown>;
      for (const spec of Object.values(LOOKUP_FILES)) {
        delete artifacts[spec.artifact];
        rmSync(join(dir, spec.file));
      }
    });
    const t = await load(b);
    expect(t.files).toHaveLength(0);
    expect(t.sales).toBeInstanceOf(RowsByNumber);
    expect(t.typeMonths).toBeInstanceOf(RowsByText);
    for (const name of TABLES) expect(t[name]!.size, name).toBe(heap[name]!.size);
    const uprns = [...(paged.files.find((f) => f.path.endsWith(LOOKUP_FILES.sales.file)) as KeyedRowsFile<{ uprn: number }>).scan()].slice(0, 300).map((r) => r.uprn);
    for (const u of uprns) expect(t.sales!.get(u)).toEqual(heap.sales!.get(u));
  });

  it('BuildResources opens the files on the build\'s page cache and closes them with the build', async () => {
    const res = new BuildResources(build, { pageCacheBytes: 1 << 20 });
    const t = await res.lookups.get();
    expect(t.files).toHaveLength(12);
    const uprn = [...(t.files[0] as KeyedRowsFile<{ uprn: number }>).scan()][0]!.uprn;
    expect(t.sales!.get(uprn).length).toBeGreaterThan(0);
    expect(res.caches.pages.stats.misses).toBeGreaterThan(0);
    await res.close();
    expect(() => t.sales!.get(uprn)).toThrow(/is closed/);
  }, 120_000);

  it('a broken file fails only the lookup tables: the build\'s other resources still open', async () => {
    const b = copyBuild('broken-serving', (dir) => truncateSync(join(dir, LOOKUP_FILES.sales.file), 100));
    const res = new BuildResources(b, { pageCacheBytes: 1 << 20 });
    try {
      await expect(res.lookups.get()).rejects.toThrow(/the sales lookup file cannot be read/);
      expect((await res.records.get()).get(Number.MAX_SAFE_INTEGER)).toBeUndefined();
    } finally {
      await res.close();
    }
  }, 120_000);
});
