import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, cpSync, renameSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { DESIGNATIONS_FILE } from '../../lib/files/designations-file.ts';
import { PAGE } from '../../lib/files/keyed-rows-file.ts';
import { STR_MARKET_AREAS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_ROWS_FILE } from '../../lib/files/str-market-file.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource, type BuildInfo } from '../../service/build/source.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { StrMarketFiles } from '../../service/str/market-files.ts';
import { StrMarketSet } from '../../service/str/market-set.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';
import { doctoredCopy } from '../support/doctored-build.ts';

/**
 * The STR market set read where it lies (str-market*.rows, issue 46, ADR 0015 step 6) against
 * the in-heap set an older build is served from: GET /str/market and /str/listings on one real
 * ETL build, served by two servers, one of them given the build with the files unlisted. Every
 * answer must be byte-identical; the files' faults must be 503s, never another answer.
 */
const tmp = tempDir();
const SPECS = [STR_MARKET_ROWS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_AREAS_FILE];
let build: BuildInfo;
/** Places to ask about, read from the published tables with DuckDB here. */
let listings: { lat: number; lng: number; postcode: string | null; sector: string | null; outcode: string | null }[] = [];

beforeAll(async () => {
  await publishSynthBuild(join(tmp.dir, 'dd'), { addresses: 4000, seed: 11 });
  build = fileDataSource(join(tmp.dir, 'dd')).current()!;
  const db = await DuckDBInstance.create(':memory:');
  try {
    const conn = await db.connect();
    listings = (await conn.runAndReadAll(`SELECT lat::DOUBLE AS lat, lng::DOUBLE AS lng, postcode, sector, outcode
      FROM read_parquet('${join(build.dir, 'str_listings.parquet')}') WHERE lat IS NOT NULL AND lng IS NOT NULL ORDER BY id`)).getRowObjectsJS() as typeof listings;
    conn.closeSync();
  } finally {
    db.closeSync();
  }
}, 300_000);
afterAll(() => tmp.cleanup());

/** A copy of the build with `doctor` applied to its folder and manifest (test/support/doctored-build.ts). */
const copyBuild = (name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo => doctoredCopy(build, tmp.dir, name, doctor);

const unlisted = (dir: string, m: Record<string, unknown>) => {
  for (const spec of SPECS) {
    delete (m.artifacts as Record<string, unknown>)[spec.artifact];
    unlinkSync(join(dir, spec.file));
  }
};

/** A server on `b`'s folder as its current build, waited for until it serves one. */
async function serve(b: BuildInfo): Promise<{ s: TestServer; key: string }> {
  const s = await startTestServer();
  const dir = join(s.dataDir, 'builds', build.id);
  cpSync(b.dir, dir, { recursive: true });
  symlinkSync(join('builds', build.id), join(s.dataDir, 'current.tmp'));
  renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  const { key } = await s.account('enterprise', { limit: 1_000_000, windowMs: 1_000 });
  let r = await call(s.base, 'GET', '/v1/str/market?outcode=ZZ9', { key });
  for (let i = 0; i < 200 && r.status === 503 && /No published data build/.test(String(r.json?.detail)); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    r = await call(s.base, 'GET', '/v1/str/market?outcode=ZZ9', { key });
  }
  return { s, key };
}

describe('the STR market files on a real ETL build', () => {
  it('the build lists the three files; BuildResources serves the files, an older build the heap', async () => {
    expect(listings.length).toBeGreaterThan(10);
    const artifacts = build.manifest.artifacts as Record<string, { file: string }>;
    for (const spec of SPECS) expect(artifacts[spec.artifact]?.file).toBe(spec.file);
    const res = new BuildResources(build, { pageCacheBytes: 1 << 20 });
    const files = await res.strMarket.get();
    expect(files).toBeInstanceOf(StrMarketFiles);
    expect(files.size).toBe(listings.length);
    await res.close();
    const older = new BuildResources(copyBuild('older-res', unlisted), { pageCacheBytes: 1 << 20 });
    expect(await older.strMarket.get()).toBeInstanceOf(StrMarketSet);
    await older.close();
  }, 120_000);

  it('the same listings for every area, radius and polygon as the in-heap set, and the same benchmark', async () => {
    const files = StrMarketFiles.open(build, new BlockCache(8 * PAGE))!;
    const older = new BuildResources(copyBuild('older-set', unlisted), { pageCacheBytes: 1 << 20 });
    const heap = (await older.strMarket.get()) as StrMarketSet;
    // Every listing's row as the heap holds it, read from the files one listing at a time.
    const all = Array.from({ length: heap.size }, (_, i) => i);
    const sub = files.listingsOf(all);
    for (const k of ['lat', 'lng', 'postcode', 'sector', 'outcode', 'country', 'type', 'kind', 'beds', 'tier', 'ratings', 'active', 'blocked', 'new30', 'bookedAhead30', 'openNext30', 'stay', 'amenityKeys', 'amenities', 'endMonth', 'months', 'prior'] as const) {
      expect(sub[k], k).toEqual(heap.listings[k]);
    }
    expect(heap.listings.months.some((x) => x > 0)).toBe(true);
    // Membership recomputed here from the published table.
    const sectors = [...new Set(listings.map((l) => l.sector).filter((x): x is string => !!x))];
    const outcodes = [...new Set(listings.map((l) => l.outcode).filter((x): x is string => !!x))];
    for (const sec of sectors) {
      const want = listings.flatMap((l, i) => (l.sector === sec ? [i] : []));
      expect(files.sector(sec)).toEqual(want);
      expect(heap.sector(sec)).toEqual(want);
    }
    for (const out of outcodes) expect(files.outcode(out)).toEqual(heap.outcode(out));
    expect(files.sector('ZZ9 9')).toEqual([]);
    for (let i = 0; i < listings.length; i += 3) {
      const { lat, lng } = listings[i]!;
      for (const r of [0, 50, 400, 1000, 3000]) expect(files.within(lat, lng, r), `${lat},${lng} ${r}`).toEqual(heap.within(lat, lng, r));
    }
    for (let i = 0; i < listings.length; i += 7) {
      const { lat, lng } = listings[i]!;
      const ring: [number, number][] = [[lng - 0.01, lat - 0.008], [lng + 0.012, lat - 0.005], [lng + 0.004, lat + 0.01]];
      expect(files.inPolygon(ring)).toEqual(heap.inPolygon(ring));
    }
    expect(files.unplacedCount()).toBe(heap.unplacedCount());
    expect(files.unplacedCount()).toBe(listings.filter((l) => l.postcode === null).length);
    expect([...files.countries()]).toEqual([...new Set(heap.listings.country.filter((c) => c !== null))].sort());
    expect(await files.bench()).toEqual(heap.bench());
    expect(heap.bench().areas.length).toBeGreaterThan(0);
    files.close();
    await older.close();
  }, 120_000);

  it('listed but missing, cut short, another kind of file, another table\'s, or only some listed: a clear error naming it', () => {
    const open = (b: BuildInfo) => () => StrMarketFiles.open(b, new BlockCache(4 * PAGE));
    const missing = copyBuild('missing', (dir) => unlinkSync(join(dir, STR_MARKET_CELLS_FILE.file)));
    expect(open(missing)).toThrow(LookupFileError);
    expect(open(missing)).toThrow(/STR market str_market_cells file cannot be read: ENOENT.*str-market-cells\.rows/);
    const cut = copyBuild('cut', (dir) => {
      const f = join(dir, STR_MARKET_ROWS_FILE.file);
      truncateSync(f, Math.floor(statSync(f).size / 2));
    });
    expect(open(cut)).toThrow(/str_market_rows file cannot be read: .*not a keyed-rows file, or was not finished/);
    const other = copyBuild('other-kind', (dir) => writeFileSync(join(dir, STR_MARKET_AREAS_FILE.file), 'not a keyed-rows file at all'));
    expect(open(other)).toThrow(/str_market_areas file cannot be read/);
    const swapped = copyBuild('swapped', (dir) => copyFileSync(join(dir, DESIGNATIONS_FILE.file), join(dir, STR_MARKET_ROWS_FILE.file)));
    expect(open(swapped)).toThrow(/str-market\.rows is not the STR market str_market_rows table: it holds .*flood_risk_level/);
    const some = copyBuild('some', (_, m) => void delete (m.artifacts as Record<string, unknown>)[STR_MARKET_AREAS_FILE.artifact]);
    expect(open(some)).toThrow(/lists only some of the STR market files/);
  });
});

describe('GET /str/market and /str/listings: the same answers from the files as from the heap', () => {
  let files: { s: TestServer; key: string };
  let heap: { s: TestServer; key: string };
  beforeAll(async () => {
    files = await serve(build);
    heap = await serve(copyBuild('older-serve', unlisted));
  }, 120_000);
  afterAll(async () => {
    await files?.s.stop();
    await heap?.s.stop();
  });

  async function both(path: string): Promise<Reply> {
    const [a, b] = [await call(files.s.base, 'GET', path, { key: files.key }), await call(heap.s.base, 'GET', path, { key: heap.key })];
    // A problem's request_id is the request's own; everything else must be the same.
    const body = (r: Reply) => ({ ...r.json, request_id: undefined });
    expect({ path, status: a.status, body: body(a) }).toEqual({ path, status: b.status, body: body(b) });
    return a;
  }

  /** Every location form, over the build's own places. */
  function places(): string[] {
    const sectors = [...new Set(listings.map((l) => l.sector).filter((x): x is string => !!x))];
    const outcodes = [...new Set(listings.map((l) => l.outcode).filter((x): x is string => !!x))];
    const postcodes = [...new Set(listings.map((l) => l.postcode).filter((x): x is string => !!x))].slice(0, 12);
    const out = [
      ...outcodes.map((o) => `outcode=${encodeURIComponent(o)}`),
      ...sectors.slice(0, 15).map((s) => `postcode=${encodeURIComponent(s)}`),
      ...postcodes.map((p) => `postcode=${encodeURIComponent(p)}`),
      ...postcodes.slice(0, 4).map((p) => `postcode=${encodeURIComponent(p)}&radius_m=2500`),
      'outcode=ZZ9', 'postcode=ZZ9%209', 'postcode=ZZ9%209ZZ',
    ];
    for (let i = 0; i < listings.length; i += Math.max(1, Math.floor(listings.length / 10))) {
      const { lat, lng } = listings[i]!;
      out.push(`lat=${lat}&lng=${lng}&radius_m=${[300, 1000, 5000][i % 3]}`);
      out.push(`polygon=${encodeURIComponent(`${lng - 0.02},${lat - 0.015} ${lng + 0.02},${lat - 0.01} ${lng},${lat + 0.02}`)}`);
    }
    return out;
  }

  const FILTERS = ['', 'listing_type=entire_home', 'listing_type=private_room', 'bedrooms=2', 'min_bedrooms=2&max_bedrooms=3', 'property_type=house',
    'property_type=apartment', 'min_rating=4.5', 'price_tier=Budget&price_tier=Luxury', 'include=grade', 'include=summary,historical,supply'];

  it('GET /str/market: every location form with every filter and section', async () => {
    const ps = places();
    let ok = 0;
    for (const p of ps) {
      for (const f of FILTERS) if ((await both(`/v1/str/market?${p}${f ? `&${f}` : ''}`)).status === 200) ok++;
    }
    // The comparison is only worth something if most of it compared figures.
    expect(ok).toBeGreaterThan(ps.length * 2);
  }, 600_000);

  it('GET /str/listings: every location form, sort and page', async () => {
    let ok = 0;
    for (const p of places()) {
      for (const q of ['', 'sort=adr&per_page=5', 'sort=occupancy&per_page=3&page=2', 'sort=rating&bedrooms=1', 'sort=distance&per_page=50', 'property_type=house&per_page=2&page=3']) {
        if ((await both(`/v1/str/listings?${p}${q ? `&${q}` : ''}`)).status === 200) ok++;
      }
    }
    expect(ok).toBeGreaterThan(50);
  }, 600_000);
});

describe('a listed STR market file cut short', () => {
  let s: TestServer;
  beforeAll(async () => {
    ({ s } = await serve(copyBuild('cut-serve', (dir) => truncateSync(join(dir, STR_MARKET_CELLS_FILE.file), 100))));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('GET /str/market and /str/listings answer 503 data_unavailable as problem+json, charging nothing', async () => {
    const { key } = await s.account('enterprise');
    const outcode = listings.find((l) => l.outcode)!.outcode!;
    for (const path of [`/v1/str/market?outcode=${outcode}`, `/v1/str/listings?outcode=${outcode}`]) {
      const r = await call(s.base, 'GET', path, { key });
      expect(r.status).toBe(503);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
