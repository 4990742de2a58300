/**
 * The PostgreSQL side shared by the ledger and the rate limiter: a connection pool with
 * timeouts (a paused or partitioned server must fail a request, not hang it), the named
 * statements of `sql/<name>.sql`, transactions, and which errors mean "PostgreSQL cannot
 * be reached now" (503, retried) as opposed to a bug (500).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const SQL_DIR = join(import.meta.dirname, 'sql');
const SQL: Record<string, string> = Object.fromEntries(
  readdirSync(SQL_DIR)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => [f.slice(0, -4), readFileSync(join(SQL_DIR, f), 'utf8').trim()]),
);

export type Queryable = Pick<pg.ClientBase, 'query'>;

/** Runs `sql/<name>.sql` with positional parameters. */
export async function q<R extends pg.QueryResultRow = pg.QueryResultRow>(db: Queryable, name: string, params: unknown[] = []): Promise<R[]> {
  const text = SQL[name];
  if (text === undefined) throw new Error(`no statement sql/${name}.sql`);
  return (await db.query<R>({ name, text, values: params })).rows;
}

export interface PoolOptions {
  url: string;
  /** Connections per process (default 16). */
  max?: number;
  /** A query, a connection attempt or a wait for a free connection that takes longer fails as unavailable (default 5,000 ms). */
  timeoutMs?: number;
}

export function createPool(opts: PoolOptions): pg.Pool {
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.max ?? 16,
    connectionTimeoutMillis: timeoutMs,
    // Client side: a stopped server never answers, and nothing server side can notice.
    query_timeout: timeoutMs,
    // Server side: a statement or an abandoned transaction never holds row locks for long.
    statement_timeout: timeoutMs,
    idle_in_transaction_session_timeout: 10 * timeoutMs,
    keepAlive: true,
    application_name: `pi-api:${process.pid}`,
  });
  // A connection that breaks (server restart) must not crash the process: idle ones the pool
  // drops (its 'error'); one checked out between two queries would emit 'error' with nobody
  // listening, an uncaught exception, so every client gets a listener of its own. Its next
  // query then fails ("not queryable"), counts as unavailable, and the client is destroyed.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58', '40']);

/** True for errors that say PostgreSQL cannot serve now (down, restarting, paused, overloaded). */
export function isUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (e instanceof pg.DatabaseError) return typeof code === 'string' && UNAVAILABLE_CLASSES.has(code.slice(0, 2));
  if (typeof code === 'string' && /^E[A-Z]+/.test(code)) return true; // ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE …
  return /timeout|terminated|Connection|connect/i.test(e.message);
}

/**
 * Runs `fn` in one transaction on one connection. A connection that failed is destroyed
 * rather than returned to the pool (it may be mid-protocol after a timeout).
 */
export async function transaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    if (isUnavailable(e)) broken = e as Error;
    else await c.query('ROLLBACK').catch((re: Error) => void (broken = re));
    throw e;
  } finally {
    c.release(broken ?? false);
  }
}

/** One statement outside a transaction, with the same connection hygiene. */
export async function once<R extends pg.QueryResultRow = pg.QueryResultRow>(pool: pg.Pool, name: string, params: unknown[] = []): Promise<R[]> {
  const c = await pool.connect();
  let broken: Error | undefined;
  try {
    return await q<R>(c, name, params);
  } catch (e) {
    if (isUnavailable(e)) broken = e as Error;
    throw e;
  } finally {
    c.release(broken ?? false);
  }
}
