import { basename } from 'node:path';
import {
  FLOOD_RISK_LEVEL_KEY,
  FLOOD_RISK_TYPE_KEY,
  PlanningAttrs,
  type BBox,
  type PlanningFeature,
  type PlanningGeometry,
  type PolygonCoords,
  type Position,
  type Ring,
} from '../../../schemas/sources/planning.ts';
import { readSourceText } from '../io.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

export interface PlanningReadOptions {
  /** Dataset for features without `properties.dataset`; default: the file name without extensions. */
  dataset?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A geometry problem: the reject reason, e.g. `geometry:short_ring`. */
class GeometryError extends Error {}

function position(raw: unknown): Position {
  if (!Array.isArray(raw) || raw.length < 2 || typeof raw[0] !== 'number' || typeof raw[1] !== 'number') {
    throw new GeometryError('geometry:malformed');
  }
  const [lng, lat] = raw as [number, number];
  if (!Number.isFinite(lng) || !Number.isFinite(lat)) throw new GeometryError('geometry:non_finite');
  if (Math.abs(lng) > 180 || Math.abs(lat) > 90) throw new GeometryError('geometry:out_of_range');
  return [lng, lat]; // an altitude, if any, is dropped
}

/**
 * A linear ring as [lng, lat] positions. An unclosed ring is closed by repeating its first
 * position (the shape is unambiguous, and RFC 7946 readers commonly do the same); a ring with
 * fewer than 4 positions once closed cannot bound an area and is rejected.
 */
function ring(raw: unknown): Ring {
  if (!Array.isArray(raw)) throw new GeometryError('geometry:malformed');
  const r = raw.map(position);
  const first = r[0];
  const last = r.at(-1);
  if (first && last && (first[0] !== last[0] || first[1] !== last[1])) r.push([first[0], first[1]]);
  if (r.length < 4) throw new GeometryError('geometry:short_ring');
  return r;
}

function polygon(raw: unknown): PolygonCoords {
  if (!Array.isArray(raw)) throw new GeometryError('geometry:malformed');
  if (raw.length === 0) throw new GeometryError('geometry:empty');
  return raw.map(ring);
}

function multiPolygon(raw: unknown): PolygonCoords[] {
  if (!Array.isArray(raw)) throw new GeometryError('geometry:malformed');
  if (raw.length === 0) throw new GeometryError('geometry:empty');
  return raw.map(polygon);
}

/** Polygon and MultiPolygon as published (holes kept); a GeometryCollection of polygons flattened to a MultiPolygon. */
export function planningGeometry(raw: unknown): PlanningGeometry {
  if (raw === null || raw === undefined) throw new GeometryError('geometry:missing');
  if (!isObj(raw)) throw new GeometryError('geometry:malformed');
  switch (raw.type) {
    case 'Polygon':
      return { type: 'Polygon', coordinates: polygon(raw.coordinates) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: multiPolygon(raw.coordinates) };
    case 'GeometryCollection': {
      if (!Array.isArray(raw.geometries)) throw new GeometryError('geometry:malformed');
      const parts: PolygonCoords[] = [];
      for (const g of raw.geometries as unknown[]) {
        const flat = isObj(g) && g.type === 'GeometryCollection' ? undefined : planningGeometry(g);
        if (!flat) throw new GeometryError('geometry:unsupported:GeometryCollection');
        if (flat.type === 'Polygon') parts.push(flat.coordinates);
        else parts.push(...flat.coordinates);
      }
      if (parts.length === 0) throw new GeometryError('geometry:empty');
      return { type: 'MultiPolygon', coordinates: parts };
    }
    default:
      throw new GeometryError(`geometry:unsupported:${typeof raw.type === 'string' ? raw.type : 'unknown'}`);
  }
}

/** Bounding box over every position of the geometry (the spatial index prefilters on it). */
export function geometryBBox(g: PlanningGeometry): BBox {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  const b = { min_lng: Infinity, min_lat: Infinity, max_lng: -Infinity, max_lat: -Infinity };
  for (const p of polys) {
    for (const r of p) {
      for (const [lng, lat] of r) {
        if (lng < b.min_lng) b.min_lng = lng;
        if (lng > b.max_lng) b.max_lng = lng;
        if (lat < b.min_lat) b.min_lat = lat;
        if (lat > b.max_lat) b.max_lat = lat;
      }
    }
  }
  return b;
}

/** File name without `.geojson`, `.json` and `.gz`: `conservation-area.geojson.gz` → `conservation-area`. */
export function datasetFromPath(path: string): string {
  return basename(path).replace(/(\.gz)?$/i, '').replace(/\.(geo)?json$/i, '');
}

/**
 * The first property present under one of `keys` (exact), else the first whose name matches
 * `pattern` (ONS boundary files: `msoa11cd`, `LAD21NM`); blank strings count as absent.
 */
function pick(props: Obj, keys: string[], pattern?: RegExp): { key: string; value: string } | undefined {
  const names = [...keys, ...(pattern ? Object.keys(props).filter((k) => pattern.test(k)) : [])];
  for (const key of names) {
    const v = props[key];
    if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return { key, value: String(v).trim() };
  }
  return undefined;
}

const blankToUndef = (v: unknown) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
/** An integer-looking string becomes a number; anything else is left for the schema to reject. */
const toNumber = (v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v);

/**
 * Reads a planning.data.gov.uk GeoJSON document (a FeatureCollection, possibly one API page
 * with `links`, or a single Feature) or a plain boundary GeoJSON in WGS84, yielding each
 * polygon feature with its bounding box. Features that are not polygons, or whose geometry
 * is broken, are counted in `rejects` by reason (`geometry:missing`, `geometry:short_ring`, …).
 * The whole document is parsed in memory: planning.data.gov.uk serves it in pages.
 */
export async function* readPlanningGeoJson(
  path: string,
  rejects: RejectLog,
  opts: PlanningReadOptions = {},
): AsyncGenerator<PlanningFeature> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readSourceText(path));
  } catch (e) {
    if (e instanceof SyntaxError) throw new Error(`${path}: not GeoJSON (invalid JSON: ${e.message})`);
    throw e;
  }
  const features: unknown[] | undefined = !isObj(doc)
    ? undefined
    : doc.type === 'FeatureCollection' && Array.isArray(doc.features)
      ? doc.features
      : doc.type === 'Feature'
        ? [doc]
        : undefined;
  if (!isObj(doc) || !features) throw new Error(`${path}: not a GeoJSON FeatureCollection or Feature`);
  const crs = isObj(doc.crs) && isObj(doc.crs.properties) ? doc.crs.properties.name : undefined;
  if (typeof crs === 'string' && !/CRS84$|EPSG::?4326$/i.test(crs)) {
    throw new Error(`${path}: coordinates are in ${crs}; expected WGS84 longitude/latitude (CRS84)`);
  }
  const fallbackDataset = opts.dataset ?? datasetFromPath(path);

  for (const [i, f] of features.entries()) {
    const n = i + 1; // feature number stands in for a line number in reject samples
    if (!isObj(f) || f.type !== 'Feature') {
      rejects.add('not_a_feature', n, `feature ${n}`);
      continue;
    }
    let geometry: PlanningGeometry;
    try {
      geometry = planningGeometry(f.geometry);
    } catch (e) {
      if (!(e instanceof GeometryError)) throw e;
      rejects.add(e.message, n, `feature ${n}`);
      continue;
    }
    const props: Obj = isObj(f.properties) ? f.properties : {};
    const reference = pick(props, ['reference', 'CODE', 'code'], /^[a-z]+\d{2}cd$/i) ??
      (typeof f.id === 'string' || typeof f.id === 'number' ? { key: '', value: String(f.id) } : undefined);
    const name = pick(props, ['name', 'NAME'], /^[a-z]+\d{2}nm$/i);
    const lifted = new Set(['dataset', 'entity', 'reference', 'name', 'start-date', 'end-date', FLOOD_RISK_LEVEL_KEY, FLOOD_RISK_TYPE_KEY]);
    if (reference) lifted.add(reference.key);
    if (name) lifted.add(name.key);
    const attrs = validateRow(
      PlanningAttrs,
      {
        dataset: blankToUndef(props.dataset) ?? fallbackDataset,
        entity: toNumber(blankToUndef(props.entity)),
        reference: reference?.value,
        name: name?.value,
        start_date: blankToUndef(props['start-date']),
        end_date: blankToUndef(props['end-date']),
        flood_risk_level: toNumber(blankToUndef(props[FLOOD_RISK_LEVEL_KEY])),
        flood_risk_type: blankToUndef(props[FLOOD_RISK_TYPE_KEY]),
      },
      rejects,
      n,
    );
    if (!attrs) continue;
    const properties = Object.fromEntries(Object.entries(props).filter(([k]) => !lifted.has(k)));
    yield { ...attrs, properties, geometry, bbox: geometryBBox(geometry) };
  }
}
