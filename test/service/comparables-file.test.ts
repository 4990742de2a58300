import { copyFileSync, cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache, BlockFileError } from '../../lib/files/block-file.ts';
import { COMPARABLES_FILE } from '../../lib/files/comparables-file.ts';
import { KeyedRowsWriter, PAGE } from '../../lib/files/keyed-rows-file.ts';
import { ComparablesFile } from '../../service/lookups/comparables-file.ts';
import { loadComparables, type ComparablesIndex } from '../../service/lookups/comparables.ts';
import { soldComparables } from '../../service/lookups/comparables-search.ts';
import { loadPropertyRecords, type PropertyRecords } from '../../service/records/property-records.ts';
import { BuildStore } from '../../service/store/store.ts';
import { SaleValuer } from '../../service/valuers/sale-valuer.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// The comparables file (issue 46, ADR 0015 step 4) against the in-heap index it replaces, over a
// real ETL build: the in-heap index, made from the store as every older build is served, is the
// expectation.
const tmp = mkdtempSync(join(tmpdir(), 'comparables-file-'));
let buildDir: string;
let buildId: string;
let store: BuildStore;
let valuer: SaleValuer;
let heap: ComparablesIndex;
let records: PropertyRecords;
let homes: Array<{ uprn: number; lat: number; lng: number }>;

beforeAll(async () => {
  const built = await publishSynthBuild(join(tmp, 'published'), { addresses: 2000, seed: 11 });
  buildId = built.build_id;
  buildDir = join(tmp, 'published', 'builds', buildId);
  store = await BuildStore.open(buildDir);
  valuer = await SaleValuer.open(store);
  heap = await loadComparables(store, valuer);
  records = await loadPropertyRecords(buildDir, new BlockCache(16 * 1048576));
  const rows = (await store.columns('lookup_comparables_all')) as { uprn: number[]; lat: number[]; lng: number[] };
  const seen = new Set<number>();
  homes = [];
  rows.uprn.forEach((u, i) => {
    if (!seen.has(u)) homes.push({ uprn: u, lat: rows.lat[i]!, lng: rows.lng[i]! });
    seen.add(u);
  });
}, 180_000);
afterAll(() => {
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const open = (dir = buildDir, cache = new BlockCache(8 * PAGE)) => ComparablesFile.open(dir, cache, valuer.lookup, valuer.asOfMonth);

type Query = Parameters<typeof soldComparables>[4];
const query = (q: Partial<Query>): Query => ({ sort: 'distance', page: 1, per_page: 50, ...q }) as Query;

describe('the comparables file of a real ETL build', () => {
  it('holds every sale the in-heap index holds, prices today brought to the same month', () => {
    const f = open()!;
    expect(heap.size).toBeGreaterThan(500);
    expect(f.size).toBe(heap.size);
    expect(f.indexMonth).toBe(heap.indexMonth);
    expect(f.indexMonth).not.toBeNull();
    f.close();
  });

  it('answers a spread of GET /prices/comparables queries exactly as the in-heap index, through a 32 KB cache', () => {
    const f = open()!;
    const queries: Array<[string, Query]> = [
      ['near', query({})],
      ['by date', query({ sort: 'date' })],
      ['houses of 3+ bedrooms', query({ property_type: 'Detached', min_bedrooms: 3 } as Partial<Query>)],
      ['2 bedrooms, 2015-2020', query({ bedrooms: 2, min_date: '2015-01-01', max_date: '2020-12-31' } as Partial<Query>)],
      ['sold before 2012', query({ max_date: '2011-12-31' } as Partial<Query>)],
      ['page 2 of 10', query({ page: 2, per_page: 10 })],
    ];
    let compared = 0;
    let nonEmpty = 0;
    for (let h = 0; h < homes.length; h += 23) {
      const home = homes[h]!;
      for (const radius of [100, 500, 2000]) {
        for (const [name, q] of queries) {
          // Around the home (itself left out, similarity to it), and around a point beside it.
          for (const at of [{ lat: home.lat, lng: home.lng, self: home.uprn }, { lat: home.lat + 0.0013, lng: home.lng - 0.0021, self: null }]) {
            const qq = at.self !== null && name === 'near' ? { ...q, sort: 'similarity' as const } : q;
            const want = soldComparables(heap, records, at, radius, qq);
            expect(soldComparables(f, records, at, radius, qq), `${name} within ${radius} m of ${JSON.stringify(at)}`).toEqual(want);
            compared++;
            if ('total' in want && want.total! > 0) nonEmpty++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(nonEmpty).toBeGreaterThan(compared / 2);
    f.close();
  });

  it('finds the same homes as the in-heap index at every radius around every located home, none twice', () => {
    const f = open(buildDir, new BlockCache(1 << 20))!;
    const keys = (src: ComparablesFile | ComparablesIndex, lat: number, lng: number, r: number) => {
      const hits = src.latestWithin(lat, lng, r, () => true);
      return Array.from(hits.row, (i, j) => `${hits.sales.uprn[i]}:${hits.sales.day[i]}:${hits.dist[j]}`).sort();
    };
    for (let h = 0; h < homes.length; h += 3) {
      const { lat, lng } = homes[h]!;
      for (const r of [1, 250, 1000]) {
        const got = keys(f, lat, lng, r);
        expect(got).toEqual(keys(heap, lat, lng, r));
        expect(new Set(got.map((k) => k.split(':')[0])).size).toBe(got.length);
      }
    }
    f.close();
  });
});

describe('a comparables file that is missing, foreign, cut short or changed under it', () => {
  const copy = (name: string) => {
    const dir = join(tmp, name);
    cpSync(buildDir, dir, { recursive: true });
    return dir;
  };

  it('a build without one (an older ETL\'s) opens none: the in-heap index serves it', () => {
    const dir = copy('older');
    rmSync(join(dir, COMPARABLES_FILE));
    expect(open(dir)).toBeUndefined();
  });

  it('refuses a file cut short, a keyed-rows file of another kind, and one that is not a keyed-rows file, naming it', () => {
    const dir = copy('bad');
    const path = join(dir, COMPARABLES_FILE);
    const size = readFileSync(path).length;
    truncateSync(path, size - 100);
    expect(() => open(dir)).toThrow(BlockFileError);
    const other = new KeyedRowsWriter(path, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: true });
    other.add(1, [100]);
    other.finish();
    expect(() => open(dir)).toThrow(/comparables\.rows is not a comparables file/);
    writeFileSync(path, Buffer.alloc(5000, 7));
    expect(() => open(dir)).toThrow(/comparables\.rows is not a keyed-rows file/);
  });

  it('a file truncated while open throws on the pages it lost; one renamed over it answers from the opened one', () => {
    const dir = copy('changed');
    const path = join(dir, COMPARABLES_FILE);
    const { lat, lng } = homes[0]!;
    const want = soldComparables(heap, records, { lat, lng, self: null }, 2000, query({}));

    const renamed = open(dir, new BlockCache(2 * PAGE))!;
    copyFileSync(path, `${path}.new`);
    writeFileSync(`${path}.other`, 'not the comparables');
    renameSync(`${path}.other`, path);
    expect(soldComparables(renamed, records, { lat, lng, self: null }, 2000, query({}))).toEqual(want);
    renamed.close();
    renameSync(`${path}.new`, path);

    const truncated = open(dir, new BlockCache(2 * PAGE))!;
    truncateSync(path, PAGE);
    expect(() => truncated.latestWithin(lat, lng, 2000, () => true)).toThrow(BlockFileError);
    truncated.close();
  });
});

describe('GET /prices/comparables on a build whose comparables file is cut short', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    // The real build, copied with its comparables file truncated before it becomes current.
    const dir = join(s.dataDir, 'builds', buildId);
    cpSync(buildDir, dir, { recursive: true });
    truncateSync(join(dir, COMPARABLES_FILE), 10_000);
    symlinkSync(join('builds', buildId), join(s.dataDir, 'current.tmp'));
    renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 503 data_unavailable as problem+json, charging nothing, and serves the sale valuations', async () => {
    const { key } = await s.account('enterprise');
    const home = homes[0]!;
    let r = await call(s.base, 'GET', `/v1/prices/comparables?uprn=${home.uprn}`, { key });
    for (let i = 0; i < 100 && r.status === 503 && r.json.code === 'data_unavailable' && /No published data build/.test(r.json.detail); i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await call(s.base, 'GET', `/v1/prices/comparables?uprn=${home.uprn}`, { key });
    }
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    expect(r.json.detail).toMatch(/GET \/prices\/comparables/);
    expect(r.headers['x-credits-cost']).toBe('0');
    const v = await call(s.base, 'GET', `/v1/valuations/${home.uprn}/sale`, { key });
    expect([200, 404]).toContain(v.status);
  });
});
