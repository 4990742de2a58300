import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { pointInGeometry } from '../../../lib/geo/point-in-polygon.ts';
import { PROPERTY_RECORDS_FILE, RecordFile } from '../../../lib/files/record-file-format.ts';
import type { PlanningGeometry } from '../../../schemas/sources/planning.ts';
import { stagedContext, synthRegion } from '../../support/region.ts';

/**
 * The flags of a real build of the synthetic region against a brute-force check: every UPRN
 * against every feature, no index, no bands (`pointInGeometry` on the GeoJSON as staged), and
 * against the generator's own ground truth (its own point-in-polygon, on the coordinates it
 * wrote). Then every place that reads the result (uprn_flags, properties, the property record
 * file) must say the same.
 */
const ADDRESSES = 4000;
const SEED = 11;

let ctx: BuildContext;
const rows = async (q: string) => (await ctx.conn.runAndReadAll(q)).getRowObjectsJS() as Record<string, unknown>[];

interface Feature {
  key: string;
  dataset: string;
  level: number | null;
  geometry: PlanningGeometry;
}

let features: Feature[];
let points: { uprn: bigint; lat: number; lng: number }[];

beforeAll(async () => {
  ctx = await stagedContext(ADDRESSES, SEED);
  features = (await rows('SELECT dataset, entity, flood_risk_level, geometry, end_date FROM stg_planning')).map((r) => {
    expect(r.end_date ?? null).toBeNull(); // the region's features are all in force
    return {
      key: `${String(r.dataset)}#${String(r.entity)}`,
      dataset: String(r.dataset),
      level: r.flood_risk_level == null ? null : Number(r.flood_risk_level),
      geometry: JSON.parse(String(r.geometry)) as PlanningGeometry,
    };
  });
  points = (await rows('SELECT uprn, lat, lng FROM addresses ORDER BY uprn')).map((r) => ({ uprn: r.uprn as bigint, lat: Number(r.lat), lng: Number(r.lng) }));
}, 120_000);

afterAll(() => {
  ctx?.conn.closeSync();
  ctx?.db.closeSync();
});

/** The brute-force designations: `uprn → sorted feature keys`. */
function bruteForce(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of points) {
    const keys = features.filter((f) => pointInGeometry(p.lng, p.lat, f.geometry)).map((f) => f.key).sort();
    if (keys.length > 0) out.set(String(p.uprn), keys);
  }
  return out;
}

describe('spatial flags on the synthetic region', () => {
  it('has every kind of layer, and points in each (the check is not vacuous)', () => {
    const datasets = new Set(features.map((f) => f.dataset));
    expect([...datasets].sort()).toEqual(['article-4-direction-area', 'conservation-area', 'flood-risk-zone']);
    expect(features.some((f) => f.geometry.type === 'MultiPolygon')).toBe(true);
    expect(features.some((f) => f.geometry.type === 'Polygon' && f.geometry.coordinates.length > 1)).toBe(true); // a hole
    expect(points.length).toBeGreaterThanOrEqual(ADDRESSES);
  });

  it('uprn_designations equals every UPRN × every feature, tested without the index', async () => {
    const want = bruteForce();
    const got = new Map<string, string[]>();
    for (const r of await rows('SELECT uprn, dataset, entity FROM uprn_designations ORDER BY uprn, dataset, entity')) {
      const k = String(r.uprn);
      got.set(k, [...(got.get(k) ?? []), `${String(r.dataset)}#${String(r.entity)}`].sort());
    }
    expect(got.size).toBeGreaterThan(100);
    expect([...got.entries()].sort()).toEqual([...want.entries()].sort());
    const byDataset = new Set([...want.values()].flat().map((k) => k.split('#')[0]));
    expect(byDataset.size).toBe(3); // hits in each dataset
  });

  it("agrees with the generator's ground truth flags for every property", async () => {
    const dir = await synthRegion(ADDRESSES, SEED);
    const [header, ...lines] = readFileSync(join(dir, 'truth', 'properties.csv'), 'utf8').trim().split('\n');
    const cols = header!.split(',');
    const at = (name: string) => cols.indexOf(name);
    type Flags = { flood_zone: number | null; conservation_area: boolean | null; article_4: boolean | null };
    const truth = new Map(lines.map((l): [string, Flags] => {
      const c = l.split(',');
      const zone = Number(c[at('flood_zone')]);
      // The layers cover England only: a Welsh or Scottish home's flags are unknown (null).
      if (c[at('country')] !== 'E') return [c[at('uprn')]!, { flood_zone: null, conservation_area: null, article_4: null }];
      return [c[at('uprn')]!, { flood_zone: zone === 0 ? 1 : zone, conservation_area: c[at('conservation_area')] === '1', article_4: c[at('article_4')] === '1' }];
    }));
    const flags = await rows('SELECT uprn, flood_zone, conservation_area, article_4 FROM uprn_flags');
    let compared = 0;
    const differ: string[] = [];
    for (const f of flags) {
      const t = truth.get(String(f.uprn));
      if (!t) continue; // a UPRN the truth file does not hold (e.g. a non-residential address)
      compared++;
      const got = { flood_zone: f.flood_zone, conservation_area: f.conservation_area, article_4: f.article_4 };
      if (JSON.stringify(got) !== JSON.stringify(t)) differ.push(`${String(f.uprn)}: ${JSON.stringify(got)} truth ${JSON.stringify(t)}`);
    }
    expect(compared).toBeGreaterThan(ADDRESSES * 0.9);
    expect(differ).toEqual([]);
    // Both kinds were compared: English homes with flags, Welsh and Scottish ones without.
    const kinds = new Set([...truth.values()].map((t) => (t.flood_zone === null ? 'unknown' : 'known')));
    expect([...kinds].sort()).toEqual(['known', 'unknown']);
  });

  it('uprn_flags, the properties table and the property record file all read the same result', async () => {
    const mismatch = await rows(`
      SELECT f.uprn FROM uprn_flags f JOIN properties p USING (uprn)
      WHERE f.flood_zone IS DISTINCT FROM p.flood_zone OR f.flood_zone_2 IS DISTINCT FROM p.flood_zone_2
         OR f.flood_zone_3 IS DISTINCT FROM p.flood_zone_3 OR f.conservation_area IS DISTINCT FROM p.conservation_area
         OR f.article_4 IS DISTINCT FROM p.article_4 OR f.listed_building IS DISTINCT FROM p.listed_building`);
    expect(mismatch).toEqual([]);
    // uprn_flags is exactly what the designations say (the risks endpoint lists those rows).
    const derived = await rows(`
      SELECT f.uprn FROM uprn_flags f
      LEFT JOIN (SELECT uprn, max(flood_risk_level) FILTER (WHERE dataset = 'flood-risk-zone') AS lvl,
                        bool_or(dataset = 'conservation-area') AS ca, bool_or(dataset = 'article-4-direction-area') AS a4
                 FROM uprn_designations GROUP BY uprn) d USING (uprn)
      WHERE f.flood_zone <> coalesce(d.lvl, 1) OR f.conservation_area <> coalesce(d.ca, false) OR f.article_4 <> coalesce(d.a4, false)`);
    expect(derived).toEqual([]);

    const file = new RecordFile(readFileSync(join(ctx.buildDir, PROPERTY_RECORDS_FILE)), PROPERTY_RECORDS_FILE);
    const props = await rows('SELECT uprn, flood_zone_2, flood_zone_3, conservation_area FROM properties');
    expect(file.n).toBe(props.length);
    const differ = props.filter((p) => {
      const r = file.get(Number(p.uprn))!;
      return r.flood_zone_2 !== p.flood_zone_2 || r.flood_zone_3 !== p.flood_zone_3 || r.conservation_area !== p.conservation_area;
    });
    expect(differ).toEqual([]);
  });
});
