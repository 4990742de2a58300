/**
 * Versioned schema migrations for the PostgreSQL ledger, applied at start-up by every
 * process that opens it: `migrations/NNN_name.sql`, each in its own transaction with its
 * row in `schema_migrations`. A session advisory lock makes replicas starting together take
 * turns, so each migration runs exactly once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';

const DIR = join(import.meta.dirname, 'migrations');
/** Arbitrary, fixed: the advisory lock key for migrations. */
const MIGRATION_LOCK = 7_230_001;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function migrations(): Migration[] {
  return readdirSync(DIR)
    .filter((f) => /^\d{3}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 3)), name: f.slice(4, -4), sql: readFileSync(join(DIR, f), 'utf8') }));
}

/** `migrate` on a connection of the pool, returned to it after. */
export async function migratePool(pool: pg.Pool): Promise<number[]> {
  const c = await pool.connect();
  try {
    return await migrate(c);
  } finally {
    c.release();
  }
}

/** Applies what is missing; returns the versions applied now. */
export async function migrate(client: pg.ClientBase): Promise<number[]> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const m of migrations()) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK');
        throw new Error(`ledger migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
      }
      applied.push(m.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}
