/**
 * The example request of every endpoint the demo prints (scripts/demo-examples.ts): the ones the
 * OpenAPI document shows (schemas/api/examples.ts), made from a real property and postcode of the
 * build in `dataDir/current`; tested to answer 2xx on the demo data (test/service/demo-examples.test.ts).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exampleRequest, type ExampleProperty } from '../schemas/api/examples.ts';
import { PLANS, type Tier } from '../schemas/plans.ts';
import { V1_ROUTES } from '../service/routes/v1/index.ts';
import type { RouteDef } from '../service/routes/types.ts';

export interface DemoExample {
  route: RouteDef;
  /** Relative to /v1, with its query. */
  path: string;
  body?: object;
}

export type DemoProperty = ExampleProperty;

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
    )).getRowObjectsJson() as unknown as Omit<DemoProperty, 'school_postcode'>[];
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
  return V1_ROUTES.map((route) => ({ route, ...exampleRequest(route.path, p) }));
}

/** Seconds the printed script waits between calls so they stay within `tier`'s rate limit (10% margin). */
export function paceSeconds(tier: Tier): number {
  const rl = PLANS[tier].rateLimit;
  return rl ? Math.ceil(((rl.windowMs / rl.limit) * 1.1) / 100) / 10 : 0;
}
