/**
 * The example request of every endpoint the demo prints (scripts/demo-examples.ts), made from a
 * real property and postcode of the build in `dataDir/current`; tested to answer 2xx on the
 * demo data (test/service/demo-examples.test.ts).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PLANS, type Tier } from '../schemas/plans.ts';
import { V1_ROUTES } from '../service/routes/v1/index.ts';
import type { RouteDef } from '../service/routes/types.ts';

export interface DemoExample {
  route: RouteDef;
  /** Relative to /v1, with its query. */
  path: string;
  body?: object;
}

export interface DemoProperty {
  uprn: string; postcode: string; sector: string; outcode: string; la_code: string; lat: number; lng: number; address: string;
  /**
   * The postcode of the open school nearest the property (null when the build has none): the
   * schools example asks there. The synthetic region draws schools at England's density per
   * home, so its few thousand homes hold a handful of schools, and the property may have none
   * within the default 5 km.
   */
  school_postcode?: string | null;
}

/**
 * The property every example is about: one with a sale, a floor area and a position, in the
 * outcode with the most addresses (where every area statistic has evidence), the first by UPRN.
 */
export async function demoProperty(dataDir: string): Promise<DemoProperty> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const props = join(resolve(dataDir), 'current', 'properties.parquet').replaceAll("'", "''");
    const [p] = (await conn.runAndReadAll(
      `WITH p AS (SELECT * FROM read_parquet('${props}')),
       big AS (SELECT outcode FROM p GROUP BY outcode ORDER BY count(*) DESC, outcode LIMIT 1)
       SELECT uprn::VARCHAR AS uprn, postcode, sector, outcode, la_code, lat, lng, address FROM p
       WHERE outcode = (SELECT outcode FROM big) AND last_sold_price IS NOT NULL AND floor_area_sqft IS NOT NULL AND lat IS NOT NULL
         AND la_code IS NOT NULL ORDER BY uprn LIMIT 1`,
    )).getRowObjectsJson() as unknown as DemoProperty[];
    if (!p) throw new Error('the current build has no property with a sale and a floor area');
    const schools = join(resolve(dataDir), 'current', 'schools.parquet');
    if (!existsSync(schools)) return { ...p, school_postcode: null };
    const [school] = (await conn.runAndReadAll(
      `SELECT postcode FROM read_parquet('${schools.replaceAll("'", "''")}')
       WHERE status LIKE 'Open%' AND postcode IS NOT NULL AND lat IS NOT NULL
       ORDER BY (lat - ${Number(p.lat)}) ^ 2 + ((lng - ${Number(p.lng)}) * cos(radians(${Number(p.lat)}))) ^ 2, urn LIMIT 1`,
    )).getRowObjectsJson() as unknown as { postcode: string }[];
    return { ...p, school_postcode: school?.postcode ?? null };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

export function demoExamples(p: DemoProperty): DemoExample[] {
  const pc = encodeURIComponent(p.postcode);
  const examplePath: Record<string, string> = {
    '/addresses/search': `/addresses/search?q=${encodeURIComponent(p.address.split(',')[0] ?? p.address)}`,
    '/areas/{code}': `/areas/${encodeURIComponent(p.sector)}`,
    '/prices/comparables': `/prices/comparables?postcode=${pc}&radius_m=1000&sort=date`,
    '/prices/trends': `/prices/trends?outcode=${p.outcode}`,
    '/rents/long-term': `/rents/long-term?outcode=${p.outcode}`,
    '/rents/hmo': `/rents/hmo?outcode=${p.outcode}`,
    '/yields': `/yields?outcode=${p.outcode}`,
    '/str/market': `/str/market?outcode=${p.outcode}&include=summary,grade`,
    '/str/listings': `/str/listings?outcode=${p.outcode}`,
    '/listings': `/listings?postcode=${pc}`,
    '/sourcing/deals': `/sourcing/deals?outcode=${p.outcode}`,
    '/crime': `/crime?lat=${p.lat}&lng=${p.lng}`,
    '/schools': p.school_postcode ? `/schools?postcode=${encodeURIComponent(p.school_postcode)}` : `/schools?lat=${p.lat}&lng=${p.lng}`,
    '/flood-risk': `/flood-risk?postcode=${pc}`,
    '/planning/constraints': `/planning/constraints?uprn=${p.uprn}`,
    '/hmo/licences': `/hmo/licences?postcode=${pc}`,
  };
  const bodies: Record<string, object> = {
    // A number, as a search result gives it (a numeric string works too).
    '/valuations/str-estimate': { uprn: Number(p.uprn), bedrooms: 2 },
    '/valuations/development-gdv': { postcode: p.postcode, units: [{ property_type: 'flat', bedrooms: 2, floor_area_sqft: 700, count: 10 }] },
  };
  return V1_ROUTES.map((route) => {
    const path = (examplePath[route.path] ?? route.path).replace('{uprn}', p.uprn).replace('{postcode}', pc).replace('{code}', p.outcode);
    const body = bodies[route.path];
    return { route, path, ...(body ? { body } : {}) };
  });
}

/** Seconds the printed script waits between calls so they stay within `tier`'s rate limit (10% margin). */
export function paceSeconds(tier: Tier): number {
  const rl = PLANS[tier].rateLimit;
  return rl ? Math.ceil(((rl.windowMs / rl.limit) * 1.1) / 100) / 10 : 0;
}
