import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, cpSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache, BlockFileError } from '../../lib/files/block-file.ts';
import { EVIDENCE_FILES } from '../../lib/files/evidence-files.ts';
import { LOOKUP_FILES } from '../../lib/files/lookup-tables-format.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource, type BuildInfo } from '../../service/build/source.ts';
import { summariseLets, type RentArea } from '../../service/domain/rents.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { letsIn, rentalLetsNear, rentComparablesNear, type LetRow } from '../../service/valuers/evidence.ts';
import { valueRental } from '../../service/domain/valuation-models/rental.ts';
import { openRentLetsFiles } from '../../service/valuers/evidence-files.ts';
import { FixedCellRows } from '../../service/valuers/fixed-cell-rows.ts';
import { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, postJson, startTestServer, type TestServer } from './support.ts';
import { doctoredCopy } from '../support/doctored-build.ts';

/**
 * The rent lets, sqft sales and point country read from the ETL's files (issue 46, ADR 0015
 * step 6) against the same build served from the heap, as every build was before: the heap's
 * answers, made from the store by the code that served them, are the expectation. Over a real
 * ETL build, on a page cache far smaller than the files.
 */
const tmp = tempDir();
let build: BuildInfo;
let older: BuildInfo;
let files: BuildResources;
let heap: BuildResources;
const FILE_NAMES = Object.values(EVIDENCE_FILES);

let homes: Array<{ uprn: number; lat: number; lng: number }>;
let postcodes: Array<{ postcode: string; lat: number | null; lng: number | null }>;
let sectors: string[];
let outcodes: string[];

/** A copy of the build with `doctor` applied to its folder and manifest (test/support/doctored-build.ts). */
const copyBuild = (name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo => doctoredCopy(build, tmp.dir, name, doctor);

/** A build published before these files: its manifest lists none and they are gone. */
const withoutFiles = (dir: string, m: Record<string, unknown>) => {
  for (const f of FILE_NAMES) {
    delete (m.artifacts as Record<string, unknown>)[f.artifact];
    rmSync(join(dir, f.file));
  }
};

beforeAll(async () => {
  await publishSynthBuild(join(tmp.dir, 'dd'), { addresses: 3000, seed: 42 });
  build = fileDataSource(join(tmp.dir, 'dd')).current()!;
  older = copyBuild('older', withoutFiles);
  // 24 pages: most radius searches miss, and a cell row's run is read across evictions.
  files = new BuildResources(build, { pageCacheBytes: 24 * 4096 });
  heap = new BuildResources(older, { pageCacheBytes: 1 << 20 });
  const duck = await DuckDBInstance.create(':memory:');
  const conn = await duck.connect();
  const all = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJS() as Array<Record<string, unknown>>;
  const pq = (t: string) => `read_parquet('${join(build.dir, `${t}.parquet`)}')`;
  homes = (await all(`SELECT uprn::DOUBLE AS uprn, lat, lng FROM ${pq('properties')} WHERE lat IS NOT NULL ORDER BY uprn`)) as typeof homes;
  postcodes = (await all(`SELECT postcode, lat, lng FROM ${pq('postcodes')} ORDER BY postcode`)) as typeof postcodes;
  sectors = (await all(`SELECT DISTINCT sector FROM ${pq('postcodes')} ORDER BY 1`)).map((r) => r.sector as string);
  outcodes = (await all(`SELECT DISTINCT outcode FROM ${pq('postcodes')} ORDER BY 1`)).map((r) => r.outcode as string);
  conn.closeSync();
  duck.closeSync();
}, 600_000);
afterAll(async () => {
  await files?.close();
  await heap?.close();
  tmp.cleanup();
});

/** A deterministic spread of numbers in [0, 1). */
function* spread(n: number, seed = 1): Generator<number> {
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 48271) % 2147483647;
    yield x / 2147483647;
  }
}

/** Points near the homes (on them, jittered up to ~3 km) and some far from any. */
function places(n: number): Array<{ lat: number; lng: number }> {
  const out: Array<{ lat: number; lng: number }> = [];
  const r = [...spread(3 * n, 7)];
  for (let i = 0; i < n; i++) {
    const h = homes[Math.floor(r[3 * i]! * homes.length)]!;
    const jitter = i % 4 === 0 ? 0 : 0.03;
    out.push({ lat: h.lat + (r[3 * i + 1]! - 0.5) * jitter, lng: h.lng + (r[3 * i + 2]! - 0.5) * jitter * 1.6 });
  }
  out.push({ lat: 50.0, lng: -5.9 }, { lat: 60.5, lng: 1.5 }, { lat: 54, lng: -2 });
  return out;
}

describe('the evidence files of a real ETL build', () => {
  it('the ETL published the four files, and the service opened them (not the heap\'s)', async () => {
    const artifacts = build.manifest.artifacts as Record<string, { file: string }>;
    for (const f of FILE_NAMES) expect(artifacts[f.artifact]?.file, f.artifact).toBe(f.file);
    for (const r of [await files.rentLets.get(), await files.sqftSales.get(), await files.pointCountry.get()]) expect('close' in r).toBe(true);
    for (const r of [await heap.rentLets.get(), await heap.sqftSales.get(), await heap.pointCountry.get()]) expect('close' in r).toBe(false);
    expect(homes.length).toBeGreaterThan(2000);
  });

  it('rent lets: the as-of date and the rent growth are the heap\'s, to the bit', async () => {
    const [f, h] = [await files.rentLets.get(), await heap.rentLets.get()];
    expect(f.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(f.asOf).toBe(h.asOf);
    expect(h.growthPerMonth).not.toBe(0);
    expect(Object.is(f.growthPerMonth, h.growthPerMonth)).toBe(true);
  });

  it('rent lets by sector and outcode: every area of the build, each kind and bedroom group, the same lets and summaries', async () => {
    const [f, h] = [await files.rentLets.get(), await heap.rentLets.get()];
    const key = (l: LetRow) => `${l.date}|${l.rent}|${l.bedrooms}|${l.flat}`;
    let nonEmpty = 0;
    for (const [level, codes] of [['sector', [...sectors, 'ZZ9 9']], ['outcode', [...outcodes, 'ZZ9', 'BS1 4']]] as const) {
      for (const code of codes) {
        const got: string[] = [], want: string[] = [];
        f.inArea(level, code, (l) => got.push(key(l)));
        h.inArea(level, code, (l) => want.push(key(l)));
        expect(got.sort(), `${level} ${code}`).toEqual(want.sort());
        if (want.length) nonEmpty++;
        const area = { level, code, label: code } as RentArea;
        for (const kind of [null, 'house', 'flat'] as const) {
          for (const group of [null, 0, 1, 2, 3, 4]) expect(summariseLets(letsIn(f, area, kind, group))).toEqual(summariseLets(letsIn(h, area, kind, group)));
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it('rent lets by radius: the same lets with the same distances at 600 places and five radii', async () => {
    const [f, h] = [await files.rentLets.get(), await heap.rentLets.get()];
    const key = (l: LetRow, d: number) => `${d}|${l.date}|${l.rent}|${l.bedrooms}|${l.flat}|${l.uprn}|${l.floorAreaSqft}`;
    let found = 0;
    for (const p of places(600)) {
      for (const radius of [50, 220, 670, 1_300, 5_000]) {
        const got: string[] = [], want: string[] = [];
        f.within(p.lat, p.lng, radius, (l, d) => got.push(key(l, d)));
        h.within(p.lat, p.lng, radius, (l, d) => want.push(key(l, d)));
        expect(got.sort()).toEqual(want.sort());
        found += want.length;
        const area = { level: 'radius', lat: p.lat, lng: p.lng, radius_m: radius, label: '' } as RentArea;
        expect(summariseLets(letsIn(f, area, null, null))).toEqual(summariseLets(letsIn(h, area, null, null)));
      }
    }
    expect(found).toBeGreaterThan(10_000);
  });

  it('rental valuations: every located home, with its recorded bedrooms and with 1 and 4 given, the heap\'s answers', async () => {
    const [f, h] = [(await files.rentalValuer.get())!, (await heap.rentalValuer.get())!];
    let valued = 0;
    for (const { uprn, lat, lng } of homes) {
      // The comparables themselves: the same lets in the same (sorted) order.
      if (uprn % 7 === 0) expect(rentComparablesNear(await files.rentLets.get(), lat, lng, uprn)).toEqual(rentComparablesNear(await heap.rentLets.get(), lat, lng, uprn));
      for (const beds of [undefined, 1, 4]) {
        const want = h.value(uprn, beds);
        expect(f.value(uprn, beds), `${uprn} ${beds}`).toEqual(want);
        if (want.kind === 'valued') valued++;
      }
    }
    expect(valued).toBeGreaterThan(homes.length);
  });

  it('rental lets one radius at a time: valueRental answers as over every let within 1,300 m, on the files and the heap', async () => {
    const [f, h] = [await files.rentLets.get(), await heap.rentLets.get()];
    let valued = 0;
    for (const { uprn, lat, lng } of homes.filter((_, i) => i % 3 === 0)) {
      const all = rentComparablesNear(h, lat, lng, uprn);
      for (const bedrooms of [0, 1, 2, 3, 5]) {
        const subject = { bedrooms, flat: uprn % 2 === 0, floor_area_sqft: uprn % 5 === 0 ? null : 850 };
        const want = valueRental(subject, all, h.growthPerMonth);
        expect(valueRental(subject, rentalLetsNear(f, lat, lng, uprn, bedrooms), f.growthPerMonth), `${uprn} ${bedrooms}`).toEqual(want);
        expect(valueRental(subject, rentalLetsNear(h, lat, lng, uprn, bedrooms), h.growthPerMonth)).toEqual(want);
        if (want.kind === 'ok') valued++;
      }
    }
    expect(valued).toBeGreaterThan(homes.length);
  });

  it('development GDV: 400 sites and three unit mixes, the heap\'s answers', async () => {
    const [f, h] = [await files.gdvValuer.get(), await heap.gdvValuer.get()];
    const mixes = [
      [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }],
      [{ property_type: 'house', bedrooms: 3, floor_area_sqft: 1000, count: 4 }],
      [{ property_type: 'house', bedrooms: 4, floor_area_sqft: 1400, count: 2 }, { property_type: 'flat', bedrooms: 1, floor_area_sqft: 500, count: 8 }],
    ] as const;
    let valued = 0;
    for (const p of places(400)) {
      for (const units of mixes) {
        const want = h.value(p, units, 'average');
        expect(f.value(p, units, 'very_high')).toEqual(h.value(p, units, 'very_high'));
        expect(f.value(p, units, 'average')).toEqual(want);
        if (want.kind === 'valued') valued++;
      }
    }
    expect(valued).toBeGreaterThan(300);
  });

  it('point country: the nearest postcode\'s country at 2,000 places (on centroids, near them, 2 km out, at sea), the heap\'s', async () => {
    const [f, h] = [await files.pointCountry.get(), await heap.pointCountry.get()];
    const placed = postcodes.filter((p) => p.lat !== null);
    const pts = [...places(1500), ...placed.slice(0, 300).map((p) => ({ lat: p.lat!, lng: p.lng! }))];
    // Just inside and outside the 2 km reach, due north of a centroid.
    for (const p of placed.slice(0, 100)) pts.push({ lat: p.lat! + 1_990 / 110_540, lng: p.lng! }, { lat: p.lat! + 2_010 / 110_540, lng: p.lng! });
    let known = 0, unknown = 0;
    for (const p of pts) {
      const want = h.at(p.lat, p.lng);
      expect(f.at(p.lat, p.lng), `${p.lat},${p.lng}`).toEqual(want);
      if (want) known++;
      else unknown++;
    }
    expect(known).toBeGreaterThan(1000);
    expect(unknown).toBeGreaterThan(2);
  });

  it('point country by area: every postcode, sector and outcode of the build, and codes of none, the heap\'s', async () => {
    const [f, h] = [await files.pointCountry.get(), await heap.pointCountry.get()];
    const codes = [...postcodes.map((p) => p.postcode), ...sectors, ...outcodes, 'ZZ9 9ZZ', 'ZZ9 9', 'ZZ9', 'B', '', 'BS1 4A'];
    let some = 0;
    for (const code of codes) {
      expect(f.ofArea(code), code).toEqual(h.ofArea(code));
      if (h.ofArea(code).length) some++;
    }
    expect(some).toBeGreaterThan(postcodes.length);
  });

  it('a file cut short after it was opened: the search throws BlockFileError (503 on the request path), never a partial answer', async () => {
    const b = copyBuild('cut-later', () => undefined);
    const res = new BuildResources(b, { pageCacheBytes: 2 * 4096 });
    try {
      const lets = await res.rentLets.get();
      const home = homes[0]!;
      truncateSync(join(b.dir, EVIDENCE_FILES.rentLets.file), 4096);
      expect(() => lets.within(home.lat, home.lng, 5_000, () => undefined)).toThrow(BlockFileError);
    } finally {
      await res.close();
    }
  });
});

describe('a listed evidence file that cannot serve: a clear error naming it, never an answer', () => {
  const open = (b: BuildInfo) => openRentLetsFiles(b, new BlockCache(1 << 20));

  it('missing, cut short or another table\'s: the resource fails with a LookupFileError', async () => {
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      ['missing', (dir) => unlinkSync(join(dir, EVIDENCE_FILES.rentLets.file)), /the rent lets file cannot be read: ENOENT.*rent-lets\.rows/],
      ['cut', (dir) => truncateSync(join(dir, EVIDENCE_FILES.rentLetAreas.file), Math.floor(statSync(join(dir, EVIDENCE_FILES.rentLetAreas.file)).size / 2)),
        /the rent lets by area file cannot be read: .*not a keyed-rows file/],
      ['swapped', (dir) => copyFileSync(join(dir, EVIDENCE_FILES.sqftSales.file), join(dir, EVIDENCE_FILES.rentLets.file)), /rent-lets\.rows is not the rent lets table: it holds .*gbp_sqft/],
    ];
    for (const [name, doctor, message] of cases) {
      const b = copyBuild(`rl-${name}`, (dir) => doctor(dir));
      expect(() => open(b), name).toThrow(LookupFileError);
      expect(() => open(b), name).toThrow(message);
    }
    const sq = copyBuild('sq-cut', (dir) => truncateSync(join(dir, EVIDENCE_FILES.sqftSales.file), 100));
    const pc = copyBuild('pc-swapped', (dir) => copyFileSync(join(dir, EVIDENCE_FILES.sqftSales.file), join(dir, EVIDENCE_FILES.postcodePoints.file)));
    const res = [new BuildResources(sq), new BuildResources(pc)];
    try {
      await expect(res[0]!.sqftSales.get()).rejects.toThrow(/the sqft sales file cannot be read/);
      await expect(res[0]!.gdvValuer.get()).rejects.toThrow(LookupFileError);
      await expect(res[1]!.pointCountry.get()).rejects.toThrow(/postcode-points\.rows is not the postcode points table/);
    } finally {
      for (const r of res) await r.close();
    }
  });

  it('one of the two rent lets files listed without the other, or its meta without the growth: a clear error', () => {
    const one = copyBuild('rl-one', (_dir, m) => {
      delete (m.artifacts as Record<string, unknown>)[EVIDENCE_FILES.rentLetAreas.artifact];
    });
    expect(() => open(one)).toThrow(/lists rent-lets\.rows without rent-lets-areas\.rows/);
    const other = copyBuild('rl-other', (_dir, m) => {
      delete (m.artifacts as Record<string, unknown>)[EVIDENCE_FILES.rentLets.artifact];
    });
    expect(() => open(other)).toThrow(/lists rent-lets-areas\.rows without rent-lets\.rows/);
    // The areas file in the lets' place under a doctored spec check is caught above; here a lets file whose meta lost its figures.
    const noGrowth = copyBuild('rl-no-growth', (dir) => {
      const f = join(dir, EVIDENCE_FILES.rentLets.file);
      const buf = readFileSync(f);
      const text = buf.toString('latin1').replace('"growth_per_month"', '"growth_per_montX"');
      writeFileSync(f, Buffer.from(text, 'latin1'));
    });
    expect(() => open(noGrowth)).toThrow(/has no as-of date or rent growth in its meta/);
  });

  it('a rent lets or sqft sales file whose columns are not all numbers (another table\'s, past the spec check): a clear error, not values read at wrong offsets', () => {
    const f = KeyedRowsFile.open(join(build.dir, EVIDENCE_FILES.postcodePoints.file), new BlockCache(1 << 16));
    try {
      expect(() => new FixedCellRows(f, 250, 'lat', 'lng')).toThrow(/column postcode is text, not a number at a fixed offset/);
    } finally {
      f.close();
    }
  });

  it('the point files listed without the postcode directory\'s file: a clear error', async () => {
    const b = copyBuild('pc-no-directory', (_dir, m) => {
      delete (m.artifacts as Record<string, unknown>)[LOOKUP_FILES.postcodes.artifact];
    });
    const res = new BuildResources(b);
    try {
      await expect(res.pointCountry.get()).rejects.toThrow(/lists postcode-points\.rows without lookup-postcodes\.rows/);
    } finally {
      await res.close();
    }
  });
});

describe('the endpoints over HTTP: the files\' build and the heap\'s answer alike; a broken file answers 503', () => {
  let fileServer: TestServer;
  let heapServer: TestServer;
  let brokenServer: TestServer;
  const keys: Record<string, string> = {};

  /** Makes `b` the server's current build. */
  function serve(s: TestServer, b: BuildInfo) {
    cpSync(b.dir, join(s.dataDir, 'builds', b.id), { recursive: true });
    symlinkSync(join('builds', b.id), join(s.dataDir, 'current.tmp'));
    renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  }

  /** A request, retried while the build is still loading. */
  async function get(s: TestServer, path: string, body?: unknown) {
    const key = keys[s.base]!;
    const once = () => (body === undefined ? call(s.base, 'GET', path, { key }) : postJson(s.base, path, key, body));
    let r = await once();
    for (let i = 0; i < 200 && r.status === 503 && /No published data build/.test(r.json?.detail ?? ''); i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await once();
    }
    return r;
  }

  beforeAll(async () => {
    [fileServer, heapServer, brokenServer] = await Promise.all([startTestServer(), startTestServer(), startTestServer()]);
    serve(fileServer, build);
    serve(heapServer, { ...older, id: build.id });
    serve(brokenServer, copyBuild('broken', (dir) => {
      for (const f of FILE_NAMES) truncateSync(join(dir, f.file), 1000);
    }));
    for (const s of [fileServer, heapServer, brokenServer]) keys[s.base] = (await s.account('enterprise', { limit: 1_000_000, windowMs: 1_000 })).key;
  }, 120_000);
  afterAll(async () => {
    for (const s of [fileServer, heapServer, brokenServer]) await s?.stop();
  });

  /** The requests: every endpoint that reads the three resources, over a spread of places. */
  function requests(): Array<[string, unknown?]> {
    const out: Array<[string, unknown?]> = [];
    const pts = places(40);
    const pcs = postcodes.filter((p) => p.lat !== null).filter((_, i) => i % 97 === 0).slice(0, 25);
    for (const p of pts) {
      out.push([`/v1/rents/long-term?lat=${p.lat}&lng=${p.lng}&radius_m=1500`], [`/v1/flood-risk?lat=${p.lat}&lng=${p.lng}`], [`/v1/planning/constraints?lat=${p.lat}&lng=${p.lng}`]);
      out.push(['/v1/valuations/development-gdv', { lat: p.lat, lng: p.lng, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 6 }] }]);
      out.push([`/v1/crime?lat=${p.lat}&lng=${p.lng}&radius_m=500`]);
    }
    for (const pc of pcs) {
      out.push([`/v1/rents/long-term?postcode=${encodeURIComponent(pc.postcode)}`], [`/v1/rents/long-term?outcode=${pc.postcode.split(' ')[0]}&property_type=flat`]);
      out.push([`/v1/prices/trends?outcode=${pc.postcode.split(' ')[0]}`], [`/v1/schools?postcode=${encodeURIComponent(pc.postcode)}`]);
    }
    for (const h of homes.filter((_, i) => i % 61 === 0)) out.push([`/v1/valuations/${h.uprn}/rental`], [`/v1/valuations/${h.uprn}/rental?bedrooms=2`], [`/v1/valuations/${h.uprn}/sale`]);
    return out;
  }

  it('every request answers the same status and body from the files as from the heap', async () => {
    const statuses = new Map<number, number>();
    for (const [path, body] of requests()) {
      const [f, h] = [await get(fileServer, path, body), await get(heapServer, path, body)];
      expect(f.status, path).toBe(h.status);
      // A problem's request id is the request's own.
      const { request_id: _f, ...fj } = f.json ?? {};
      const { request_id: _h, ...hj } = h.json ?? {};
      expect(fj, path).toEqual(hj);
      statuses.set(h.status, (statuses.get(h.status) ?? 0) + 1);
    }
    expect(statuses.get(200)).toBeGreaterThan(150);
  }, 300_000);

  it('a build whose files are cut short answers 503 data_unavailable as problem+json for their endpoints, charging nothing', async () => {
    const p = homes[10]!;
    for (const [path, body] of [
      [`/v1/rents/long-term?lat=${p.lat}&lng=${p.lng}&radius_m=1500`],
      [`/v1/rents/long-term?outcode=${postcodes[0]!.postcode.split(' ')[0]}`],
      [`/v1/valuations/${p.uprn}/rental`],
      ['/v1/valuations/development-gdv', { lat: p.lat, lng: p.lng, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 6 }] }],
      [`/v1/flood-risk?lat=${p.lat}&lng=${p.lng}`],
      [`/v1/planning/constraints?lat=${p.lat}&lng=${p.lng}`],
      [`/v1/prices/trends?outcode=${postcodes[0]!.postcode.split(' ')[0]}`],
    ] as Array<[string, unknown?]>) {
      const r = await get(brokenServer, path, body);
      expect(r.status, path).toBe(503);
      expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
      expect(r.headers['x-credits-cost']).toBe('0');
    }
    // What does not read them still answers.
    expect((await get(brokenServer, `/v1/properties/${p.uprn}`)).status).toBe(200);
  }, 120_000);
});
