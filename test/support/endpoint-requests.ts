/**
 * Valid, varied requests for every endpoint, made from a published build's own rows (DuckDB over
 * its Parquet): sampled UPRNs, live postcodes with their sectors and outcodes, points near them,
 * short-term-let locations, and address searches typed as users type them
 * (search-relevance.ts). Deterministic for a build (seeded samples and choices). Used by the
 * whole-system bench (bench/mixed.ts) and the swap-under-load test.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { PROPERTY_FIELDS } from '../../schemas/api/property.ts';
import { relevanceQueries } from './search-relevance.ts';

export interface Req { path: string; body?: string }

export interface EndpointInputs {
  uprns: { uprn: string; bedrooms: number | null }[];
  postcodes: { postcode: string; sector: string; outcode: string; lat: number; lng: number; country: string; la_code: string | null }[];
  str: { lat: number; lng: number; postcode: string; sector: string; outcode: string; bedrooms: number | null }[];
  queries: string[];
}

/** `count` sampled UPRNs and search queries, and the build's postcodes and let locations. */
export async function readEndpointInputs(buildDir: string, count: number): Promise<EndpointInputs> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  const file = (t: string) => `read_parquet('${join(buildDir, `${t}.parquet`)}')`;
  const uprns = (await q(`SELECT uprn, bedrooms FROM ${file('properties')} USING SAMPLE reservoir(${count} ROWS) REPEATABLE (42)`))
    .map((r) => ({ uprn: String(r.uprn), bedrooms: r.bedrooms === null ? null : Number(r.bedrooms) }));
  const postcodes = (await q(`SELECT postcode, sector, outcode, lat, lng, country, la_code FROM ${file('postcodes')}
    WHERE lat IS NOT NULL AND NOT terminated AND address_count > 0 USING SAMPLE reservoir(20000 ROWS) REPEATABLE (42)`))
    .map((r) => ({ postcode: String(r.postcode), sector: String(r.sector), outcode: String(r.outcode), lat: Number(r.lat), lng: Number(r.lng), country: String(r.country), la_code: r.la_code === null ? null : String(r.la_code) }));
  const str = (await q(`SELECT lat, lng, postcode, sector, outcode, bedrooms FROM ${file('str_listings')}
    WHERE lat IS NOT NULL AND postcode IS NOT NULL AND sector IS NOT NULL AND outcode IS NOT NULL USING SAMPLE reservoir(5000 ROWS) REPEATABLE (42)`))
    .map((r) => ({ lat: Number(r.lat), lng: Number(r.lng), postcode: String(r.postcode), sector: String(r.sector), outcode: String(r.outcode), bedrooms: r.bedrooms === null ? null : Number(r.bedrooms) }));
  const truth = (await q(`SELECT uprn, address, sub_building, building_name, building_number, street_name, locality, town_name, postcode
    FROM ${file('addresses')} WHERE street_name IS NOT NULL AND postcode IS NOT NULL AND lat IS NOT NULL
    USING SAMPLE reservoir(${Math.min(count, 40_000)} ROWS) REPEATABLE (7)`))
    .map((r) => ({ ...(r as never as Parameters<typeof relevanceQueries>[0][number]), uprn: Number(r.uprn) }));
  conn.closeSync();
  db.closeSync();
  return { uprns, postcodes, str, queries: relevanceQueries(truth, count, 9).map((x) => x.q) };
}

/** Every endpoint's candidate requests (about `n` each), keyed `METHOD /v1/path`. */
export function endpointRequests(inp: EndpointInputs, n: number): Map<string, Req[]> {
  let seed = 20261122;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
  const chance = (p: number) => rand() < p;
  const enc = encodeURIComponent;
  const jitter = (x: number, d = 0.004) => Math.round((x + (rand() - 0.5) * 2 * d) * 1e5) / 1e5;
  const qs = (o: Record<string, string | number | boolean | undefined>) =>
    Object.entries(o).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${enc(String(v))}`).join('&');
  const gen = <T>(k: number, f: (i: number) => T) => Array.from({ length: k }, (_, i) => f(i));
  const uprn = (i: number) => inp.uprns[i % inp.uprns.length]!;
  const finishes = ['below_average', 'average', 'above_average', 'very_high'];
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
  // A location as the area endpoints take it: a full postcode, a sector, an outcode or a point (+ radius).
  const area = (opts: { sector?: boolean; outcode?: boolean; radius?: number[]; fullOnly?: boolean } = {}) => {
    const p = pick(inp.postcodes);
    const k = rand();
    if (opts.fullOnly) return k < 0.6 ? { postcode: p.postcode } : { lat: jitter(p.lat), lng: jitter(p.lng), ...(opts.radius && chance(0.5) ? { radius_m: pick(opts.radius) } : {}) };
    if (k < 0.35) return { postcode: p.postcode };
    if (k < 0.5 && opts.sector !== false) return { postcode: p.sector };
    if (k < 0.7 && opts.outcode !== false) return { outcode: p.outcode };
    return { lat: jitter(p.lat), lng: jitter(p.lng), ...(opts.radius && chance(0.6) ? { radius_m: pick(opts.radius) } : {}) };
  };
  /** A sector, outcode or local authority, or a full postcode or UPRN (answered for its sector), as trends, yields and room rents take them. */
  const areaOf = (i: number) => {
    const p = pick(inp.postcodes);
    const k = rand();
    return k < 0.3 ? { postcode: p.postcode } : k < 0.5 ? { postcode: p.sector } : k < 0.75 ? { outcode: p.outcode }
      : k < 0.9 && p.la_code ? { local_authority: p.la_code } : { uprn: uprn(i).uprn };
  };
  const get = (path: string, query?: Record<string, string | number | boolean | undefined>): Req => {
    const s = query ? qs(query) : '';
    return { path: s ? `${path}?${s}` : path };
  };
  const post = (path: string, body: unknown): Req => ({ path, body: JSON.stringify(body) });
  const fieldSets = [PROPERTY_FIELDS.slice(0, 4), ['address', 'postcode', 'bedrooms', 'service_estimate'], ['uprn', 'floor_area_sqft', 'epc', 'last_sold_price']];
  const bedroomsOf = new Map(inp.uprns.map((u) => [u.uprn, u.bedrooms]));
  const strLocation = (withUprn: boolean): { uprn: string } | { postcode: string } | { lat: number; lng: number } => {
    const s = pick(inp.str);
    const k = rand();
    if (withUprn && k < 0.3) return { uprn: uprn(Math.floor(rand() * inp.uprns.length)).uprn };
    if (k < 0.6) return { postcode: s.postcode };
    return { lat: jitter(s.lat, 0.005), lng: jitter(s.lng, 0.005) };
  };

  return new Map<string, Req[]>([
    ['GET /v1/addresses/search', inp.queries.map((q) => get('/v1/addresses/search', { q, limit: chance(0.2) ? pick([5, 20, 50]) : undefined }))],
    ['GET /v1/properties/{uprn}', gen(n, (i) => get(`/v1/properties/${uprn(i).uprn}`, chance(0.15) ? { fields: pick(fieldSets).join(',') } : undefined))],
    ['GET /v1/properties/{uprn}/sales', gen(n, (i) => get(`/v1/properties/${uprn(i + 7).uprn}/sales`))],
    ['GET /v1/properties/{uprn}/epc', gen(n, (i) => get(`/v1/properties/${uprn(i + 11).uprn}/epc`))],
    ['GET /v1/postcodes/{postcode}', gen(n, () => {
      const p = pick(inp.postcodes).postcode;
      return get(`/v1/postcodes/${enc(chance(0.2) ? p.replace(' ', '').toLowerCase() : p)}`);
    })],
    ['GET /v1/valuations/{uprn}/sale', gen(n, (i) => get(`/v1/valuations/${uprn(i + 13).uprn}/sale`))],
    ['GET /v1/valuations/{uprn}/rental', gen(n, (i) => get(`/v1/valuations/${uprn(i + 17).uprn}/rental`, chance(0.2) ? { bedrooms: Math.floor(rand() * 5) } : undefined))],
    ['GET /v1/valuations/{uprn}/hmo', gen(n, (i) => get(`/v1/valuations/${uprn(i + 19).uprn}/hmo`, chance(0.5) ? undefined
      : { finish_quality: pick(finishes), living_room: chance(0.7), parking: chance(0.6), outside_space: chance(0.7) }))],
    ['POST /v1/valuations/development-gdv', gen(Math.min(n, 5000), () => {
      const p = pick(inp.postcodes);
      const k = rand();
      const at = k < 0.6 ? { postcode: p.postcode } : k < 0.8 ? { uprn: pick(inp.uprns).uprn } : { lat: jitter(p.lat), lng: jitter(p.lng) };
      return post('/v1/valuations/development-gdv', {
        ...at,
        units: [
          { property_type: 'flat', bedrooms: 1, floor_area_sqft: 450 + Math.floor(rand() * 150), count: 1 + Math.floor(rand() * 20) },
          { property_type: 'flat', bedrooms: 2, floor_area_sqft: 650 + Math.floor(rand() * 150), count: 1 + Math.floor(rand() * 12) },
          ...(chance(0.6) ? [{ property_type: 'house', bedrooms: 3, floor_area_sqft: 900 + Math.floor(rand() * 300), count: 1 + Math.floor(rand() * 8) }] : []),
        ],
        ...(chance(0.7) ? { finish_quality: pick(finishes) } : {}),
      });
    })],
    ['GET /v1/prices/comparables', gen(n, (i) => {
      // A UPRN, a full postcode or a point, with a radius (any form) and filters as a user sets them.
      const k = rand();
      const p = pick(inp.postcodes);
      const at = k < 0.3 ? { uprn: uprn(i + 31).uprn } : k < 0.65 ? { postcode: p.postcode } : { lat: jitter(p.lat), lng: jitter(p.lng) };
      return get('/v1/prices/comparables', {
        ...at,
        radius_m: chance(0.6) ? pick([250, 500, 1000, 2000]) : undefined,
        property_type: chance(0.3) ? pick(['Detached', 'Semi-Detached', 'Terraced', 'Flat']) : undefined,
        bedrooms: chance(0.3) ? 1 + Math.floor(rand() * 4) : undefined,
        min_date: chance(0.3) ? daysAgo(365 * (1 + Math.floor(rand() * 5))) : undefined,
        sort: chance(0.3) ? pick(['date', ...('uprn' in at ? ['similarity'] : [])]) : undefined,
        per_page: chance(0.3) ? pick([10, 50]) : undefined,
      });
    })],
    ['GET /v1/prices/trends', gen(n, (i) => {
      const p = pick(inp.postcodes);
      const k = rand();
      const at = k < 0.3 ? { postcode: p.postcode } : k < 0.5 ? { postcode: p.sector } : k < 0.75 ? { outcode: p.outcode }
        : k < 0.9 && p.la_code ? { local_authority: p.la_code } : { uprn: uprn(i + 37).uprn };
      return get('/v1/prices/trends', { ...at, months: chance(0.4) ? pick([12, 36, 60, 120]) : undefined, property_type: chance(0.2) ? pick(['Detached', 'Semi-Detached', 'Terraced', 'Flat']) : undefined });
    })],
    ['GET /v1/rents/long-term', gen(n, () => {
      const p = pick(inp.postcodes);
      const k = rand();
      const at = k < 0.35 ? { postcode: p.postcode } : k < 0.5 ? { postcode: p.sector } : k < 0.7 ? { outcode: p.outcode } : { lat: jitter(p.lat), lng: jitter(p.lng), radius_m: pick([500, 1000, 2000]) };
      const f = rand();
      return get('/v1/rents/long-term', { ...at, ...(f < 0.3 ? { bedrooms: Math.floor(rand() * 5) } : f < 0.45 ? { property_type: pick(['house', 'flat']) } : {}) });
    })],
    ['GET /v1/rents/hmo', gen(n, (i) => get('/v1/rents/hmo', areaOf(i + 41)))],
    ['GET /v1/yields', gen(n, (i) => get('/v1/yields', { ...areaOf(i + 43), bedrooms: chance(0.3) ? Math.floor(rand() * 6) : undefined }))],
    ['POST /v1/valuations/str-estimate', gen(n, () => {
      const at = strLocation(true);
      // Without a bedroom count only now and then, and only with a UPRN whose record has one (else the documented 400).
      const omit = 'uprn' in at && chance(0.5) && bedroomsOf.get(at.uprn) != null;
      return post('/v1/valuations/str-estimate', {
        ...at,
        ...(omit ? {} : { bedrooms: pick([0, 1, 1, 2, 2, 2, 3, 3, 4]) }),
        ...(chance(0.3) ? { property_type: pick(['house', 'apartment']) } : {}),
        ...(chance(0.3) ? { finish_quality: pick(finishes) } : {}),
        ...(chance(0.2) ? { include_comparables: true } : {}),
      });
    })],
    ['GET /v1/str/market', gen(n, () => {
      const s = pick(inp.str);
      const k = rand();
      const at = k < 0.35 ? { outcode: s.outcode } : k < 0.55 ? { postcode: s.sector } : k < 0.75 ? { postcode: s.postcode } : { lat: jitter(s.lat), lng: jitter(s.lng), radius_m: pick([1000, 2000, 5000]) };
      const f = rand();
      return get('/v1/str/market', {
        ...at,
        ...(f < 0.2 ? { listing_type: 'entire_home' } : f < 0.35 ? { min_bedrooms: 1, max_bedrooms: 3 } : f < 0.45 ? { property_type: pick(['house', 'apartment']) } : {}),
        include: chance(0.3) ? pick(['summary', 'summary,historical', 'summary,grade,by_bedrooms']) : undefined,
      });
    })],
    // The location forms of GET /str/market (lat+lng with radius_m); sorts that need no point.
    ['GET /v1/str/listings', gen(n, () => get('/v1/str/listings', {
      ...((s = pick(inp.str), k = rand()) =>
        k < 0.35 ? { outcode: s.outcode } : k < 0.55 ? { postcode: s.sector } : k < 0.75 ? { postcode: s.postcode } : { lat: jitter(s.lat), lng: jitter(s.lng), radius_m: pick([1000, 2000, 5000]) })(),
      bedrooms: chance(0.3) ? 1 + Math.floor(rand() * 3) : undefined,
      sort: chance(0.4) ? pick(['revenue', 'adr', 'occupancy', 'rating']) : undefined,
      per_page: chance(0.2) ? 50 : undefined,
    }))],
    ['GET /v1/listings', gen(n, () => get('/v1/listings', {
      ...area({ sector: false, radius: [500, 1000, 2000] }),
      type: chance(0.4) ? pick(['sale', 'rent']) : undefined,
      min_bedrooms: chance(0.3) ? 1 + Math.floor(rand() * 3) : undefined,
      ...(chance(0.3) ? { min_price: 100_000, max_price: 100_000 + 50_000 * (1 + Math.floor(rand() * 8)) } : {}),
      sort: chance(0.3) ? pick(['newest', 'price_asc', 'price_desc']) : undefined,
      page: chance(0.2) ? 2 : undefined,
    }))],
    ['GET /v1/sourcing/deals', gen(n, () => {
      const yieldStrategy = chance(0.3);
      return get('/v1/sourcing/deals', {
        ...area({ sector: false, radius: [1000, 2000, 5000] }),
        ...(yieldStrategy ? { strategy: 'yield', min_yield_pct: chance(0.5) ? pick([5, 6, 7, 8]) : undefined } : { min_discount_pct: chance(0.4) ? pick([5, 10, 15, 20]) : undefined }),
      });
    })],
    ['GET /v1/areas/{code}', gen(n, () => {
      const p = pick(inp.postcodes);
      const k = rand();
      return get(`/v1/areas/${enc(k < 0.5 || (k >= 0.9 && !p.la_code) ? p.sector : k < 0.9 ? p.outcode : p.la_code!)}`);
    })],
    ['GET /v1/crime', gen(n, () => get('/v1/crime', area({ fullOnly: true, radius: [250, 500, 800, 1600] })))],
    ['GET /v1/schools', gen(n, () => get('/v1/schools', { ...area({ fullOnly: true }), phase: chance(0.5) ? pick(['primary', 'secondary', 'all']) : undefined, limit: chance(0.3) ? pick([5, 20]) : undefined }))],
    ['GET /v1/risks/{uprn}', gen(n, (i) => get(`/v1/risks/${uprn(i + 23).uprn}`))],
    ['GET /v1/flood-risk', gen(n, (i) => get('/v1/flood-risk', chance(0.3) ? { uprn: uprn(i + 41).uprn } : area({ fullOnly: true })))],
    ['GET /v1/planning/constraints', gen(n, (i) => {
      const p = pick(inp.postcodes);
      return get('/v1/planning/constraints', chance(0.6) ? { uprn: uprn(i + 29).uprn } : { lat: jitter(p.lat), lng: jitter(p.lng) });
    })],
    ['GET /v1/hmo/licences', gen(n, () => get('/v1/hmo/licences', { ...area({ sector: false, radius: [500, 1000, 2000] }), status: chance(0.2) ? pick(['all', 'expired']) : undefined, page: chance(0.2) ? 2 : undefined }))],
    ['GET /v1/account', [get('/v1/account')]],
    ['GET /v1/account/usage', gen(50, (i) => (i % 2 ? get('/v1/account/usage') : get('/v1/account/usage', { from: daysAgo(i % 7), to: today })))],
    ['GET /v1/status', [get('/v1/status')]],
  ]);
}
