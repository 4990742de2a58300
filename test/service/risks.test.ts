import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RisksSchema } from '../../schemas/api/risks.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { publishSynthBuild } from '../support/published.ts';
import { synthRegion } from '../support/region.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';

/**
 * GET /v1/risks/{uprn} on a real published build of the synthetic region (flood zones 2 and
 * 3, conservation areas, Article 4 directions), to which the test adds two layers the
 * generator does not write, in the planning.data.gov.uk format: a listed building outline
 * round one property and a green-belt area (a dataset with no flag of its own) round another.
 */
const ADDRESSES = 2000;
const SEED = 11;

let s: TestServer;
let key: string;
let manifest: Manifest;
let db: DuckDBInstance;
let conn: DuckDBConnection;
const listedUprn = { uprn: '' };
const greenUprn = { uprn: '' };

const box = (lng: number, lat: number, d: number) => [[[lng - d, lat - d], [lng + d, lat - d], [lng + d, lat + d], [lng - d, lat + d], [lng - d, lat - d]]];

/** The generator's truth: uprn, postcode, country (E, W, S) and flags of every home. */
let regionDir = '';
let truthHomes: { uprn: string; postcode: string; country: string; flood_zone: number; conservation_area: boolean; article_4: boolean }[] = [];
function readTruth(dir: string): typeof truthHomes {
  const [header, ...lines] = readFileSync(join(dir, 'truth', 'properties.csv'), 'utf8').trim().split('\n');
  const cols = header!.split(',');
  const at = (n: string) => cols.indexOf(n);
  return lines.map((l) => l.split(',')).map((c) => ({
    uprn: c[at('uprn')]!, postcode: c[at('postcode')]!, country: c[at('country')]!, flood_zone: Number(c[at('flood_zone')]),
    conservation_area: c[at('conservation_area')] === '1', article_4: c[at('article_4')] === '1',
  }));
}

/** Two UPRNs the generator put outside every layer, with their coordinates from OS Open UPRN. */
function quietUprns(dir: string): { uprn: string; lat: number; lng: number }[] {
  const truth = readFileSync(join(dir, 'truth', 'properties.csv'), 'utf8').trim().split('\n');
  const cols = truth[0]!.split(',');
  const at = (n: string) => cols.indexOf(n);
  // English homes: the layers (and so the added ones' flags) cover England only.
  const quiet = new Set(truth.slice(1).map((l) => l.split(',')).filter((c) => c[at('country')] === 'E' && c[at('flood_zone')] === '0' && c[at('conservation_area')] === '0' && c[at('article_4')] === '0').map((c) => c[at('uprn')]!));
  const coords = readFileSync(join(dir, 'uprn', 'osopenuprn.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const picked = coords.filter((c) => quiet.has(c[0]!));
  // Far apart in the file, so the two small boxes do not catch each other's property.
  return [picked[10]!, picked[picked.length - 10]!].map((c) => ({ uprn: c[0]!, lat: Number(c[3]), lng: Number(c[4]) }));
}

function addLayers(dir: string): void {
  const [a, b] = quietUprns(dir);
  listedUprn.uprn = a!.uprn;
  greenUprn.uprn = b!.uprn;
  const props = (dataset: string, entity: number, reference: string, name: string) => ({
    dataset, entity, reference, name, 'entry-date': '2024-05-01', 'start-date': '1972-03-01', 'end-date': '', typology: 'geography', prefix: dataset,
  });
  // A listed building outline as a single Feature (as the platform serves one entity).
  writeFileSync(join(dir, 'planning', 'listed-building-outline.geojson'), JSON.stringify({
    type: 'Feature', geometry: { type: 'Polygon', coordinates: box(a!.lng, a!.lat, 0.00004) },
    properties: props('listed-building-outline', 31_000_001, 'LB1001', 'Test Hall'),
  }));
  writeFileSync(join(dir, 'planning', 'green-belt.geojson'), JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [box(b!.lng, b!.lat, 0.00004), box(b!.lng + 1, b!.lat, 0.001)] }, properties: props('green-belt', 61_000_001, 'GB1', 'Test Green Belt') }],
  }));
}

const rows = async (q: string) => (await conn.runAndReadAll(q)).getRowObjectsJson() as Record<string, any>[];
const one = async (q: string): Promise<string> => {
  const [r] = await rows(q);
  if (!r) throw new Error(`no UPRN for: ${q}`);
  return String(r.uprn);
};
const get = (uprn: string, k = key) => call(s.base, 'GET', `/v1/risks/${uprn}`, { key: k });

beforeAll(async () => {
  const region = await synthRegion(ADDRESSES, SEED);
  regionDir = region;
  addLayers(region);
  truthHomes = readTruth(region);
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  ({ manifest } = await publishSynthBuild(s.dataDir, { addresses: ADDRESSES, seed: SEED }));
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  const build = join(s.dataDir, 'current');
  await conn.run(`CREATE VIEW properties AS SELECT * FROM read_parquet('${build}/properties.parquet')`);
  await conn.run(`CREATE VIEW uprn_designations AS SELECT * FROM read_parquet('${build}/uprn_designations.parquet')`);
  await conn.run(`CREATE VIEW postcodes AS SELECT * FROM read_parquet('${build}/postcodes.parquet')`);
}, 120_000);

afterAll(async () => {
  conn?.closeSync();
  db?.closeSync();
  await s?.stop();
});

describe('GET /v1/risks/{uprn}', () => {
  it('flood zone 3: zone 3 and 2 true, the level-3 area listed, flagged once (as zone 3), for 8 credits', async () => {
    const uprn = await one('SELECT uprn FROM properties WHERE flood_zone_3 ORDER BY uprn LIMIT 1');
    const r = await get(uprn);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('8');
    expect(RisksSchema.parse(r.json)).toEqual(r.json);
    expect(r.json.flood).toMatchObject({ flood_zone: 3, flood_zone_2: true, flood_zone_3: true });
    expect(r.json.flood.areas.some((a: any) => a.flood_risk_level === 3 && a.dataset === 'flood-risk-zone' && a.name && a.reference)).toBe(true);
    const codes = r.json.flags.map((f: any) => f.code);
    expect(codes).toContain('flood_zone_3');
    expect(codes).not.toContain('flood_zone_2');
    expect(r.json.flags.find((f: any) => f.code === 'flood_zone_3').message).toMatch(/Flood Zone 3.*1%/);
  });

  it('flood zone 2 only: zone 2, not 3', async () => {
    const uprn = await one('SELECT uprn FROM properties WHERE flood_zone_2 AND NOT flood_zone_3 ORDER BY uprn LIMIT 1');
    const r = await get(uprn);
    expect(r.json.flood).toMatchObject({ flood_zone: 2, flood_zone_2: true, flood_zone_3: false });
    expect(r.json.flood.areas.map((a: any) => a.flood_risk_level)).toEqual([2]);
    expect(r.json.flags.map((f: any) => f.code)).toContain('flood_zone_2');
  });

  it('conservation area and Article 4 direction: flags, names, references and datasets as published', async () => {
    for (const [column, dataset] of [['conservation_area', 'conservation-area'], ['article_4', 'article-4-direction-area']] as const) {
      const uprn = await one(`SELECT uprn FROM properties WHERE ${column} ORDER BY uprn LIMIT 1`);
      const r = await get(uprn);
      expect(r.status).toBe(200);
      expect(r.json.planning[column]).toBe(true);
      const want = await rows(`SELECT dataset, entity, reference, name FROM uprn_designations WHERE uprn = ${uprn} AND dataset <> 'flood-risk-zone' ORDER BY dataset, entity`);
      expect(r.json.planning.designations).toEqual(want.map((d) => ({ ...d, entity: Number(d.entity) })));
      const mine = r.json.planning.designations.find((d: any) => d.dataset === dataset);
      expect(mine.name).toBeTruthy();
      expect(r.json.flags.find((f: any) => f.code === column).message).toContain(mine.name);
    }
  });

  it('listed building (a layer added as a single Feature): listed_building, its outline named, flagged', async () => {
    const r = await get(listedUprn.uprn);
    expect(r.status).toBe(200);
    expect(r.json.planning.listed_building).toBe(true);
    expect(r.json.planning.designations).toEqual([{ dataset: 'listed-building-outline', entity: 31_000_001, reference: 'LB1001', name: 'Test Hall' }]);
    expect(r.json.flags.find((f: any) => f.code === 'listed_building').message).toContain('Test Hall');
  });

  it('any other loaded planning dataset (green belt) is listed with its name and reference, flagged as other_designation', async () => {
    const r = await get(greenUprn.uprn);
    expect(r.status).toBe(200);
    expect(r.json.planning).toMatchObject({ conservation_area: false, article_4: false, listed_building: false });
    expect(r.json.planning.designations).toEqual([{ dataset: 'green-belt', entity: 61_000_001, reference: 'GB1', name: 'Test Green Belt' }]);
    expect(r.json.flags.find((f: any) => f.code === 'other_designation').message).toBe('Within green-belt (Test Green Belt).');
  });

  it('a property outside every layer: zone 1, nothing designated, no planning or flood flags', async () => {
    const uprn = await one(`SELECT uprn FROM properties p WHERE NOT flood_zone_2 AND NOT conservation_area AND NOT article_4 AND NOT listed_building
                            AND epc_current_rating IN ('C', 'D') AND country <> 'Scotland' AND NOT EXISTS (SELECT 1 FROM uprn_designations d WHERE d.uprn = p.uprn) ORDER BY uprn LIMIT 1`);
    const r = await get(uprn);
    expect(r.status).toBe(200);
    expect(r.json.flood).toEqual({ flood_zone: 1, flood_zone_2: false, flood_zone_3: false, areas: [] });
    expect(r.json.planning).toEqual({ conservation_area: false, article_4: false, listed_building: false, designations: [] });
    expect(r.json.energy.below_letting_minimum).toBe(false);
    expect(r.json.flags).toEqual([]);
  });

  it('energy: F or G is below the minimum for letting; no certificate gives null and a no_epc flag', async () => {
    const fg = await one(`SELECT uprn FROM properties WHERE epc_current_rating IN ('F', 'G') AND country <> 'Scotland' ORDER BY uprn LIMIT 1`);
    const r = await get(fg);
    expect(r.json.energy).toMatchObject({ minimum_rating_for_letting: 'E', below_letting_minimum: true });
    expect(['F', 'G']).toContain(r.json.energy.current_rating);
    expect(r.json.flags.find((f: any) => f.code === 'epc_below_letting_minimum').message).toContain(`rating ${r.json.energy.current_rating}`);
    const e = await get(await one(`SELECT uprn FROM properties WHERE epc_current_rating = 'E' AND country <> 'Scotland' ORDER BY uprn LIMIT 1`));
    expect(e.json.energy.below_letting_minimum).toBe(false);
    const none = await get(await one(`SELECT uprn FROM properties WHERE epc_current_rating IS NULL AND country <> 'Scotland' ORDER BY uprn LIMIT 1`));
    expect(none.json.energy).toEqual({ current_rating: null, potential_rating: null, minimum_rating_for_letting: 'E', below_letting_minimum: null });
    expect(none.json.flags.map((f: any) => f.code)).toContain('no_epc');
  });

  it('a Scottish home: its certificate\'s rating, no England and Wales letting minimum, energy dated by the Scottish register', async () => {
    const fg = await one(`SELECT uprn FROM properties WHERE epc_current_rating IN ('E', 'F', 'G') AND country = 'Scotland' ORDER BY uprn LIMIT 1`);
    const [want] = await rows(`SELECT epc_current_rating AS r FROM properties WHERE uprn = ${fg}`);
    const r = await get(fg);
    expect(r.status).toBe(200);
    expect(r.json.energy).toMatchObject({ current_rating: want!.r, minimum_rating_for_letting: null, below_letting_minimum: null });
    expect(r.json.flags.map((f: any) => f.code)).not.toContain('epc_below_letting_minimum');
    const scot = manifest.sources.filter((x) => x.name === 'epc_scotland' && x.as_of).map((x) => x.as_of!).sort().at(-1);
    expect(scot).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.json.as_of.energy).toBe(scot);
  });

  it("as_of per source from the build's manifest, and the build id", async () => {
    const r = await get(listedUprn.uprn);
    const latest = (keep: (p: string, n: string) => boolean) =>
      manifest.sources.filter((x) => keep(x.path, x.name) && x.as_of).map((x) => x.as_of!).sort().at(-1) ?? null;
    expect(r.json.as_of).toEqual({
      flood: latest((p) => p.includes('flood-risk-zone')),
      planning: latest((p, n) => n === 'planning' && !p.includes('flood-risk-zone')),
      energy: latest((_, n) => n === 'epc'),
    });
    // A layer's as-of is its latest full date of any kind (entry, start or end) not after the build
    // date 2025-10-01, read here from the GeoJSON files themselves.
    const planningFiles = readdirSync(join(regionDir, 'planning')).filter((f) => f.endsWith('.geojson') && !f.includes('flood-risk-zone'));
    const dates = planningFiles.flatMap((f) => {
      const doc = JSON.parse(readFileSync(join(regionDir, 'planning', f), 'utf8')) as { features?: { properties: Record<string, unknown> }[]; properties?: Record<string, unknown> };
      return (doc.features ?? [{ properties: doc.properties! }]).flatMap((x) => ['entry-date', 'start-date', 'end-date'].map((k) => x.properties[k]));
    }).filter((d): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d) && d <= '2025-10-01').sort();
    expect(r.json.as_of.planning).toBe(dates.at(-1));
    expect(r.json.as_of.energy).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.json.build_id).toBe(manifest.build_id);
  });

  it('reads the same flags as the property record (40 properties of each flag, 40 at random)', async () => {
    const kind = (where: string) => `(SELECT uprn FROM properties WHERE ${where} ORDER BY hash(uprn) LIMIT 40)`;
    const sample = await rows([kind('flood_zone_3'), kind('flood_zone_2 AND NOT flood_zone_3'), kind('conservation_area'), kind('article_4'), kind('listed_building'), kind('true')].join(' UNION '));
    expect(sample.length).toBeGreaterThan(150);
    const differ: string[] = [];
    const pairs: [string, Reply, Reply][] = [];
    for (let i = 0; i < sample.length; i += 20) {
      const batch = sample.slice(i, i + 20).map(async ({ uprn }): Promise<[string, Reply, Reply]> => {
        const [risk, record] = await Promise.all([get(String(uprn)), call(s.base, 'GET', `/v1/properties/${uprn}`, { key })]);
        return [String(uprn), risk, record];
      });
      pairs.push(...(await Promise.all(batch)));
    }
    for (const [uprn, risk, record] of pairs) {
      const a = { z2: risk.json.flood.flood_zone_2, z3: risk.json.flood.flood_zone_3, ca: risk.json.planning.conservation_area, epc: risk.json.energy.current_rating };
      const b = { z2: record.json.flood_zone_2, z3: record.json.flood_zone_3, ca: record.json.conservation_area, epc: record.json.epc?.current_rating ?? null };
      if (JSON.stringify(a) !== JSON.stringify(b)) differ.push(`${uprn}: risks ${JSON.stringify(a)} record ${JSON.stringify(b)}`);
    }
    expect(differ).toEqual([]);
  });

  it('a malformed UPRN is a 400 naming params.uprn; an unknown one a 404; neither is charged', async () => {
    for (const bad of ['abc', '12x', '1234567890123', '-5']) {
      const r = await get(bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.code).toBe('invalid_request');
      expect(r.json.errors[0].path).toBe('params.uprn');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
    const acc = await s.account('starter'); // metered: the remaining balance shows each charge
    const missing = await get('999999999999', acc.key);
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('not_found');
    expect(missing.json.detail).toContain('999999999999');
    expect(missing.headers['x-credits-cost']).toBe('0');
    const before = Number(missing.headers['x-credits-remaining']);
    const ok = await get(listedUprn.uprn, acc.key);
    expect(ok.status).toBe(200);
    expect(Number(ok.headers['x-credits-remaining'])).toBe(before - 8);
    const again = await get('999999999999', acc.key);
    expect(Number(again.headers['x-credits-remaining'])).toBe(before - 8);
  });
});

describe('coverage: the planning and flood layers cover England only', () => {
  const NOTE = /planning\.data\.gov\.uk, which covers England only.*Natural Resources Wales and SEPA/;
  const NONE = { flood_zone: null, flood_zone_2: null, flood_zone_3: null, areas: [] };
  const home = (country: string) => {
    const h = truthHomes.find((t) => t.country === country);
    if (!h) throw new Error(`the region has no home in ${country}`);
    return h;
  };
  const q = (path: string) => call(s.base, 'GET', path, { key });

  for (const [country, name] of [['W', 'Welsh'], ['S', 'Scottish']] as const) {
    it(`a ${name} home: GET /risks gives null flood and planning flags with the reason, never zone 1`, async () => {
      const h = home(country);
      const r = await get(h.uprn);
      expect(r.status).toBe(200);
      expect(RisksSchema.safeParse(r.json).success).toBe(true);
      expect(r.json.flood).toEqual(NONE);
      expect(r.json.planning).toEqual({ conservation_area: null, article_4: null, listed_building: null, designations: [] });
      expect(r.json.coverage).toMatchObject({ area: 'England', covered: false });
      expect(r.json.coverage.note).toMatch(NOTE);
      const codes = r.json.flags.map((f: any) => f.code);
      for (const c of ['flood_zone_2', 'flood_zone_3', 'conservation_area', 'article_4', 'listed_building']) expect(codes).not.toContain(c);
      // The property record says the same: unknown, not "not in a flood zone".
      const rec = await q(`/v1/properties/${h.uprn}`);
      expect(rec.json).toMatchObject({ flood_zone_2: null, flood_zone_3: null, conservation_area: null });
    });

    it(`a ${name} home and postcode: GET /flood-risk gives a null zone with the reason; GET /planning/constraints says an empty list is no data`, async () => {
      const h = home(country);
      for (const path of [`/v1/flood-risk?uprn=${h.uprn}`, `/v1/flood-risk?postcode=${encodeURIComponent(h.postcode)}`]) {
        const r = await q(path);
        expect(r.status, path).toBe(200);
        expect(r.json, path).toMatchObject({ flood_zone: null, flood_zone_2: null, flood_zone_3: null, areas: [] });
        expect(r.json.coverage, path).toMatchObject({ area: 'England', covered: false });
        expect(r.json.coverage.note, path).toMatch(NOTE);
      }
      const pc = await q(`/v1/flood-risk?postcode=${encodeURIComponent(h.postcode)}`);
      expect(pc.json.postcode_addresses).toMatchObject({ located_addresses: 0, zone_1: null, zone_2: null, zone_3: null });
      const c = await q(`/v1/planning/constraints?uprn=${h.uprn}`);
      expect(c.status).toBe(200);
      expect(c.json).toMatchObject({ count: 0, constraints: [], coverage: { area: 'England', covered: false } });
      expect(c.json.coverage.note).toMatch(NOTE);
    });
  }

  it('an English home: flags as the generator drew them, covered, no note', async () => {
    // One in zone 3 and a conservation area if the region has one, else any English home.
    const h = truthHomes.find((t) => t.country === 'E' && t.flood_zone === 3 && t.conservation_area) ?? home('E');
    const r = await get(h.uprn);
    expect(r.status).toBe(200);
    expect(r.json.flood).toMatchObject({ flood_zone: h.flood_zone === 0 ? 1 : h.flood_zone, flood_zone_2: h.flood_zone >= 2, flood_zone_3: h.flood_zone === 3 });
    expect(r.json.planning).toMatchObject({ conservation_area: h.conservation_area, article_4: h.article_4 });
    expect(r.json.coverage).toEqual({ area: 'England', covered: true, note: null });
    const f = await q(`/v1/flood-risk?uprn=${h.uprn}`);
    expect(f.json).toMatchObject({ flood_zone: h.flood_zone === 0 ? 1 : h.flood_zone, coverage: { area: 'England', covered: true, note: null } });
    const c = await q(`/v1/planning/constraints?uprn=${h.uprn}`);
    expect(c.json.coverage).toEqual({ area: 'England', covered: true, note: null });
  });

  const PLACED = /The point's country \((England|Wales|Scotland)\) is the nearest postcode centroid's, \d+ m away\./;
  const pointOf = async (uprn: number | string) => (await rows(`SELECT lat, lng FROM properties WHERE uprn = ${uprn}`))[0]!;

  for (const [country, name] of [['W', 'Welsh'], ['S', 'Scottish']] as const) {
    it(`a bare point at a ${name} home: its country from the nearest postcode, so null flags with the reason, not zone 1`, async () => {
      const p = await pointOf(home(country).uprn);
      const r = await q(`/v1/flood-risk?lat=${p.lat}&lng=${p.lng}`);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ flood_zone: null, flood_zone_2: null, flood_zone_3: null, coverage: { area: 'England', covered: false } });
      expect(r.json.coverage.note).toMatch(NOTE);
      expect(r.json.coverage.note).toMatch(PLACED);
      expect(r.json.coverage.note).toContain(country === 'W' ? '(Wales)' : '(Scotland)');
      const c = await q(`/v1/planning/constraints?lat=${p.lat}&lng=${p.lng}`);
      expect(c.json).toMatchObject({ count: 0, coverage: { area: 'England', covered: false } });
    });
  }

  it('a bare point at an English home: flags by the layers, covered, and the postcode its country came from', async () => {
    const h = home('E');
    const p = await pointOf(h.uprn);
    const r = await q(`/v1/flood-risk?lat=${p.lat}&lng=${p.lng}`);
    expect(r.status).toBe(200);
    expect(r.json.flood_zone).toBe(h.flood_zone === 0 ? 1 : h.flood_zone);
    expect(r.json.coverage).toMatchObject({ area: 'England', covered: true });
    expect(r.json.coverage.note).toMatch(PLACED);
    expect(r.json.coverage.note).toContain('(England)');
  });

  it('a bare point more than 2 km from every postcode: flags by the layers, and a note that its country is not known', async () => {
    // A point in the Highlands, far from the synthetic towns; checked by haversine over every postcode.
    const [lat, lng] = [57.3, -4.6];
    const [near] = await rows(`SELECT min(2 * 6371000 * asin(sqrt(sin(radians(lat - ${lat}) / 2) ^ 2 + cos(radians(${lat})) * cos(radians(lat)) * sin(radians(lng - ${lng}) / 2) ^ 2))) AS m FROM postcodes WHERE lat IS NOT NULL`);
    expect(Number(near!.m)).toBeGreaterThan(5_000);
    const r = await q(`/v1/flood-risk?lat=${lat}&lng=${lng}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ flood_zone: 1, coverage: { area: 'England', covered: null } });
    expect(r.json.coverage.note).toMatch(/country of this point is not known/);
  });
});

describe('GET /v1/risks/{uprn} on a build without the designations table and its file', () => {
  it('is a 503 data_unavailable, charged nothing (the property record still serves)', async () => {
    const s2 = await startTestServer();
    try {
      const k = (await s2.account('enterprise', { limit: 1_000, windowMs: 60_000 })).key;
      await publishSynthBuild(s2.dataDir, { addresses: ADDRESSES, seed: SEED });
      rmSync(join(s2.dataDir, 'current', 'uprn_designations.parquet'));
      // The file the service reads them from (designations.rows, still listed in the manifest); the file alone is tested in designations-file.test.ts.
      rmSync(join(s2.dataDir, 'current', 'designations.rows'));
      const r = await call(s2.base, 'GET', `/v1/risks/${listedUprn.uprn}`, { key: k });
      expect(r.status).toBe(503);
      expect(r.json.code).toBe('data_unavailable');
      expect(r.headers['x-credits-cost']).toBe('0');
      expect((await call(s2.base, 'GET', `/v1/properties/${listedUprn.uprn}`, { key: k })).status).toBe(200);
    } finally {
      await s2.stop();
    }
  }, 60_000);
});
