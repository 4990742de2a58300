import { bngToWgs84 } from '../sources/grid.ts';
import type { District } from './region.ts';
import type { TownSpec } from './params.ts';
import { rng } from './prng.ts';

/**
 * Planning layers of the region, in the planning.data.gov.uk shape: flood zones 2 and 3
 * along each English town's river (zone 3 inside zone 2), conservation areas over historic
 * districts, Article 4 (HMO) directions over student districts. planning.data.gov.uk covers
 * England only, so Welsh and Scottish towns get none (as the real platform).
 * Geometry is built on the grid, converted to WGS84 and rounded to 6 decimals; the ground
 * truth flags are computed by point-in-polygon on exactly those written coordinates.
 */

export type Pos = [number, number]; // [lng, lat]
export type Poly = Pos[][]; // exterior ring, then holes
export interface PlanningShape {
  dataset: 'flood-risk-zone' | 'conservation-area' | 'article-4-direction-area';
  entity: number;
  reference: string;
  name: string;
  organisationEntity: string;
  startDate: string;
  entryDate: string;
  floodLevel?: 2 | 3;
  polys: Poly[]; // one → Polygon, several → MultiPolygon
  bbox: [number, number, number, number];
}

function toWgs(e: number, n: number): Pos {
  const { lat, lng } = bngToWgs84(e, n);
  return [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}

/** Closes a ring of grid points, converts it, and makes it counter-clockwise (RFC 7946 exterior) or clockwise (hole). */
function ring(points: [number, number][], hole: boolean): Pos[] {
  let r = points.map(([e, n]) => toWgs(e, n));
  let area = 0;
  for (let i = 0; i < r.length; i++) {
    const [x1, y1] = r[i]!;
    const [x2, y2] = r[(i + 1) % r.length]!;
    area += x1 * y2 - x2 * y1;
  }
  if ((area > 0) === hole) r = r.reverse();
  r.push([r[0]![0], r[0]![1]]);
  return r;
}

function bboxOf(polys: Poly[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polys) for (const [x, y] of p[0]!) {
    b[0] = Math.min(b[0], x); b[1] = Math.min(b[1], y); b[2] = Math.max(b[2], x); b[3] = Math.max(b[3], y);
  }
  return b;
}

/** Irregular blob around a centre: `k` vertices, radius scattered ±25%. */
function blob(seed: number, key: string, c: [number, number], radius: number, k = 18): [number, number][] {
  const r = rng(seed, 'blob', key);
  const pts: [number, number][] = [];
  for (let i = 0; i < k; i++) {
    const a = (2 * Math.PI * i) / k;
    const rr = radius * (0.8 + 0.4 * r.next());
    pts.push([Math.round(c[0] + rr * Math.cos(a)), Math.round(c[1] + rr * Math.sin(a))]);
  }
  return pts;
}

/** River centreline point at along-distance s (metres) and the unit normal there. */
function river(town: TownSpec, s: number): { p: [number, number]; nrm: [number, number] } {
  const dir: [number, number] = [Math.cos(town.riverAngle), Math.sin(town.riverAngle)];
  const nrm0: [number, number] = [-dir[1], dir[0]];
  const amp = 260;
  const wl = 2600;
  const off = amp * Math.sin((2 * Math.PI * s) / wl) - 300;
  const dOff = ((amp * 2 * Math.PI) / wl) * Math.cos((2 * Math.PI * s) / wl);
  const p: [number, number] = [town.centre[0] + dir[0] * s + nrm0[0] * off, town.centre[1] + dir[1] * s + nrm0[1] * off];
  const t: [number, number] = [dir[0] + nrm0[0] * dOff, dir[1] + nrm0[1] * dOff];
  const len = Math.hypot(t[0], t[1]);
  return { p, nrm: [-t[1] / len, t[0] / len] };
}

/** Buffer of the river between s0 and s1 with half-width w(s). */
function riverBand(town: TownSpec, s0: number, s1: number, w: (s: number) => number): [number, number][] {
  const left: [number, number][] = [];
  const right: [number, number][] = [];
  for (let s = s0; s <= s1 + 1e-9; s += 100) {
    const { p, nrm } = river(town, s);
    const h = w(s);
    left.push([Math.round(p[0] + nrm[0] * h), Math.round(p[1] + nrm[1] * h)]);
    right.push([Math.round(p[0] - nrm[0] * h), Math.round(p[1] - nrm[1] * h)]);
  }
  return [...left, ...right.reverse()];
}

/** Every planning shape of the region, in a stable order. */
export function buildPlanning(seed: number, districts: District[]): PlanningShape[] {
  const out: PlanningShape[] = [];
  const towns = [...new Set(districts.map((d) => d.town))].filter((t) => t.orgEntity !== '');
  let floodEntity = 65_000_001;
  let caEntity = 44_100_001;
  let a4Entity = 7_010_100_001;
  for (const town of towns) {
    const L = 6000;
    const w2 = (s: number) => 230 + 70 * Math.sin(s / 900);
    const w3 = (s: number) => 0.45 * w2(s);
    // Zone 2 with a hole: a knoll of higher ground inside the zone-2 band, outside zone 3.
    const { p, nrm } = river(town, 1500);
    const hc: [number, number] = [p[0] + nrm[0] * 0.75 * w2(1500), p[1] + nrm[1] * 0.75 * w2(1500)];
    const hole = blob(seed, `${town.key}-knoll`, hc, 0.18 * w2(1500), 10);
    const z2: Poly[] = [[ring(riverBand(town, -L, L, w2), false), ring(hole, true)]];
    out.push(flood(town, floodEntity++, 2, z2));
    // Zone 3 in two pieces: the reach through the centre is defended.
    const z3: Poly[] = [[ring(riverBand(town, -L, -400, w3), false)], [ring(riverBand(town, 400, L, w3), false)]];
    out.push(flood(town, floodEntity++, 3, z3));
  }
  for (const d of districts) {
    if (d.town.orgEntity === '') continue;
    if (d.spec.historic) {
      const outer = blob(seed, `ca-${d.code}`, d.centre, 520);
      const polys: Poly[] = [[ring(outer, false), ring(blob(seed, `ca-hole-${d.code}`, [d.centre[0] + 150, d.centre[1] - 100], 90, 8), true)]];
      // A detached part (a listed square outside the main area) makes it a MultiPolygon.
      if (caEntity % 2 === 0) polys.push([ring(blob(seed, `ca-part-${d.code}`, [d.centre[0] - 900, d.centre[1] + 700], 160, 10), false)]);
      out.push({
        dataset: 'conservation-area', entity: caEntity++, reference: `CA${d.code}`, name: `${title(d.spec.locality ?? d.code)} Conservation Area`,
        organisationEntity: d.town.orgEntity, startDate: '1975-06-12', entryDate: '2024-11-05', polys, bbox: bboxOf(polys),
      });
    }
    if (d.spec.student) {
      const polys: Poly[] = [[ring(blob(seed, `a4-${d.code}`, d.centre, 1300, 24), false)]];
      out.push({
        dataset: 'article-4-direction-area', entity: a4Entity++, reference: `A4-HMO-${d.code}`,
        name: `${title(d.spec.locality ?? d.code)} HMO Article 4 Direction`, organisationEntity: d.town.orgEntity,
        startDate: '2016-02-25', entryDate: '2025-04-12', polys, bbox: bboxOf(polys),
      });
    }
  }
  return out;
}

function flood(town: TownSpec, entity: number, level: 2 | 3, polys: Poly[]): PlanningShape {
  return {
    dataset: 'flood-risk-zone', entity, reference: `${town.key}-fz${level}`, name: `Flood zone ${level}: ${title(town.postTown)}`,
    organisationEntity: '', startDate: '', entryDate: '2025-03-31', floodLevel: level, polys, bbox: bboxOf(polys),
  };
}

function title(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])([a-z])/g, (_, a: string, b: string) => a + b.toUpperCase());
}

function inRing(x: number, y: number, r: Pos[]): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const [xi, yi] = r[i]!;
    const [xj, yj] = r[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** True when [lng, lat] is inside the shape (inside an exterior ring and outside its holes). */
export function contains(shape: PlanningShape, lng: number, lat: number): boolean {
  const [x0, y0, x1, y1] = shape.bbox;
  if (lng < x0 || lng > x1 || lat < y0 || lat > y1) return false;
  for (const poly of shape.polys) {
    if (!inRing(lng, lat, poly[0]!)) continue;
    if (poly.slice(1).some((h) => inRing(lng, lat, h))) continue;
    return true;
  }
  return false;
}

export interface PlanningFlags {
  floodZone: 0 | 2 | 3;
  conservation: boolean;
  article4: boolean;
}

/** Grid cells of about 1.5 km (0.02°) → the shapes whose bounding box meets the cell. */
const CELL = 0.02;
const grids = new WeakMap<PlanningShape[], Map<string, PlanningShape[]>>();

function gridOf(shapes: PlanningShape[]): Map<string, PlanningShape[]> {
  let g = grids.get(shapes);
  if (g) return g;
  g = new Map();
  for (const s of shapes) {
    const [x0, y0, x1, y1] = s.bbox;
    for (let i = Math.floor(x0 / CELL); i <= Math.floor(x1 / CELL); i++) {
      for (let j = Math.floor(y0 / CELL); j <= Math.floor(y1 / CELL); j++) {
        const k = `${i},${j}`;
        const list = g.get(k);
        if (list) list.push(s);
        else g.set(k, [s]);
      }
    }
  }
  grids.set(shapes, g);
  return g;
}

/**
 * Flags of a point: the highest flood zone it lies in, and the designations over it. Only the
 * shapes listed for the point's grid cell are tested: a point inside a bounding box is in one
 * of the box's cells (floor is monotonic), so the flags are those of testing every shape.
 */
export function flagsAt(shapes: PlanningShape[], lng: number, lat: number): PlanningFlags {
  const f: PlanningFlags = { floodZone: 0, conservation: false, article4: false };
  for (const s of gridOf(shapes).get(`${Math.floor(lng / CELL)},${Math.floor(lat / CELL)}`) ?? []) {
    if (!contains(s, lng, lat)) continue;
    if (s.dataset === 'flood-risk-zone') f.floodZone = Math.max(f.floodZone, s.floodLevel ?? 0) as 0 | 2 | 3;
    else if (s.dataset === 'conservation-area') f.conservation = true;
    else f.article4 = true;
  }
  return f;
}

/** One planning.data.gov.uk FeatureCollection page for a dataset, keys in the platform's order. */
export function featureCollection(shapes: PlanningShape[], dataset: PlanningShape['dataset']): string {
  const feats = shapes.filter((s) => s.dataset === dataset).map((s) => {
    const props: Record<string, string | number> = {
      'entry-date': s.entryDate, 'start-date': s.startDate, 'end-date': '', entity: s.entity, name: s.name,
      dataset: s.dataset, typology: 'geography', reference: s.reference, prefix: s.dataset,
      'organisation-entity': s.organisationEntity, quality: s.dataset === 'flood-risk-zone' ? '' : 'authoritative',
    };
    if (s.floodLevel !== undefined) {
      props['flood-risk-level'] = String(s.floodLevel);
      props['flood-risk-type'] = 'Fluvial Models';
    }
    const geometry = s.polys.length === 1 ? { type: 'Polygon', coordinates: s.polys[0] } : { type: 'MultiPolygon', coordinates: s.polys };
    return { geometry, type: 'Feature', properties: props };
  });
  const base = `http://www.planning.data.gov.uk/entity.geojson?dataset=${dataset}&limit=500`;
  return JSON.stringify({ type: 'FeatureCollection', features: feats, links: { first: base, last: base } });
}
