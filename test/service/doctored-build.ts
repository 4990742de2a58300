import { DuckDBInstance } from '@duckdb/node-api';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadLookupTables, type LookupTables } from '../../service/lookups/tables.ts';
import { BuildStore } from '../../service/store/store.ts';
import { publishSynthBuild } from '../support/published.ts';

/**
 * A real published synthetic build (the ETL over a synthetic region), copied and with some of
 * its tables rewritten by SQL: for what a build the ETL would never publish reads as (a NULL
 * the marts rule out, say). `edits` maps a table to a SELECT over a view of that name on the
 * original Parquet; the copy's file is that SELECT's result. `q` is SQL over the copy's tables.
 */
export async function doctoredBuild(
  into: string, edits: Record<string, string>, opts: { addresses?: number; seed?: number } = {},
): Promise<{ dir: string; manifest: Record<string, unknown>; q: (sql: string) => Promise<Record<string, unknown>[]>; close: () => void }> {
  const built = await publishSynthBuild(join(into, 'published'), opts);
  const original = join(into, 'published', 'builds', built.build_id);
  const dir = join(into, 'doctored');
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(original)) if (!(f.slice(0, -'.parquet'.length) in edits)) cpSync(join(original, f), join(dir, f), { recursive: true });
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const path = (d: string, t: string) => `'${join(d, `${t}.parquet`).replaceAll("'", "''")}'`;
  for (const [t, select] of Object.entries(edits)) {
    await conn.run(`CREATE OR REPLACE VIEW ${t} AS SELECT * FROM read_parquet(${path(original, t)})`);
    await conn.run(`COPY (${select}) TO ${path(dir, t)} (FORMAT parquet)`);
  }
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.parquet'))) {
    await conn.run(`CREATE OR REPLACE VIEW ${f.slice(0, -8)} AS SELECT * FROM read_parquet(${path(dir, f.slice(0, -8))})`);
  }
  return {
    dir,
    manifest: built.manifest as unknown as Record<string, unknown>,
    q: async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[],
    close: () => {
      conn.closeSync();
      db.closeSync();
    },
  };
}

/** A doctored build's lookup tables, loaded as the service loads them, with SQL over its copy. */
export async function doctoredLookupTables(
  into: string, edits: Record<string, string>,
): Promise<{ t: LookupTables; q: (sql: string) => Promise<Record<string, unknown>[]>; close: () => void }> {
  const b = await doctoredBuild(into, edits);
  const store = await BuildStore.open(b.dir);
  const t = await loadLookupTables(store, { id: 'doctored', dir: b.dir, manifest: b.manifest });
  return { t, q: b.q, close: () => { b.close(); store.close(); } };
}
