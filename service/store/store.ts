import { DuckDBInstance, type DuckDBConnection, type DuckDBResultReader, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeColumns, rowsFromColumns } from './decode.ts';
import { QUERIES, type Columns, type ParamsOf, type QueryName, type Row, type StatementName, type StatementParams } from './queries.ts';

const SQL_DIR = join(import.meta.dirname, 'sql');
const sqlCache = new Map<string, string>();

/** `service/store/sql/<name>.sql`: one statement per file, positional parameters `$1`… */
export function storeSql(name: string): string {
  let text = sqlCache.get(name);
  if (text === undefined) {
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad SQL file name: ${name}`);
    text = readFileSync(join(SQL_DIR, `${name}.sql`), 'utf8');
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

/**
 * Tables loaded into memory with an index on their key when the store opens (off the
 * request path): a point lookup on a Parquet view decompresses a whole row group
 * (hundreds of ms under load), on the in-memory table it is an index probe.
 */
export const IN_MEMORY: Readonly<Record<string, string>> = { properties: 'uprn', postcodes: 'postcode' };

/**
 * Read-only queries over one build's Parquet tables: every `<table>.parquet` in the build
 * folder is a table named `<table>` (in memory with an index for IN_MEMORY tables, else a
 * view over the file). A few connections, each with its own prepared statements, so
 * concurrent requests do not queue behind one another.
 */
export class BuildStore implements StoreReads {
  private readonly idle: number[];
  private readonly waiting: ((i: number) => void)[] = [];
  private readonly prepared: Map<string, Promise<DuckDBPreparedStatement>>[];

  private constructor(
    private readonly db: DuckDBInstance,
    private readonly conns: DuckDBConnection[],
    /** The build's tables (views) by name. */
    readonly tables: ReadonlySet<string>,
  ) {
    this.prepared = conns.map(() => new Map());
    this.idle = conns.map((_, i) => i);
  }

  static async open(buildDir: string, connections = 4): Promise<BuildStore> {
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const setup = await db.connect();
    const tables = new Set<string>();
    for (const f of readdirSync(buildDir).filter((f) => f.endsWith('.parquet')).sort()) {
      const table = f.slice(0, -'.parquet'.length);
      if (!/^[a-z_][a-z0-9_]*$/.test(table)) continue;
      const path = join(buildDir, f).replaceAll("'", "''");
      const key = IN_MEMORY[table];
      if (key) {
        await setup.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet('${path}')`);
        await setup.run(`CREATE INDEX ${table}_${key} ON ${table} (${key})`);
      } else {
        await setup.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet('${path}')`);
      }
      tables.add(table);
    }
    setup.closeSync();
    const conns: DuckDBConnection[] = [];
    for (let i = 0; i < connections; i++) conns.push(await db.connect());
    return new BuildStore(db, conns, tables);
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
  async columns<N extends QueryName>(name: N, params?: ParamsOf<N>): Promise<Columns<N>> {
    const i = await this.checkout();
    try {
      let stmt = this.prepared[i]!.get(name);
      if (!stmt) {
        stmt = this.conns[i]!.prepare(storeSql(name));
        this.prepared[i]!.set(name, stmt);
        stmt.catch(() => this.prepared[i]!.delete(name));
      }
      const s = await stmt;
      s.clearBindings();
      ((params ?? []) as DuckDBValue[]).forEach((p, j) => s.bindValue(j + 1, p));
      return decodeResult(name, await s.runAndReadAll());
    } finally {
      this.release(i);
    }
  }

  /**
   * Runs `sql/<name>.sql`, a statement that changes the build's in-memory database (a derived
   * table made when a per-build resource opens, never on the request path); parameters bound.
   */
  async exec<N extends StatementName>(name: N, params?: StatementParams<N>): Promise<void> {
    const i = await this.checkout();
    try {
      await this.conns[i]!.run(storeSql(name), (params ?? []) as DuckDBValue[]);
    } finally {
      this.release(i);
    }
  }

  private checkout(): Promise<number> {
    const i = this.idle.pop();
    if (i !== undefined) return Promise.resolve(i);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(i: number): void {
    const next = this.waiting.shift();
    if (next) next(i);
    else this.idle.push(i);
  }

  close(): void {
    for (const c of this.conns) c.closeSync();
    this.db.closeSync();
  }
}
