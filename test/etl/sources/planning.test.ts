import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  datasetFromPath,
  geometryBBox,
  planningGeometry,
  readPlanningGeoJson,
  type PlanningReadOptions,
} from '../../../etl/sources/planning/read.ts';
import { RejectLog } from '../../../etl/sources/rejects.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

async function readAll(path: string, opts?: PlanningReadOptions) {
  const rejects = new RejectLog();
  const rows = [];
  for await (const r of readPlanningGeoJson(path, rejects, opts)) rows.push(r);
  return { rows, rejects };
}

const square = [[0, 51], [1, 51], [1, 52], [0, 52], [0, 51]];
const hole = [[0.25, 51.25], [0.5, 51.25], [0.5, 51.5], [0.25, 51.25]];
const feature = (geometry: unknown, props: Record<string, unknown> = {}) => ({
  type: 'Feature',
  properties: { dataset: 'conservation-area', entity: '44000001', reference: 'CA1', name: 'Test area', 'start-date': '', 'end-date': '', ...props },
  geometry,
});
const write = (name: string, doc: unknown, gz = false) => writeFixture(tmp.dir, name, JSON.stringify(doc), gz);

describe('datasetFromPath', () => {
  it('drops the GeoJSON and gzip extensions', () => {
    expect(datasetFromPath('/a/conservation-area.geojson')).toBe('conservation-area');
    expect(datasetFromPath('/a/flood-risk-zone.geojson.gz')).toBe('flood-risk-zone');
    expect(datasetFromPath('msoas_bristol.json')).toBe('msoas_bristol');
  });
});

describe('planningGeometry and geometryBBox', () => {
  const pos = fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }));
  const closedRing = fc.array(pos, { minLength: 3, maxLength: 12 }).map((r) => [...r, r[0]!]);
  const multi = fc.array(fc.array(closedRing, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });

  it('keeps any valid MultiPolygon exactly and bounds every position with its bbox', () => {
    fc.assert(fc.property(multi, (coordinates) => {
      const g = planningGeometry({ type: 'MultiPolygon', coordinates });
      expect(g).toEqual({ type: 'MultiPolygon', coordinates });
      const b = geometryBBox(g);
      const all = coordinates.flat(2);
      expect(all.every(([x, y]) => x! >= b.min_lng && x! <= b.max_lng && y! >= b.min_lat && y! <= b.max_lat)).toBe(true);
      // Each edge of the box is attained by some position.
      expect(all.some(([x]) => x === b.min_lng) && all.some(([x]) => x === b.max_lng)).toBe(true);
      expect(all.some(([, y]) => y === b.min_lat) && all.some(([, y]) => y === b.max_lat)).toBe(true);
    }));
  });
});

describe('readPlanningGeoJson on fixtures', () => {
  it('keeps a polygon with a hole exactly, lifts the planning attributes and computes the bbox', async () => {
    const doc = {
      type: 'FeatureCollection',
      features: [feature({ type: 'Polygon', coordinates: [square, hole] }, { 'start-date': '1991-05-20', 'end-date': '2020', quality: 'some', notes: '' })],
      links: { next: 'https://www.planning.data.gov.uk/entity.geojson?dataset=conservation-area&offset=10' },
    };
    for (const gz of [false, true]) {
      const { rows, rejects } = await readAll(write(`ca${gz ? '.geojson.gz' : '.geojson'}`, doc, gz));
      expect(rejects.total).toBe(0);
      expect(rows).toEqual([{
        dataset: 'conservation-area', entity: 44000001, reference: 'CA1', name: 'Test area',
        start_date: '1991-05-20', end_date: '2020',
        properties: { quality: 'some', notes: '' },
        geometry: { type: 'Polygon', coordinates: [square, hole] },
        bbox: { min_lng: 0, min_lat: 51, max_lng: 1, max_lat: 52 },
      }]);
    }
  });

  it('reads a single Feature document, closes an unclosed ring and drops altitudes', async () => {
    const open = [[0, 51, 10], [1, 51, 10], [1, 52, 10], [0, 52, 10]];
    const { rows, rejects } = await readAll(write('one.geojson', feature({ type: 'MultiPolygon', coordinates: [[open]] })));
    expect(rejects.total).toBe(0);
    expect(rows[0]!.geometry).toEqual({ type: 'MultiPolygon', coordinates: [[square]] });
  });

  it('flattens a GeometryCollection of polygons into a MultiPolygon', async () => {
    const east = square.map(([x, y]) => [x! + 2, y!]);
    const gc = { type: 'GeometryCollection', geometries: [
      { type: 'Polygon', coordinates: [square, hole] },
      { type: 'MultiPolygon', coordinates: [[east]] },
    ] };
    const { rows } = await readAll(write('gc.geojson', feature(gc)));
    expect(rows[0]!.geometry).toEqual({ type: 'MultiPolygon', coordinates: [[square, hole], [east]] });
    expect(rows[0]!.bbox).toEqual({ min_lng: 0, min_lat: 51, max_lng: 3, max_lat: 52 });
  });

  it('exposes the flood-risk level as a number, and the type', async () => {
    const doc = { type: 'FeatureCollection', features: [
      feature({ type: 'Polygon', coordinates: [square] }, { dataset: 'flood-risk-zone', 'flood-risk-level': '3', 'flood-risk-type': 'fluvial', name: '' }),
      feature({ type: 'Polygon', coordinates: [square] }, { dataset: 'flood-risk-zone', 'flood-risk-level': '2', reference: 'FZ2-1' }),
    ] };
    const { rows } = await readAll(write('fz.geojson', doc));
    expect(rows.map((r) => [r.flood_risk_level, r.flood_risk_type, r.name])).toEqual([[3, 'fluvial', undefined], [2, undefined, 'Test area']]);
    expect(rows[0]!.properties).toEqual({});
  });

  it('takes the dataset from the option or the file name, and ids from ONS-style boundary properties', async () => {
    const boundary = { type: 'Feature', properties: { objectid: 7, msoa11cd: 'E02003033', msoa11nm: 'Bristol 022', msoa11nmw: 'Bristol 022' },
      geometry: { type: 'Polygon', coordinates: [square] } };
    const p = write('msoas_test.geojson', { type: 'FeatureCollection', features: [boundary] });
    const byName = await readAll(p);
    expect(byName.rows[0]).toMatchObject({ dataset: 'msoas_test', reference: 'E02003033', name: 'Bristol 022',
      properties: { objectid: 7, msoa11nmw: 'Bristol 022' } });
    expect(byName.rows[0]!.entity).toBeUndefined();
    expect((await readAll(p, { dataset: 'msoa' })).rows[0]!.dataset).toBe('msoa');
  });

  it('rejects each broken feature by reason and keeps reading', async () => {
    const poly = (rings: unknown) => ({ type: 'Polygon', coordinates: rings });
    const features = [
      feature(null),                                                  // geometry:missing
      feature({ type: 'Point', coordinates: [0, 51] }),              // geometry:unsupported:Point
      feature({ type: 'LineString', coordinates: [[0, 51], [1, 51]] }), // geometry:unsupported:LineString
      feature(poly([[[0, 51], [1, 51], [0, 51]]])),                  // geometry:short_ring (3 positions)
      feature(poly([[[0, 51], [1, 51], [1, 52]]])),                  // closes to 4: kept
      feature(poly([square, [[0.2, 51.2], [0.3, 51.2]]])),           // a hole too short: geometry:short_ring
      feature(poly([[[0, 51], [1, 51], [1, 1e999], [0, 51]]])),       // geometry:non_finite (JSON 1e999 parses to Infinity)
      feature(poly([[[358260, 172796], [359260, 172796], [359260, 173796], [358260, 172796]]])), // BNG metres: geometry:out_of_range
      feature(poly([[['0', '51'], ['1', '51'], ['1', '52'], ['0', '51']]])), // geometry:malformed
      feature(poly('nope')),                                          // geometry:malformed
      feature(poly([])),                                              // geometry:empty
      feature({ type: 'MultiPolygon', coordinates: [] }),             // geometry:empty
      feature({ type: 'GeometryCollection', geometries: [poly([square]), { type: 'Point', coordinates: [0, 51] }] }), // unsupported:Point
      feature(poly([square]), { entity: '', reference: '' }),         // invalid:id
      feature(poly([square]), { entity: 'E-1' }),                     // invalid:entity
      feature(poly([square]), { 'start-date': '25/02/2016' }),        // invalid:start_date
      feature(poly([square]), { dataset: 'flood-risk-zone', 'flood-risk-level': '4' }), // invalid:flood_risk_level
      { type: 'Polygon', coordinates: [square] },                     // not_a_feature
      42,                                                             // not_a_feature
      feature(poly([square]), { reference: 'LAST' }),
    ];
    // JSON.stringify writes Infinity as null, so the text is patched back to 1e999 (the only `[1,null]`).
    const text = JSON.stringify({ type: 'FeatureCollection', features }).replace('[1,null]', '[1,1e999]');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.geojson', text));
    expect(rows.map((r) => r.reference)).toEqual(['CA1', 'LAST']);
    expect(rejects.toJSON().by_reason).toEqual({
      'geometry:missing': 1, 'geometry:unsupported:Point': 2, 'geometry:unsupported:LineString': 1,
      'geometry:short_ring': 2, 'geometry:non_finite': 1, 'geometry:out_of_range': 1, 'geometry:malformed': 2,
      'geometry:empty': 2, 'invalid:id': 1, 'invalid:entity': 1, 'invalid:start_date': 1, 'invalid:flood_risk_level': 1,
      not_a_feature: 2,
    });
    expect(rejects.samples[0]).toMatchObject({ reason: 'geometry:missing', line: 1 });
  });

  it('refuses documents that are not GeoJSON features, or not in WGS84', async () => {
    await expect(readAll(writeFixture(tmp.dir, 'broken.geojson', '{"type":"FeatureCollection","features":['))).rejects.toThrow(/not GeoJSON \(invalid JSON/);
    await expect(readAll(write('arr.geojson', [feature(null)]))).rejects.toThrow(/not a GeoJSON FeatureCollection or Feature/);
    await expect(readAll(write('geom.geojson', { type: 'Polygon', coordinates: [square] }))).rejects.toThrow(/not a GeoJSON FeatureCollection or Feature/);
    await expect(readAll(write('nofeat.geojson', { type: 'FeatureCollection' }))).rejects.toThrow(/not a GeoJSON FeatureCollection or Feature/);
    const bng = { type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::27700' } }, features: [] };
    await expect(readAll(write('bng.geojson', bng))).rejects.toThrow(/EPSG::27700; expected WGS84/);
    const wgs = { ...bng, crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::4326' } } };
    expect((await readAll(write('wgs.geojson', wgs))).rows).toEqual([]);
  });
});

const raw = (rel: string) => JSON.parse(readFileSync(rawPath(rel), 'utf8'));

const A4 = 'planning_data/article-4-direction-area.geojson';
describe.skipIf(!hasRaw(A4))('readPlanningGeoJson on the real article 4 API page', () => {
  // 10 features, all MultiPolygon (counted with Python's json module), plus a `links` object.
  it('reads all 10 features with entity, reference and geometry as published', async () => {
    const { rows, rejects } = await readAll(rawPath(A4));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.dataset === 'article-4-direction-area' && r.geometry.type === 'MultiPolygon')).toBe(true);
    expect(rows.map((r) => r.entity)).toEqual([7010000744, ...Array.from({ length: 9 }, (_, i) => 7010002001 + i)]);
    expect(rows[0]).toMatchObject({ reference: '73412', start_date: '2016-02-25',
      properties: { 'organisation-entity': '75', quality: 'authoritative' } });
    expect(rows[0]!.end_date).toBeUndefined();
    expect(rows[1]!.start_date).toBeUndefined();
    const doc = raw(A4);
    expect(rows.map((r) => r.geometry.coordinates)).toEqual(doc.features.map((f: { geometry: { coordinates: unknown } }) => f.geometry.coordinates));
  });
});

const CA = 'planning_data/conservation-area.geojson';
describe.skipIf(!hasRaw(CA))('readPlanningGeoJson on the real single-Feature conservation area', () => {
  it('keeps the MultiPolygon and its hole exactly (rings of 578 and 71 positions)', async () => {
    const { rows, rejects } = await readAll(rawPath(CA));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(1);
    const ca = rows[0]!;
    expect(ca).toMatchObject({ dataset: 'conservation-area', entity: 44004596, reference: '8717', name: 'Huntingdon', start_date: '1991-05-20' });
    expect(ca.geometry).toEqual(raw(CA).geometry);
    expect(ca.geometry.type === 'MultiPolygon' && ca.geometry.coordinates[0]!.map((r) => r.length)).toEqual([578, 71]);
    // Extremes computed independently with Python over every position.
    expect(ca.bbox).toEqual({ min_lng: -0.210823, min_lat: 52.324779, max_lng: -0.170451, max_lat: 52.339908 });
  });
});

const MSOA = 'geo_boundaries/bristol/msoas_bristol.geojson';
describe.skipIf(!hasRaw(MSOA))('readPlanningGeoJson on the real Bristol MSOA boundaries', () => {
  // 72 features, 301 polygons (counted with Python's json module).
  it('reads the 72 MSOA polygons with their codes and names', async () => {
    const { rows, rejects } = await readAll(rawPath(MSOA), { dataset: 'msoa-2011' });
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(72);
    expect(new Set(rows.map((r) => r.reference)).size).toBe(72);
    expect(rows.every((r) => r.dataset === 'msoa-2011' && /^[EW]02\d{6}$/.test(r.reference!))).toBe(true);
    // The file also holds 17 bordering MSOAs (B&NES, North Somerset, South Glos, Monmouthshire).
    expect(rows.filter((r) => /^Bristol \d{3}$/.test(r.name!))).toHaveLength(55);
    expect(rows.reduce((n, r) => n + (r.geometry.type === 'MultiPolygon' ? r.geometry.coordinates.length : 1), 0)).toBe(301);
    const all = rows.map((r) => r.bbox);
    expect({
      min_lng: Math.min(...all.map((b) => b.min_lng)), min_lat: Math.min(...all.map((b) => b.min_lat)),
      max_lng: Math.max(...all.map((b) => b.max_lng)), max_lat: Math.max(...all.map((b) => b.max_lat)),
    }).toEqual({ min_lng: -2.781425515475648, min_lat: 51.39728377593826, max_lng: -2.510419192584203, max_lat: 51.5444327351994 });
  });
});
