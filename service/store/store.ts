import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
export class BuildStore {
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
   * Runs `sql/<name>.sql` with bound positional parameters; rows as JSON-safe objects
   * (BIGINT as string). A connection is checked out for the whole bind-and-run: a prepared
   * statement shared by two requests at once would run with the other's parameters.
   */
  async query(name: string, params: DuckDBValue[] = []): Promise<Record<string, unknown>[]> {
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
      params.forEach((p, j) => s.bindValue(j + 1, p));
      return (await s.runAndReadAll()).getRowObjectsJson() as Record<string, unknown>[];
    } finally {
      this.release(i);
    }
  }

  /**
   * Runs `sql/<name>.sql` and returns whole columns: for bulk loads into a per-build in-memory
   * model when a build opens, never on the request path. `js`: JS values (BIGINT as bigint);
   * `json`: the JSON form `query` gives (BIGINT as string), for rows later served as `query`
   * would have served them.
   */
  async queryColumns(name: string, params: DuckDBValue[] = [], form: 'js' | 'json' = 'js'): Promise<Record<string, unknown[]>> {
    const i = await this.checkout();
    try {
      const r = await this.conns[i]!.runAndReadAll(storeSql(name), params);
      return (form === 'json' ? r.getColumnsObjectJson() : r.getColumnsObjectJS()) as Record<string, unknown[]>;
    } finally {
      this.release(i);
    }
  }

  /**
   * Runs `sql/<name>.sql`, a statement that changes the build's in-memory database (a derived
   * table made when a per-build resource opens, never on the request path); parameters bound.
   */
  async exec(name: string, params: DuckDBValue[] = []): Promise<void> {
    const i = await this.checkout();
    try {
      await this.conns[i]!.run(storeSql(name), params);
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
