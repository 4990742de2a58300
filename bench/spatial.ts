/**
 * Point-in-polygon throughput: the flatbush index against a full scan, and computeFlags
 * end to end through DuckDB.
 *
 *   npx tsx bench/spatial.ts [points=1000000] [polygons=10000]
 *
 * Synthetic layers over a 50 × 50 km region (seeded, so every run sees the same shapes):
 * irregular star-shaped polygons of realistic sizes per dataset, 20% with a hole, 15%
 * MultiPolygons of 2–4 parts. Points are uniform over the region. Reports index build time,
 * points per second through the index (median of 3 runs), the full-scan rate on a sample
 * (bbox reject, then the exact test, over every feature: the strongest no-index baseline)
 * and computeFlags' rate at the full point count. Writes bench/results/spatial.json.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, writeFileSync } from 'node:fs';
import os, { cpus } from 'node:os';
import { join } from 'node:path';
import { computeFlags } from '../etl/stages/20-merged/50-spatial-flags/flags.ts';
import { buildIndex } from '../lib/geo/spatial-index.ts';
import { prepareGeometry, preparedContains } from '../lib/geo/point-in-polygon.ts';
import { loadRows } from '../etl/pipeline/load-rows.ts';
import { planning } from '../etl/sources/planning/source.ts';
import { geometryBBox } from '../etl/sources/planning/read.ts';
import type { PlanningFeature, PlanningGeometry, PolygonCoords, Ring } from '../schemas/sources/planning.ts';
import { rng as seededRng } from '../etl/synth/prng.ts';

const N_POINTS = Number(process.argv[2] ?? 1_000_000);
const N_POLYGONS = Number(process.argv[3] ?? 10_000);
const SCAN_SAMPLE = 2_000;
const RUNS = 3;

// Region: 50 km square with its south-west corner near Bristol.
const LNG0 = -2.8;
const LAT0 = 51.3;
const KM_LAT = 1 / 111.2; // degrees of latitude per km
const KM_LNG = 1 / (111.2 * Math.cos(((LAT0 + 0.225) * Math.PI) / 180)); // degrees of longitude per km
const SIDE_KM = 50;

/** Seeded uniform [0, 1): the synthetic generator's PRNG, so runs are repeatable. */
function prng(seed: number): () => number {
  const r = seededRng(seed, 'spatial-bench');
  return () => r.next();
}
const rnd = prng(20261121);
const between = (lo: number, hi: number) => lo + (hi - lo) * rnd();
const logBetween = (lo: number, hi: number) => Math.exp(between(Math.log(lo), Math.log(hi)));

/** Irregular star-shaped ring around (cx, cy) in km, `r` km across at most, stretched by `aspect`. */
function ring(cx: number, cy: number, r: number, vertices: number, aspect: number, turn: number): Ring {
  const out: Ring = [];
  for (let i = 0; i < vertices; i++) {
    const a = (2 * Math.PI * i) / vertices;
    const rr = r * between(0.55, 1);
    const x = rr * Math.cos(a) * aspect;
    const y = (rr * Math.sin(a)) / aspect;
    const xr = x * Math.cos(turn) - y * Math.sin(turn);
    const yr = x * Math.sin(turn) + y * Math.cos(turn);
    out.push([LNG0 + (cx + xr) * KM_LNG, LAT0 + (cy + yr) * KM_LAT]);
  }
  out.push([out[0]![0], out[0]![1]]);
  return out;
}

function polygonAt(cx: number, cy: number, r: number, vertices: number, aspect: number, withHole: boolean): PolygonCoords {
  const turn = between(0, Math.PI);
  const rings = [ring(cx, cy, r, vertices, aspect, turn)];
  // Radii vary 0.55–1 of r, so a hole under 0.3 r stays inside the outer ring.
  if (withHole) rings.push(ring(cx, cy, r * 0.3, Math.max(4, vertices >> 2), aspect, turn).reverse());
  return rings;
}

// Sizes are radii in km, vertex counts how detailed each layer is published. Together they
// cover about a third of the region, flood zones the most, as around a river city.
const KINDS = [
  { dataset: 'listed-building-outline', share: 0.4, r: [0.006, 0.025], v: [5, 16], aspect: [1, 1.6] },
  { dataset: 'tree-preservation-zone', share: 0.2, r: [0.02, 0.15], v: [6, 40], aspect: [1, 2] },
  { dataset: 'conservation-area', share: 0.15, r: [0.06, 0.5], v: [30, 250], aspect: [1, 2] },
  { dataset: 'article-4-direction-area', share: 0.15, r: [0.04, 0.6], v: [10, 150], aspect: [1, 2] },
  { dataset: 'flood-risk-zone', share: 0.1, r: [0.1, 1.2], v: [50, 400], aspect: [1.5, 4] },
] as const;

function syntheticFeatures(n: number): PlanningFeature[] {
  const out: PlanningFeature[] = [];
  for (let i = 0; i < n; i++) {
    let pick = rnd();
    const kind = KINDS.find((k) => (pick -= k.share) < 0) ?? KINDS[0];
    const parts = rnd() < 0.15 ? 2 + Math.floor(rnd() * 3) : 1;
    const cx = between(0, SIDE_KM);
    const cy = between(0, SIDE_KM);
    const r = logBetween(kind.r[0], kind.r[1]);
    const polys: PolygonCoords[] = [];
    for (let p = 0; p < parts; p++) {
      // Further parts sit a few radii away (a site in pieces, a river's zone in stretches).
      const ox = p === 0 ? 0 : between(-4, 4) * r;
      const oy = p === 0 ? 0 : between(-4, 4) * r;
      const v = Math.round(logBetween(kind.v[0], kind.v[1]));
      polys.push(polygonAt(cx + ox, cy + oy, r, v, between(kind.aspect[0], kind.aspect[1]), rnd() < 0.2));
    }
    const geometry: PlanningGeometry = parts === 1 ? { type: 'Polygon', coordinates: polys[0]! } : { type: 'MultiPolygon', coordinates: polys };
    const level = kind.dataset === 'flood-risk-zone' ? (rnd() < 0.5 ? 2 : 3) : undefined;
    out.push({
      dataset: kind.dataset, entity: i + 1, reference: `S${i + 1}`, name: `${kind.dataset} ${i + 1}`,
      flood_risk_level: level, properties: {}, geometry, bbox: geometryBBox(geometry),
    });
  }
  return out;
}

function randomPoints(n: number): { lng: Float64Array; lat: Float64Array } {
  const lng = new Float64Array(n);
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    lng[i] = LNG0 + between(0, SIDE_KM) * KM_LNG;
    lat[i] = LAT0 + between(0, SIDE_KM) * KM_LAT;
  }
  return { lng, lat };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
const cpuSeconds = (c0: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-GB');

const features = syntheticFeatures(N_POLYGONS);
const { lng, lat } = randomPoints(N_POINTS);
const vertexCount = features.reduce((s, f) => {
  const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
  return s + polys.reduce((t, rings) => t + rings.reduce((u, r) => u + r.length - 1, 0), 0);
}, 0);
console.log(`node ${process.version}, ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}`);
console.log(`${fmt(N_POLYGONS)} polygons (${fmt(vertexCount)} vertices), ${fmt(N_POINTS)} points, median of ${RUNS}`);

// 1. Index build (parse into typed arrays + packed R-tree).
const buildTimes: number[] = [];
let index = buildIndex(features);
for (let r = 0; r < RUNS; r++) {
  const t0 = process.hrtime.bigint();
  index = buildIndex(features);
  buildTimes.push(seconds(t0));
}

// 2. Indexed queries over every point.
let hits = 0;
let pointsIn = 0;
const queryTimes: number[] = [];
const queryCpu: number[] = [];
for (let r = 0; r < RUNS; r++) {
  hits = 0;
  pointsIn = 0;
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N_POINTS; i++) {
    const found = index.queryIds(lng[i]!, lat[i]!);
    hits += found.length;
    if (found.length > 0) pointsIn++;
  }
  queryTimes.push(seconds(t0));
  queryCpu.push(cpuSeconds(c0));
}
const indexedRate = N_POINTS / median(queryTimes);
const indexedCpuRate = N_POINTS / median(queryCpu);

// 3. Full scan over prepared features on a sample; also checks it agrees with the index.
const prepared = features.map((f) => prepareGeometry(f.geometry));
const scanTimes: number[] = [];
const scanCpu: number[] = [];
let disagreements = 0;
for (let r = 0; r < RUNS; r++) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const results: number[][] = [];
  for (let i = 0; i < SCAN_SAMPLE; i++) {
    const x = lng[i]!;
    const y = lat[i]!;
    const found: number[] = [];
    for (let f = 0; f < prepared.length; f++) {
      if (prepared[f]!.some((p) => preparedContains(p, x, y))) found.push(f);
    }
    results.push(found);
  }
  scanTimes.push(seconds(t0));
  scanCpu.push(cpuSeconds(c0));
  if (r === 0) {
    for (let i = 0; i < SCAN_SAMPLE; i++) if (index.queryIds(lng[i]!, lat[i]!).join() !== results[i]!.join()) disagreements++;
  }
}
const scanRate = SCAN_SAMPLE / median(scanTimes);
const scanCpuRate = SCAN_SAMPLE / median(scanCpu);

console.log(`index build: ${median(buildTimes).toFixed(3)} s`);
console.log(`indexed: ${fmt(indexedRate)} points/s wall, ${fmt(indexedCpuRate)} per CPU-second (${fmt(pointsIn)} points in ≥1 feature, ${fmt(hits)} hits)`);
console.log(`full scan: ${fmt(scanRate)} points/s wall, ${fmt(scanCpuRate)} per CPU-second on ${fmt(SCAN_SAMPLE)} points; index ${(indexedCpuRate / scanCpuRate).toFixed(0)}× faster (CPU); disagreements: ${disagreements}`);
if (disagreements > 0) throw new Error('index and full scan disagree');

// 4. computeFlags through DuckDB: stage the same layers, a points table, then the whole stage.
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
await loadRows(conn, 'stg_planning', [...planning.columns, { name: '_file_no', type: 'INTEGER', get: () => 1 }], features);
await conn.run('CREATE TABLE points (uprn BIGINT, lat DOUBLE, lng DOUBLE)');
const app = await conn.createAppender('points');
for (let i = 0; i < N_POINTS; i++) {
  app.appendBigInt(BigInt(i + 1));
  app.appendDouble(lat[i]!);
  app.appendDouble(lng[i]!);
  app.endRow();
}
app.flushSync();
app.closeSync();
await conn.run("ALTER TABLE points ADD COLUMN country VARCHAR DEFAULT 'England'"); // computeFlags flags England's points only (the layers' coverage)
const flagTimes: number[] = [];
const flagCpu: number[] = [];
let counts: Awaited<ReturnType<typeof computeFlags>> | undefined;
for (let r = 0; r < RUNS; r++) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  counts = await computeFlags(conn, 'points', { today: '2026-11-21' });
  flagTimes.push(seconds(t0));
  flagCpu.push(cpuSeconds(c0)); // includes DuckDB's own threads
}
conn.closeSync();
db.closeSync();
const flagsRate = N_POINTS / median(flagTimes);
const flagsCpuRate = N_POINTS / median(flagCpu);
console.log(`computeFlags: ${median(flagTimes).toFixed(2)} s, ${fmt(flagsRate)} points/s wall, ${fmt(flagsCpuRate)} per CPU-second (${fmt(counts!.designations)} designation rows)`);
if (counts!.designations !== hits) throw new Error(`computeFlags wrote ${counts!.designations} designations, the index found ${hits}`);

const result = {
  command: 'npx tsx bench/spatial.ts',
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
  polygons: N_POLYGONS,
  vertices: vertexCount,
  points: N_POINTS,
  runs: RUNS,
  index_build_s: +median(buildTimes).toFixed(4),
  load_average_at_end: os.loadavg().map((x) => +x.toFixed(2)),
  indexed_points_per_s: Math.round(indexedRate),
  indexed_points_per_cpu_s: Math.round(indexedCpuRate),
  points_in_a_feature: pointsIn,
  hits,
  full_scan_sample: SCAN_SAMPLE,
  full_scan_points_per_s: Math.round(scanRate),
  full_scan_points_per_cpu_s: Math.round(scanCpuRate),
  speedup_cpu: Math.round(indexedCpuRate / scanCpuRate),
  compute_flags_s: +median(flagTimes).toFixed(3),
  compute_flags_points_per_s: Math.round(flagsRate),
  compute_flags_points_per_cpu_s: Math.round(flagsCpuRate),
  flags: counts,
};
const dir = join(import.meta.dirname, 'results');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'spatial.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(`wrote ${join(dir, 'spatial.json')}`);
