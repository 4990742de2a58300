import { DuckDBInstance, type DuckDBConnection, type DuckDBResultReader, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOKUP_SQL_DIR } from '../../lib/files/lookup-tables-format.ts';
import { VALUATION_SQL_DIR } from '../../lib/valuation/valuation-sql.ts';
import { decodeColumns, rowsFromColumns } from './decode.ts';
import { QUERIES, type Columns, type ParamsOf, type QueryName, type Row, type StatementName, type StatementParams } from './queries.ts';

const SQL_DIR = join(import.meta.dirname, 'sql');
/** The queries the ETL runs too (the lookup tables', lib/files/lookup-sql/; the sale valuation's, lib/valuation/sql/): read from there. */
const SHARED_SQL = new Map([LOOKUP_SQL_DIR, VALUATION_SQL_DIR].flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => [f.slice(0, -4), dir] as const)));
const sqlCache = new Map<string, string>();

/** `service/store/sql/<name>.sql` (or a shared query's file): one statement per file, positional parameters `$1`… */
export function storeSql(name: string): string {
  let text = sqlCache.get(name);
  if (text === undefined) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
    text = readFileSync(join(SHARED_SQL.get(name) ?? SQL_DIR, `${name}.sql`), 'utf8');
    sqlCache.set(name, text);
  }
  return text;
}

/** A materialised result of query `name` decoded by its declaration. */
function decodeResult<N extends QueryName>(name: N, r: DuckDBResultReader): Columns<N> {
  return decodeColumns(name, QUERIES[name], r.columnNames(), r.getColumnsJS()) as Columns<N>;
}

/** The typed reads of a build's named queries: a BuildStore, or a plain connection (`connectionReads`). */
export interface StoreReads {
  rows<N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Row<N>[]>;
  columns<N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Columns<N>>;
}

/**
 * The named queries on a plain connection (a test's or a bench's, outside a BuildStore),
 * decoded as `BuildStore.rows` and `columns` decode them.
 */
export function connectionReads(conn: DuckDBConnection): StoreReads {
  const columns = async <N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Columns<N>> =>
    decodeResult(name, await conn.runAndReadAll(storeSql(name), (params ?? []) as DuckDBValue[]));
  return { columns, rows: async (name, params) => rowsFromColumns(await columns(name, params)) };
}

/** One open DuckDB instance of a store: its connections, each with its prepared statements. */
interface OpenDb {
  db: DuckDBInstance;
  conns: DuckDBConnection[];
  prepared: Map<string, Promise<DuckDBPreparedStatement>>[];
  idle: number[];
  waiting: ((i: number) => void)[];
}

/**
 * Read-only queries over one build's Parquet tables: every `<table>.parquet` in the build
 * folder is a view named `<table>` over the file. None is copied into memory: the store serves
 * the loads of the per-build resources, not requests (ADR 0015), and a national build's
 * `properties` in memory would be 12 GB per worker while it warms (bench/store-open.ts). A
 * few connections, each with its own prepared statements, so concurrent loads do not queue
 * behind one another.
 *
 * The DuckDB instance can be released (`release`) once the per-build resources have been built
 * from it: nothing on the request path queries it (ADR 0015), and what its loads left in
 * DuckDB's buffers is returned. `tables` stays. A read after the release reopens the instance
 * (one open shared by every caller) and the store closes it again `lingerMs` after its last
 * use. Every read runs inside a hold (`use`): the instance is closed only with no hold, so never
 * under a connection in use, nor between the statements of a load that made a derived table.
 */
export class BuildStore implements StoreReads {
  private current: OpenDb | undefined;
  private opening: Promise<OpenDb> | undefined;
  private holds = 0;
  /** Set by `release`: close the instance whenever nothing holds it. */
  private released = false;
  private lingerMs = 0;
  private lingerTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** How many times the instance was opened (1 until a read after a release reopens it). */
  opens = 1;

  private constructor(
    private readonly buildDir: string,
    private readonly connections: number,
    first: OpenDb,
    /** The build's tables (views) by name. */
    readonly tables: ReadonlySet<string>,
  ) {
    this.current = first;
  }

  static async open(buildDir: string, connections = 4): Promise<BuildStore> {
    const { db, tables } = await openDb(buildDir, connections);
    return new BuildStore(buildDir, connections, db, tables);
  }

  /** Whether the DuckDB instance is open now (false once released, until a read reopens it). */
  get isOpen(): boolean {
    return this.current !== undefined;
  }

  /**
   * Runs `sql/<name>.sql` with its declared parameters bound; the rows decoded by the query's
   * declaration (queries.ts, decode.ts): typed values, or an Error naming the query and column.
   * A connection is checked out for the whole bind-and-run: a prepared statement shared by two
   * requests at once would run with the other's parameters.
   */
  async rows<N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Row<N>[]> {
    return rowsFromColumns<Row<N>>(await this.columns(name, params));
  }

  /**
   * Runs `sql/<name>.sql` and returns whole columns, decoded like `rows`: for bulk loads into a
   * per-build in-memory model when a build opens (no object per row).
   */
  columns<N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Columns<N>> {
    return this.withConnection(async (o, i) => {
      let stmt = o.prepared[i]!.get(name);
      if (!stmt) {
        stmt = o.conns[i]!.prepare(storeSql(name));
        o.prepared[i]!.set(name, stmt);
        stmt.catch(() => o.prepared[i]!.delete(name));
      }
      const s = await stmt;
      s.clearBindings();
      ((params ?? []) as DuckDBValue[]).forEach((p, j) => s.bindValue(j + 1, p));
      return decodeResult(name, await s.runAndReadAll());
    });
  }

  /**
   * Runs `sql/<name>.sql`, a statement that changes the build's in-memory database (a derived
   * table made when a per-build resource opens, never on the request path); parameters bound.
   * A derived table lives as long as the instance: the load that makes and reads it holds the
   * store (`use`) throughout.
   */
  exec<N extends StatementName>(name: N, params?: StatementParams<N>): Promise<void> {
    return this.withConnection(async (o, i) => {
      await o.conns[i]!.run(storeSql(name), (params ?? []) as DuckDBValue[]);
    });
  }

  /**
   * Keeps the instance open while `fn` runs (reopening it first if it was released): a load
   * whose statements depend on one another (a derived table made, then read) runs in one hold.
   */
  async use<T>(fn: () => Promise<T>): Promise<T> {
    this.holds++;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    try {
      return await fn();
    } finally {
      this.holds--;
      this.closeIfUnused();
    }
  }

  /**
   * Closes the DuckDB instance now if nothing holds it, else when the last hold ends; a later
   * read reopens it, and the store closes it again `lingerMs` after the last use (so a resource
   * that keeps failing and retrying does not reopen the store on every request).
   */
  release(lingerMs = 30_000): void {
    this.released = true;
    this.lingerMs = lingerMs;
    this.closeIfUnused(true);
  }

  /** Closes the instance for good (now, or when the last hold ends); later reads fail. */
  close(): void {
    this.closed = true;
    this.closeIfUnused(true);
  }

  private async withConnection<T>(fn: (o: OpenDb, i: number) => Promise<T>): Promise<T> {
    return this.use(async () => {
      const o = await this.ready();
      const i = await checkout(o);
      try {
        return await fn(o, i);
      } finally {
        checkin(o, i);
      }
    });
  }

  /** The open instance, reopened (once for every caller waiting) after a release. */
  private ready(): Promise<OpenDb> {
    if (this.closed) return Promise.reject(new Error('the build store is closed'));
    if (this.current) return Promise.resolve(this.current);
    this.opening ??= openDb(this.buildDir, this.connections).then(
      ({ db }) => {
        this.opening = undefined;
        this.current = db;
        this.opens++;
        return db;
      },
      (err: unknown) => {
        this.opening = undefined;
        throw err;
      },
    );
    return this.opening;
  }

  private closeIfUnused(now = false): void {
    if (!this.current || this.holds > 0 || !(this.released || this.closed)) return;
    if (now || this.closed || this.lingerMs === 0) return this.closeDb();
    this.lingerTimer ??= setTimeout(() => {
      this.lingerTimer = undefined;
      if (this.holds === 0) this.closeDb();
    }, this.lingerMs);
    this.lingerTimer.unref();
  }

  /** Only with no hold: every read checks a connection out inside one, so none is in use. */
  private closeDb(): void {
    const o = this.current;
    if (!o) return;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.current = undefined;
    for (const c of o.conns) c.closeSync();
    o.db.closeSync();
  }
}

async function openDb(buildDir: string, connections: number): Promise<{ db: OpenDb; tables: Set<string> }> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const setup = await db.connect();
  const tables = new Set<string>();
  try {
    for (const f of readdirSync(buildDir).filter((f) => f.endsWith('.parquet')).sort()) {
      const table = f.slice(0, -'.parquet'.length);
      if (!/^[a-z_][a-z0-9_]*$/.test(table)) continue;
      const path = join(buildDir, f).replaceAll("'", "''");
      await setup.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet('${path}')`);
      tables.add(table);
    }
  } catch (err) {
    setup.closeSync();
    db.closeSync();
    throw err;
  }
  setup.closeSync();
  const conns: DuckDBConnection[] = [];
  for (let i = 0; i < connections; i++) conns.push(await db.connect());
  return { db: { db, conns, prepared: conns.map(() => new Map()), idle: conns.map((_, i) => i), waiting: [] }, tables };
}

function checkout(o: OpenDb): Promise<number> {
  const i = o.idle.pop();
  if (i !== undefined) return Promise.resolve(i);
  return new Promise((resolve) => o.waiting.push(resolve));
}

function checkin(o: OpenDb, i: number): void {
  const next = o.waiting.shift();
  if (next) next(i);
  else o.idle.push(i);
}
