import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGiasSchools } from '../../../etl/sources/gias_schools/read.ts';
import { readPoliceCrime } from '../../../etl/sources/police_crime/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { readRightmoveBlm } from '../../../etl/sources/listings/read-blm.ts';
import { readRightmoveRtdf } from '../../../etl/sources/listings/read-rtdf.ts';
import { generateRegion, LOCATED_DIRS, TRUTH, type Manifest } from '../../../etl/synth/generate.ts';
import { tempDir } from '../../support/tmp.ts';

// The synthetic region's crime, schools and listings files, each through its reader: only
// the planted rows are rejected, and what is written agrees with the region and its truth.
const tmp = tempDir('pi-synth-located-');
afterAll(tmp.cleanup);

type Reader = (path: string, rejects: RejectLog) => AsyncGenerator<any>;
const readerFor = (rel: string): Reader =>
  rel.startsWith('crime/') ? readPoliceCrime : rel.startsWith('gias/') ? readGiasSchools : rel.endsWith('.blm') ? readRightmoveBlm : readRightmoveRtdf;
const csv = (rel: string) => readFileSync(join(tmp.dir, rel), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));

let manifest: Manifest;
let expected: Record<string, Record<string, number>>;
const read = new Map<string, { rows: any[]; rejects: RejectLog }>();

beforeAll(async () => {
  ({ manifest } = await generateRegion({ out: tmp.dir, addresses: 6000, seed: 11 }));
  expected = JSON.parse(readFileSync(join(tmp.dir, TRUTH.expectedRejects), 'utf8'));
  for (const rel of Object.keys(manifest.files).filter((f) => LOCATED_DIRS.some((d) => f.startsWith(d)))) {
    const rejects = new RejectLog();
    const rows: any[] = [];
    for await (const r of readerFor(rel)(join(tmp.dir, rel), rejects)) rows.push(r);
    read.set(rel, { rows, rejects });
  }
}, 180_000);

const files = (prefix: string) => [...read.keys()].filter((k) => k.startsWith(prefix)).sort();

describe('synthetic location sources through their readers', () => {
  it('every file on disk is in the manifest, and each rejects exactly its planted rows', () => {
    const onDisk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? onDisk(join(d, n)) : [relative(tmp.dir, join(d, n))]));
    expect(LOCATED_DIRS.flatMap((d) => onDisk(join(tmp.dir, d))).sort()).toEqual([...read.keys()].sort());
    for (const [rel, { rows, rejects }] of read) {
      expect(rejects.toJSON().by_reason, rel).toEqual(expected[rel] ?? {});
      expect(rows.length + rejects.total, rel).toBe(manifest.files[rel]!.rows);
    }
    expect(Object.keys(expected).filter((k) => LOCATED_DIRS.some((d) => k.startsWith(d)))).toHaveLength(4);
  });

  it('crime: 13 months per force (none for Edinburgh), one month republished later; the truth names the current release', () => {
    const truth = csv(TRUTH.crimeFiles);
    const forces = new Set(truth.map((t) => t[0]));
    expect([...forces].sort()).toEqual(['avon-and-somerset', 'city-of-london', 'gloucestershire', 'metropolitan', 'south-wales']);
    for (const force of forces) {
      const months = new Set(truth.filter((t) => t[0] === force).map((t) => t[1]));
      expect(months.size).toBe(13);
      const republished = [...months].filter((m) => truth.filter((t) => t[0] === force && t[1] === m).length === 2);
      expect(republished).toHaveLength(1);
    }
    for (const [force, month, release, rows, current] of truth) {
      const rel = `crime/${release}/${month}/${month}-${force}-street.csv`;
      expect(read.get(rel)!.rows).toHaveLength(Number(rows));
      const later = truth.some((t) => t[0] === force && t[1] === month && t[2]! > release!);
      expect(current === '1').toBe(!later);
    }
  });

  it('crime: the later release settles outcomes and withdraws a few crimes, all of which were in the first', () => {
    const truth = csv(TRUTH.crimeFiles);
    const [force, month] = truth.find((t) => t[4] === '0')!;
    const [first, later] = truth.filter((t) => t[0] === force && t[1] === month).map((t) => read.get(`crime/${t[2]}/${month}/${month}-${force}-street.csv`)!.rows);
    const ids = (rows: any[]) => new Set(rows.flatMap((r) => (r.crime_id ? [r.crime_id] : [])));
    expect([...ids(later!)].every((id) => ids(first!).has(id))).toBe(true);
    expect(later!.length).toBeLessThan(first!.length);
    expect(later!.filter((r) => r.last_outcome === 'Under investigation')).toHaveLength(0);
    expect(first!.filter((r) => r.last_outcome === 'Under investigation').length).toBeGreaterThan(0);
  });

  it('crime: clustered where people live: every placed crime is within 150 m of an address', () => {
    const homes = csv('uprn/osopenuprn.csv').map((c) => [Number(c[3]), Number(c[4])] as const);
    const cell = (lat: number, lng: number) => `${Math.floor(lat / 0.002)},${Math.floor(lng / 0.003)}`;
    const grid = new Set(homes.map(([la, ln]) => cell(la, ln)));
    const near = (lat: number, lng: number) => [-1, 0, 1].some((a) => [-1, 0, 1].some((b) => grid.has(cell(lat + a * 0.002, lng + b * 0.003))));
    const placed = files('crime/').flatMap((f) => read.get(f)!.rows).filter((r) => r.lat !== undefined);
    expect(placed.length).toBeGreaterThan(1000);
    expect(placed.filter((r) => !near(r.lat, r.lng))).toHaveLength(0);
  });

  it('schools: English towns only, about one primary per 1,500 homes, Ofsted ratings on most open state schools', () => {
    const schools = read.get('gias/edubasealldata.csv')!.rows;
    // Every check below holds of an empty file: a region of 6,000 addresses has schools.
    expect(schools.length).toBeGreaterThan(0);
    expect(schools.every((s) => s.district_code.startsWith('E'))).toBe(true);
    const englishHomes = csv(TRUTH.properties).filter((p) => p[4] === 'E').length;
    const primaries = schools.filter((s) => s.phase === 'Primary').length;
    // Poisson with mean homes/1,500: within 4 standard deviations.
    const mean = englishHomes / 1500;
    expect(Math.abs(primaries - mean)).toBeLessThan(4 * Math.sqrt(mean) + 1);
    expect(schools.filter((s) => s.status === 'Closed').every((s) => s.close_date && s.pupils === undefined)).toBe(true);
    expect(schools.every((s) => s.lat > 49 && s.lng < 2)).toBe(true);
  });

  it('listings: BLM then RTDF, latest state per listing, is the truth\'s live set at its prices; prices near the true values', () => {
    const events = [...files('listings/blm/'), ...files('listings/rtdf/')].flatMap((f) => read.get(f)!.rows);
    const latest = new Map<string, any>();
    for (const e of events) if (!latest.has(e.listing_id) || latest.get(e.listing_id).updated_at <= e.updated_at) latest.set(e.listing_id, e);
    const live = new Map([...latest].filter(([, e]) => e.event === 'send'));
    const truth = csv(TRUTH.listingsMarket);
    expect(new Set(live.keys())).toEqual(new Set(truth.filter((t) => t[7] === '1').map((t) => t[0])));
    for (const t of truth.filter((x) => x[7] === '1')) expect(live.get(t[0]!).price, t[0]).toBeCloseTo(Number(t[4]), 2);
    const sales = truth.filter((t) => t[2] === 'sale');
    const under = sales.filter((t) => t[6] === '1').length / sales.length;
    expect(under).toBeGreaterThan(0.05);
    expect(under).toBeLessThan(0.2);
    const fair = sales.map((t) => Math.abs(Number(t[5]))).sort((a, b) => a - b);
    expect(fair[Math.floor(fair.length / 2)]).toBeLessThan(8); // median |discount| under 8%
    expect(truth.some((t) => t[2] === 'rent')).toBe(true);
  });
});
