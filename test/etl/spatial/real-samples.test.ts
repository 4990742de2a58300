import { describe, expect, it } from 'vitest';
import { readPlanningGeoJson } from '../../../etl/sources/planning/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { buildIndex } from '../../../lib/geo/spatial-index.ts';
import { pointInGeometry } from '../../../lib/geo/point-in-polygon.ts';
import type { PlanningFeature } from '../../../schemas/sources/planning.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';

const CA = 'planning_data/conservation-area.geojson';
const A4 = 'planning_data/article-4-direction-area.geojson';

async function read(rel: string): Promise<PlanningFeature[]> {
  const rejects = new RejectLog();
  const out: PlanningFeature[] = [];
  for await (const f of readPlanningGeoJson(rawPath(rel), rejects)) out.push(f);
  expect(rejects.total).toBe(0);
  return out;
}

// Probe points were chosen with an independent winding-number test (Python) on the
// published coordinates, each at least 20 m from any edge unless it is a vertex.
describe.skipIf(!hasRaw(CA))('point in the real Huntingdon conservation area (a polygon with a hole)', () => {
  it('is inside the area, outside in its hole, on the hole edge, and outside beyond it', async () => {
    const [ca] = await read(CA);
    const { geometry } = ca!;
    expect(geometry.type).toBe('MultiPolygon');
    expect(pointInGeometry(-0.183572, 52.329318, geometry)).toBe(true); // inside
    expect(pointInGeometry(-0.191099, 52.331854, geometry)).toBe(false); // inside the hole
    expect(pointInGeometry(-0.17146, 52.33953, geometry)).toBe(false); // in the bbox, outside
    expect(pointInGeometry(-0.18, 52.32, geometry)).toBe(false); // south of it
    // Vertices of the hole and of the outer ring are on the boundary: inside.
    expect(pointInGeometry(-0.190343, 52.330948, geometry)).toBe(true);
    expect(pointInGeometry(-0.192698, 52.331317, geometry)).toBe(true);
  });

  it('gives the same answers through the index', async () => {
    const index = buildIndex(await read(CA));
    expect(index.query(-0.183572, 52.329318).map((f) => f.entity)).toEqual([44004596]);
    expect(index.query(-0.191099, 52.331854)).toEqual([]);
    expect(index.query(-0.17146, 52.33953)).toEqual([]);
  });
});

describe.skipIf(!hasRaw(A4))('point in the real article 4 direction areas (10 MultiPolygons)', () => {
  // [reference, a point inside, a point inside the feature's bbox but outside it]
  const probes: [string, [number, number], [number, number]][] = [
    ['73412', [1.055358, 51.293517], [1.147121, 51.250141]],
    ['DO.4', [-0.613766, 51.567509], [-0.614857, 51.569596]],
    ['DO.5', [-0.554483, 51.565855], [-0.562556, 51.568244]],
    ['DO.6', [-0.544263, 51.567629], [-0.545233, 51.566583]],
    ['DO.7', [-0.533873, 51.558099], [-0.533129, 51.557155]],
    ['DO.8', [-0.604173, 51.574884], [-0.60678, 51.574557]],
    ['DO.9', [-0.566355, 51.522813], [-0.562656, 51.523457]],
    ['DO.1', [-0.512603, 51.535204], [-0.513612, 51.536497]],
    ['DO.2', [-0.523866, 51.588801], [-0.520535, 51.587878]],
    ['DO.3', [-0.618047, 51.570081], [-0.619758, 51.568866]],
  ];

  it('finds each direction at its inside point and none at its outside point', async () => {
    const features = await read(A4);
    expect(features).toHaveLength(10);
    const index = buildIndex(features);
    for (const [ref, [ix, iy], [ox, oy]] of probes) {
      expect(index.query(ix, iy).map((f) => f.reference), `${ref} inside`).toEqual([ref]);
      expect(index.query(ox, oy), `${ref} outside`).toEqual([]);
    }
    expect(index.query(-0.2, 52.3)).toEqual([]); // Huntingdon: no article 4 here
  });

  it('agrees with a scan of all features on a grid over the whole sample', async () => {
    const features = await read(A4);
    const index = buildIndex(features);
    let hits = 0;
    // South Bucks sites: 0.002° steps over their common bbox.
    for (let x = -0.62; x <= -0.51; x += 0.002) {
      for (let y = 51.52; y <= 51.591; y += 0.002) {
        const brute = features.filter((f) => pointInGeometry(x, y, f.geometry)).map((f) => f.reference);
        const got = index.query(x, y).map((f) => f.reference);
        expect(got).toEqual(brute);
        hits += got.length;
      }
    }
    expect(hits).toBeGreaterThan(0);
  });
});
