/**
 * How far bngToWgs84 lands from ONSPD's own lat/long, over every ONSPD row that has both
 * a grid reference and a location, and how fast it converts.
 * Run: npx tsx bench/grid-accuracy.ts [path-to-onspd.csv(.gz)]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bngToWgs84 } from '../etl/sources/grid.ts';
import { readOnspd } from '../etl/sources/onspd/read.ts';
import { RejectLog } from '../etl/sources/rejects.ts';

const EARTH_RADIUS_M = 6_371_008.8; // IUGG mean radius; sphere error is ~0.5% of a metres-scale distance

/** Great-circle distance in metres between two WGS84 points (haversine). */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface GridAccuracy {
  compared: number;
  median: number;
  p95: number;
  max: number;
  /** The ONSPD row with the largest error, to look at. */
  worst: string;
}

/** Error of bngToWgs84 against ONSPD lat/long. Northern Ireland is skipped: its grid reference is Irish Grid. */
export async function measureGridAccuracy(path: string): Promise<GridAccuracy & { points: [number, number][] }> {
  const errors: { d: number; pc: string }[] = [];
  const points: [number, number][] = [];
  for await (const r of readOnspd(path, new RejectLog())) {
    if (r.oseast1m === undefined || r.osnrth1m === undefined || r.lat === undefined || r.lng === undefined) continue;
    if (r.country === 'Northern Ireland') continue;
    const p = bngToWgs84(r.oseast1m, r.osnrth1m);
    errors.push({ d: haversineM(p.lat, p.lng, r.lat, r.lng), pc: r.pcds });
    points.push([r.oseast1m, r.osnrth1m]);
  }
  if (errors.length === 0) throw new Error(`${path}: no rows with both a grid reference and lat/long`);
  errors.sort((a, b) => a.d - b.d);
  const at = (q: number) => errors[Math.min(errors.length - 1, Math.floor(q * errors.length))]!.d;
  const worst = errors[errors.length - 1]!;
  return { compared: errors.length, median: at(0.5), p95: at(0.95), max: worst.d, worst: worst.pc, points };
}

async function main(): Promise<void> {
  const path = resolve(process.argv[2] ?? resolve(import.meta.dirname, '../../shared/data/raw/postcodes/onspd_sample_postcodesio/postcode.csv.gz'));
  const acc = await measureGridAccuracy(path);
  console.log(`file: ${path}`);
  console.log(`rows compared: ${acc.compared}`);
  console.log(`error vs ONSPD lat/long (m): median ${acc.median.toFixed(3)}  p95 ${acc.p95.toFixed(3)}  max ${acc.max.toFixed(3)} (${acc.worst})`);

  // Throughput: convert the sample's grid references repeatedly; sink the result so it is not optimised away.
  const rounds = Math.max(1, Math.ceil(500_000 / acc.points.length));
  let sink = 0;
  for (const [e, n] of acc.points.slice(0, 1000)) sink += bngToWgs84(e, n).lat; // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) for (const [e, n] of acc.points) sink += bngToWgs84(e, n).lat;
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const total = rounds * acc.points.length;
  console.log(`conversions: ${total} in ${secs.toFixed(3)} s = ${Math.round(total / secs).toLocaleString('en-GB')} per second (sink ${sink.toFixed(0)})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
