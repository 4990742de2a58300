import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { call, startTestServer, type Reply, type TestServer } from './support.ts';

/** Great-circle metres between columns (lat, lng) and a point, in SQL: the test's own haversine, not the service's. */
export const havSql = (lat: string, lng: string, plat: number, plng: number) =>
  `12742000 * asin(sqrt(pow(sin(radians(${lat} - ${plat}) / 2), 2) + cos(radians(${plat})) * cos(radians(${lat})) * pow(sin(radians(${lng} - ${plng}) / 2), 2)))`;

export interface BuildServer {
  s: TestServer;
  key: string;
  /** SQL over the published build's Parquet tables (one view per table). */
  rows: (sql: string) => Promise<Record<string, any>[]>;
  get: (path: string) => Promise<Reply>;
  stop: () => Promise<void>;
}

/**
 * A real server over a published synthetic build, an enterprise key that is never throttled,
 * and SQL over what it serves, for endpoint tests that compute their expectations from the
 * Parquet the service reads.
 */
export async function serveSynthBuild(opts: { addresses: number; seed: number }): Promise<BuildServer> {
  const s = await startTestServer();
  const key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishSynthBuild(s.dataDir, opts);
  const db = await buildSql(s.dataDir);
  return {
    s, key,
    rows: db.q as BuildServer['rows'],
    get: (path) => call(s.base, 'GET', path, { key }),
    stop: async () => {
      db.close();
      await s.stop();
    },
  };
}
