import { cpSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { LOCATION_SET_FILES } from '../../lib/files/location-sets-files.ts';
import { openCrimeFiles } from '../../service/location/crime-set.ts';
import { openHmoFiles } from '../../service/location/hmo-set.ts';
import { openListingsFiles } from '../../service/location/listings-set.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';

/**
 * GET /crime, /listings, /sourcing/deals and /hmo/licences served from the ETL's crime,
 * listings and HMO files read where they lie (issue 46, ADR 0015 step 6) against the same real
 * build served as a build published before those files (the in-heap sets made from its store):
 * every answer the same, byte for byte, over many places, radii, filters and pages. And a
 * listed file missing, cut short or another's: 503 for its endpoints, never a wrong answer.
 */
const ADDRESSES = 6000;
const SEED = 11;
const ARTIFACTS = Object.values(LOCATION_SET_FILES).map((s) => s.artifact);

let files: TestServer;
let heap: TestServer;
let broken: TestServer;
let key = { files: '', heap: '', broken: '' };
let buildDir: string;
let buildId: string;
let db: Awaited<ReturnType<typeof buildSql>>;
const rows = (q: string) => db.q(q) as Promise<Record<string, any>[]>;

/** Publishes a copy of the build into `s`, changed by `edit` (its folder) before it becomes current. */
function publishCopy(s: TestServer, edit: (dir: string) => void): void {
  const dir = join(s.dataDir, 'builds', buildId);
  cpSync(buildDir, dir, { recursive: true });
  edit(dir);
  symlinkSync(join('builds', buildId), join(s.dataDir, 'current.tmp'));
  renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
}

/** Drops artifacts from a build's manifest (the files stay: nothing reads an unlisted file). */
function unlist(dir: string, names: readonly string[]): void {
  const path = join(dir, 'manifest.json');
  const m = JSON.parse(readFileSync(path, 'utf8')) as { artifacts: Record<string, unknown> };
  for (const n of names) delete m.artifacts[n];
  writeFileSync(path, JSON.stringify(m));
}

/** A GET that waits out the moment before the server has picked the build up. */
async function get(s: TestServer, k: string, path: string): Promise<Reply> {
  let r = await call(s.base, 'GET', path, { key: k });
  for (let i = 0; i < 100 && r.status === 503 && /No published data build/.test(String(r.json?.detail)); i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    r = await call(s.base, 'GET', path, { key: k });
  }
  return r;
}

beforeAll(async () => {
  files = await startTestServer();
  key.files = (await files.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  ({ build_id: buildId } = await publishSynthBuild(files.dataDir, { addresses: ADDRESSES, seed: SEED }));
  buildDir = join(files.dataDir, 'builds', buildId);
  db = await buildSql(files.dataDir);
  heap = await startTestServer();
  key.heap = (await heap.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  publishCopy(heap, (dir) => unlist(dir, ARTIFACTS));
  broken = await startTestServer();
  key.broken = (await broken.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  publishCopy(broken, (dir) => {
    // Crime: a file cut short. Listings: one listed file missing. HMO: another table's file in its place.
    truncateSync(join(dir, LOCATION_SET_FILES.crimePoints.file), Math.floor(statSync(join(dir, LOCATION_SET_FILES.crimePoints.file)).size / 2));
    rmSync(join(dir, LOCATION_SET_FILES.listingOutcodes.file));
    cpSync(join(dir, LOCATION_SET_FILES.listingPoints.file), join(dir, LOCATION_SET_FILES.hmoOutcodes.file));
  });
}, 600_000);

afterAll(async () => {
  db?.close();
  await files?.stop();
  await heap?.stop();
  await broken?.stop();
});

/** The same request to the files' server and the heap's: the same status and body. */
async function same(path: string): Promise<Reply> {
  const [a, b] = [await get(files, key.files, path), await get(heap, key.heap, path)];
  // A problem's request id is the request's own.
  const body = (r: Reply) => (r.status === 200 ? r.json : { ...r.json, request_id: undefined });
  expect({ path, status: a.status, body: body(a) }).toEqual({ path, status: b.status, body: body(b) });
  return a;
}

/** Places to search from: postcodes spread over the build (every k-th), some points between them. */
async function places(n: number): Promise<string[]> {
  const ps = await rows(`SELECT postcode, lat, lng FROM postcodes WHERE lat IS NOT NULL AND address_count > 0 ORDER BY postcode`);
  const step = Math.max(1, Math.floor(ps.length / n));
  const out: string[] = [];
  for (let i = 0; i < ps.length && out.length < n; i += step) {
    const p = ps[i]!;
    out.push(i % 2 === 0 ? `postcode=${encodeURIComponent(p.postcode)}` : `lat=${(Number(p.lat) + 0.0013).toFixed(6)}&lng=${(Number(p.lng) - 0.0021).toFixed(6)}`);
  }
  return out;
}
async function outcodes(table: string): Promise<string[]> {
  return (await rows(`SELECT DISTINCT outcode FROM ${table} WHERE outcode IS NOT NULL ORDER BY outcode`)).map((r) => r.outcode as string);
}

describe('the files and the heap answer alike', () => {
  it('GET /crime: every radius of 30 places', async () => {
    let found = 0;
    for (const at of await places(30)) {
      for (const r of [50, 300, 800, 1600]) {
        const a = await same(`/v1/crime?${at}&radius_m=${r}`);
        if (a.status === 200 && a.json.total > 0) found++;
      }
    }
    expect(found).toBeGreaterThan(40);
  });

  it('GET /listings: places, radii, types, sorts, filters and pages; every outcode', async () => {
    let found = 0;
    const sorts = ['newest', 'price_asc', 'price_desc', 'distance'];
    for (const [k, at] of (await places(20)).entries()) {
      for (const r of [400, 1500, 5000]) {
        for (const type of ['sale', 'rent']) {
          const sort = sorts[(k + r) % 4]!;
          for (const page of [1, 2]) {
            const a = await same(`/v1/listings?${at}&radius_m=${r}&type=${type}&sort=${sort}&per_page=7&page=${page}`);
            if (a.status === 200 && a.json.listings.length > 0) found++;
          }
        }
      }
      await same(`/v1/listings?${at}&radius_m=3000&type=sale&min_price=150000&max_price=400000&min_bedrooms=2&property_type=terraced`);
    }
    for (const o of await outcodes('listings')) {
      for (const sort of ['newest', 'price_asc']) await same(`/v1/listings?outcode=${o}&type=sale&sort=${sort}&per_page=50`);
      await same(`/v1/listings?outcode=${o}&type=rent&per_page=5&page=2`);
    }
    await same('/v1/listings?outcode=ZZ99&type=sale');
    expect(found).toBeGreaterThan(30);
  });

  it('GET /sourcing/deals: both strategies at places and radii, pages; every outcode', async () => {
    let found = 0;
    for (const at of await places(15)) {
      for (const r of [1000, 4000, 10000]) {
        for (const strategy of ['below_market', 'yield']) {
          const a = await same(`/v1/sourcing/deals?${at}&radius_m=${r}&strategy=${strategy}&per_page=5`);
          if (a.status === 200 && a.json.deals.length > 0) found++;
          const bound = strategy === 'yield' ? 'min_yield_pct=3' : 'min_discount_pct=2';
          const b = await same(`/v1/sourcing/deals?${at}&radius_m=${r}&strategy=${strategy}&per_page=5&page=3&${bound}&max_bedrooms=3`);
          expect([200, 404]).toContain(b.status);
        }
      }
    }
    for (const o of await outcodes('listings')) await same(`/v1/sourcing/deals?outcode=${o}&min_discount_pct=0&per_page=50`);
    expect(found).toBeGreaterThan(5);
  });

  it('GET /hmo/licences: places, radii, statuses and pages; every outcode', async () => {
    let found = 0;
    for (const at of await places(20)) {
      for (const r of [300, 1000, 5000]) {
        for (const status of ['current', 'all', 'expired']) {
          const a = await same(`/v1/hmo/licences?${at}&radius_m=${r}&status=${status}&per_page=4`);
          if (a.status === 200 && a.json.licences.length > 0) found++;
          await same(`/v1/hmo/licences?${at}&radius_m=${r}&status=${status}&per_page=4&page=2`);
        }
      }
    }
    for (const o of await outcodes('hmo_licences')) await same(`/v1/hmo/licences?outcode=${o}&status=all&per_page=50`);
    expect(found).toBeGreaterThan(10);
  });

  it('the files are what the heap serves from: every listing, licence and crime written, none placed left out', async () => {
    const count = async (sql: string) => Number((await rows(sql))[0]!.n);
    const pages = new BlockCache(64 * 4096);
    const build = { id: buildId, dir: buildDir, manifest: JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as Record<string, unknown> };
    const listings = openListingsFiles(build, pages)!;
    expect([...listings.all()].length).toBe(await count('SELECT count(*) AS n FROM listings WHERE lat IS NOT NULL'));
    listings.close();
    const crime = openCrimeFiles(build, pages)!;
    expect(crime.months).toEqual((await rows('SELECT DISTINCT month FROM crime ORDER BY month')).map((r) => r.month));
    expect(crime.within(54, -2.5, 2_000_000).month.length).toBe(await count('SELECT count(*) AS n FROM crime WHERE lat IS NOT NULL AND lng IS NOT NULL'));
    crime.close();
    const hmo = openHmoFiles(build, pages)!;
    const all = await count('SELECT count(*) AS n FROM hmo_licences WHERE lat IS NOT NULL AND lng IS NOT NULL');
    expect(hmo.at({ kind: 'point', lat: 54, lng: -2.5, radius_m: 2_000_000 })).toHaveLength(all);
    expect(all).toBeGreaterThan(0);
    hmo.close();
  });
});

describe('a listed file that cannot serve', () => {
  const expect503 = async (path: string, what: string) => {
    const r = await get(broken, key.broken, path);
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    expect(r.json.detail).toMatch(what);
    expect(r.headers['x-credits-cost']).toBe('0');
  };

  it('answers 503 problem+json for the endpoints of its resource, charging nothing, and the rest still serve', async () => {
    const [p] = await rows(`SELECT postcode FROM postcodes WHERE lat IS NOT NULL AND address_count > 0 ORDER BY postcode LIMIT 1`);
    const at = `postcode=${encodeURIComponent(p!.postcode)}`;
    await expect503(`/v1/crime?${at}`, 'GET /crime');
    await expect503(`/v1/listings?${at}`, 'GET /listings');
    await expect503(`/v1/sourcing/deals?${at}`, 'GET /sourcing/deals');
    await expect503(`/v1/hmo/licences?${at}`, 'GET /hmo/licences');
    const schools = await get(broken, key.broken, `/v1/schools?${at}`);
    expect(schools.status).toBe(200);
  });

  it('names the file and what is wrong with it: cut short, missing, another table\'s, listed in part', () => {
    const pages = new BlockCache(16 * 4096);
    const dir = join(broken.dataDir, 'builds', buildId);
    const build = { id: buildId, dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> };
    expect(() => openCrimeFiles(build, pages)).toThrow(LookupFileError);
    expect(() => openCrimeFiles(build, pages)).toThrow(/crime points file cannot be read/);
    expect(() => openListingsFiles(build, pages)).toThrow(/listings by outcode file cannot be read/);
    expect(() => openHmoFiles(build, pages)).toThrow(/hmo-outcodes\.rows is not the HMO licences by outcode table/);
    const partial = { ...build, dir: buildDir, manifest: { ...build.manifest, artifacts: { ...(build.manifest.artifacts as object), [LOCATION_SET_FILES.crimeAreas.artifact]: undefined } } };
    expect(() => openCrimeFiles(partial, pages)).toThrow(/lists only some of the crime files/);
    const none = { ...build, manifest: { ...build.manifest, artifacts: {} } };
    expect(openCrimeFiles(none, pages)).toBeNull();
    expect(openListingsFiles(none, pages)).toBeNull();
    expect(openHmoFiles(none, pages)).toBeNull();
  });
});
