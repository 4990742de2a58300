import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { planSources, type BuildContext, type Stage } from './context.ts';
import { codeFingerprint } from './code-fingerprint.ts';
import { sha256File } from './discover.ts';
import { queryRows } from './sql.ts';
import { duckdbVersion, fsyncPath, pruneUnused, publishEntry, replaceDurable, sqlString as q, writeDurable } from './stage-cache.ts';

const ETL_DIR = join(import.meta.dirname, '..');

/**
 * The fingerprint of every stage's code and the pipeline's, taken when this module loads.
 * A stage's output depends on the code of every stage before it that feeds it as well as
 * its own; hashing all of it cannot miss one (an edit anywhere recomputes every stage once).
 */
const ETL_CODE = etlCodeFingerprint();

/** `codeFingerprint` of every file under etl/pipeline, etl/sources and etl/stages; `seen` collects the files hashed (for tests). */
export function etlCodeFingerprint(seen?: string[]): string {
  return codeFingerprint(['pipeline', 'sources', 'stages'].flatMap((d) => codeFiles(join(ETL_DIR, d))), seen);
}

/** Every `.ts` and `.sql` file under `dir` (the fingerprint walks the modules they import). */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|sql)$/.test(f)).map((f) => join(dir, f)).sort();
}

/**
 * The source kinds the stage at `index` of `stages` depends on: through each table in its
 * `reads` (or `tables`, some of them), a staging table's kinds, or the kinds of the latest
 * stage before it that writes the table (transitively: the reads that stage `derives` the
 * table from, else all its reads). Undefined when some read is neither (a file, the sources
 * folder): such a stage is never reused.
 */
export function sourceKindsOf(stages: readonly Stage[], index: number, tables: readonly string[] = stages[index]!.reads): Set<string> | undefined {
  const kinds = new Set<string>();
  for (const table of tables) {
    const staged = planSources(stages).filter((s) => s.table === table);
    if (staged.length > 0) {
      for (const s of staged) kinds.add(s.kind);
      continue;
    }
    const writer = stages.slice(0, index).findLastIndex((s) => s.writes.includes(table));
    const upstream = writer < 0 ? undefined : sourceKindsOf(stages, writer, stages[writer]!.derives?.[table]);
    if (!upstream) return undefined;
    for (const k of upstream) kinds.add(k);
  }
  return kinds;
}

/**
 * Runs the stage at `index` of `stages`, or, when it is reusable and its inputs are unchanged
 * since a cached run, loads its output instead; a stage run with a key stores its output.
 */
export async function runStage(
  ctx: BuildContext, stages: readonly Stage[], index: number, outputs?: StageOutputCache, scope: TableScope = {},
): Promise<void> {
  const stage = stages[index]!;
  const key = outputs?.key(stages, index);
  if (key && await outputs!.load(ctx, stage, key)) return;
  // The staging tables it reads, if their cached rows were held back (a reused stage reads none).
  await ctx.staged?.materialize(ctx.conn, stage.reads);
  const before = key ? await outputs!.snapshot(ctx, scope) : undefined;
  await stage.run(ctx);
  if (key && before) await outputs!.store(ctx, stage, key, before);
}

/**
 * The tables a stage's snapshot sees while stages run side by side (run-stages.ts): a stage
 * run beside the main line sees only its own (`only`); a stage of the main line, none of
 * those running beside it (`skip`).
 */
export interface TableScope { only?: RegExp; skip?: readonly RegExp[] }

const inScope = (scope: TableScope) => (qualified: string) => {
  const name = qualified.slice(qualified.lastIndexOf('.') + 1);
  return (!scope.only || scope.only.test(name)) && !(scope.skip ?? []).some((re) => re.test(name));
};

interface TableEntry { name: string; rows: number; columns: string[] }
interface Entry {
  key: string;
  stage: string;
  tables: TableEntry[];
  artifacts: Record<string, { file: string; description: string; bytes: number; sha256: string }>;
  quality: Record<string, unknown>;
  matchRates: Record<string, number>;
}

/**
 * What a published table's content key is computed from besides the build's constants
 * (write-tables.ts): the columns it was taken over, their types, the row count and the
 * order-free hash of the rows. An entry's tables never change once stored, and no stage
 * changes a table another stage made, so these hold for every build that loads the entry.
 */
export interface TableContentHash { columns: string; types: string[]; rows: number; hash: string }

/** Content hashes computed once and kept with the stage output they are of (write-tables.ts asks and tells). */
export interface ContentHashMemo {
  contentHash(table: string): TableContentHash | undefined;
  rememberContentHash(table: string, h: TableContentHash): void;
}

/** Beside an entry's tables: the content hashes write-tables took of them (absent until a build wrote them). */
const CONTENT_HASHES = 'content-hashes.json';

export interface StageOutputStats {
  read: boolean;
  /** Stages whose output came from the cache, and those computed (and stored). */
  reused: string[];
  computed: string[];
  /** Computed stages whose output could not be stored (a reason each). */
  not_stored: Record<string, string>;
  corrupt: number;
  pruned: number;
  ms: { load: number; store: number };
}

/** What the build context holds that a stage may change, to see what it changed. */
export interface Snapshot { scope: TableScope; tables: Set<string>; artifacts: Set<string>; quals: Map<string, string>; rates: Map<string, string>; sources: string }

/**
 * Output of stages reused from an earlier build (`DATA_DIR/cache/stages/<key>/`). A stage
 * that declares `reuse` and whose inputs are all unchanged loads the tables it created (kept
 * in a DuckDB file: exact types and row order), copies the files it wrote (search-index.bin)
 * and gets back what it put in the manifest, instead of running. The key is the stage's name, every source file that feeds it (each
 * kind's files in order: path, SHA-256, reader version; through its `reads`, transitively:
 * `sourceKindsOf`), the code of every stage and of the pipeline, DuckDB's version, and the
 * build's day when the stage declares it reads it. Entries are written under a temp name and
 * renamed; one that fails any check on load (its key, each table's columns and row count,
 * each file's size and SHA-256) is removed, counted and the stage run. Entries no build of
 * the last 3 used are removed, as in the staging cache.
 */
export class StageOutputCache implements ContentHashMemo {
  readonly stats: StageOutputStats;
  private readonly used = new Set<string>();
  /** The entry each table of this build was loaded from or stored into. */
  private readonly entryOf = new Map<string, string>();
  /** Content hashes known for those tables (read with their entries), and those learnt in this build. */
  private readonly hashes = new Map<string, TableContentHash>();
  private readonly learnt = new Set<string>();
  /** Each keyed stage's place in the build's order. */
  private readonly position = new Map<string, number>();

  private constructor(
    private readonly ctx: BuildContext, private readonly dir: string, private readonly code: string, private readonly duckdb: string, read: boolean,
  ) {
    this.stats = { read, reused: [], computed: [], not_stored: {}, corrupt: 0, pruned: 0, ms: { load: 0, store: 0 } };
  }

  /** `code`: the code the entries depend on (tests give another to see it change the keys). */
  static async open(ctx: BuildContext, code = ETL_CODE): Promise<StageOutputCache | undefined> {
    if (!ctx.cache) return undefined;
    const dir = join(ctx.cache.dir, 'stages');
    await mkdir(dir, { recursive: true });
    return new StageOutputCache(ctx, dir, code, await duckdbVersion(ctx.conn), ctx.cache.read);
  }

  /** The stage's key, or undefined when it is not reusable (no `reuse`, or an input that is not a table). */
  key(stages: readonly Stage[], index: number): string | undefined {
    const stage = stages[index]!;
    if (!stage.reuse) return undefined;
    this.position.set(stage.name, index);
    const kinds = sourceKindsOf(stages, index);
    if (!kinds) return undefined;
    const files = [...kinds].sort().map((kind) => ({
      kind,
      version: planSources(stages).find((s) => s.kind === kind)?.version,
      files: this.ctx.sources.filter((s) => s.name === kind).map((s) => [s.path, s.sha256]),
    }));
    const today = stage.reuse.today ? this.ctx.today : null;
    return createHash('sha256').update(JSON.stringify({
      format: 1, stage: stage.name, code: this.code, duckdb: this.duckdb, sources: this.ctx.sourcesDir, files, today,
    })).digest('hex');
  }

  /**
   * Loads the stage's output under `key` into `ctx` (the one it would run with) when there is
   * a good entry; false when it must run.
   */
  async load(ctx: BuildContext, stage: Stage, key: string): Promise<boolean> {
    this.used.add(key);
    const dir = join(this.dir, key);
    if (!this.stats.read || !(await stat(dir).catch(() => undefined))) return false;
    const t0 = performance.now();
    const created: string[] = [];
    const inDb = attachName('in', stage);
    try {
      const entry = JSON.parse(await readFile(join(dir, 'entry.json'), 'utf8')) as Entry;
      if (entry.key !== key || entry.stage !== stage.name) throw new Error(`entry holds key ${entry.key} of ${entry.stage}`);
      await ctx.conn.run(`ATTACH ${q(join(dir, 'tables.duckdb'))} AS ${inDb} (READ_ONLY)`);
      try {
        for (const t of entry.tables) {
          // One statement per table: a block that fails its checksum leaves no table behind.
          await ctx.conn.run(`CREATE TABLE ${ident(t.name)} AS SELECT * FROM ${inDb}.${ident(t.name)}`);
          created.push(t.name);
          const got = await columnsOf(ctx, t.name);
          if (got.join() !== t.columns.join()) throw new Error(`${t.name}: columns ${got.join()} are not ${t.columns.join()}`);
          const [n] = await queryRows(ctx.conn, `SELECT count(*)::BIGINT AS n FROM ${ident(t.name)}`);
          if (Number(n?.n) !== t.rows) throw new Error(`${t.name}: ${String(n?.n)} rows, entry says ${t.rows}`);
        }
      } finally {
        await ctx.conn.run(`DETACH ${inDb}`);
      }
      for (const a of Object.values(entry.artifacts)) {
        const from = join(dir, 'files', a.file);
        if ((await stat(from)).size !== a.bytes || (await sha256File(from)) !== a.sha256) throw new Error(`${a.file}: not the file stored`);
        await copyFile(from, join(ctx.buildDir, a.file));
      }
      for (const [name, a] of Object.entries(entry.artifacts)) ctx.artifacts[name] = { file: a.file, description: a.description };
      Object.assign(ctx.quality, entry.quality);
      Object.assign(ctx.matchRates, entry.matchRates);
      // Known only once the entry loaded whole: a stage run instead may make other rows.
      const hashes = await readContentHashes(dir);
      for (const t of entry.tables) {
        this.entryOf.set(t.name, key);
        const h = hashes[t.name];
        if (h?.rows === t.rows) this.hashes.set(t.name, h);
      }
      this.stats.reused.push(stage.name);
      return true;
    } catch (e) {
      this.stats.corrupt++;
      ctx.log.warn({ stage: stage.name, entry: key, err: (e as Error).message }, 'unreadable stage output cache entry; running the stage');
      for (const t of created) await ctx.conn.run(`DROP TABLE IF EXISTS ${ident(t)}`);
      await rm(dir, { recursive: true, force: true });
      return false;
    } finally {
      this.stats.ms.load += Math.round(performance.now() - t0);
    }
  }

  /** What `ctx` holds before a stage runs (of the tables `scope` lets it see), for `store` to see what the stage made. */
  async snapshot(ctx: BuildContext, scope: TableScope = {}): Promise<Snapshot> {
    return {
      scope,
      tables: new Set((await objectNames(ctx)).filter(inScope(scope))),
      quals: new Map(Object.entries(ctx.quality).map(([k, v]) => [k, JSON.stringify(v)])),
      rates: new Map(Object.entries(ctx.matchRates).map(([k, v]) => [k, JSON.stringify(v)])),
      artifacts: new Set(Object.keys(ctx.artifacts)),
      sources: JSON.stringify(ctx.sources),
    };
  }

  /**
   * Stores what the stage made since `before`: every table it created (its `writes` and its
   * working tables, which a later stage may read) into one DuckDB file, the files it added
   * to the build, and what it put in the manifest. A stage seen to do anything else (drop a
   * table, make a view, change the source reports) is not stored, so it runs again next
   * time: reuse must give the same build.
   */
  async store(ctx: BuildContext, stage: Stage, key: string, before: Snapshot): Promise<void> {
    const t0 = performance.now();
    const outDb = attachName('out', stage);
    const after = (await objectNames(ctx)).filter(inScope(before.scope));
    const [db] = await queryRows(ctx.conn, 'SELECT current_database() AS d');
    const main = `${String(db?.d)}.main.`;
    const madeQualified = after.filter((t) => !before.tables.has(t));
    const gone = [...before.tables].filter((t) => !after.includes(t));
    const refuse = (why: string) => {
      this.stats.not_stored[stage.name] = why;
      ctx.log.warn({ stage: stage.name, why }, 'stage output not cached');
    };
    this.stats.computed.push(stage.name);
    if (gone.length > 0) return refuse(`dropped ${gone.join(', ')}`);
    const other = madeQualified.filter((t) => !t.startsWith(main));
    if (other.length > 0) return refuse(`made ${other.join(', ')} outside the main schema (a view or temp table)`);
    const made = madeQualified.map((t) => t.slice(main.length));
    if (JSON.stringify(ctx.sources) !== before.sources) return refuse('changed the source reports');
    const tmp = join(this.dir, `${key}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(join(tmp, 'files'), { recursive: true });
      const tables: TableEntry[] = [];
      const file = join(tmp, 'tables.duckdb');
      // A DuckDB file, not Parquet: it gives every type back as it was (a sum's HUGEINT
      // comes back from Parquet a DOUBLE), in the same row order, and checksums its blocks.
      await ctx.conn.run(`ATTACH ${q(file)} AS ${outDb}`);
      try {
        for (const name of made) {
          await ctx.conn.run(`CREATE TABLE ${outDb}.${ident(name)} AS SELECT * FROM ${main}${ident(name)}`);
          const [n] = await queryRows(ctx.conn, `SELECT count(*)::BIGINT AS n FROM ${ident(name)}`);
          tables.push({ name, rows: Number(n?.n), columns: await columnsOf(ctx, name) });
        }
      } finally {
        await ctx.conn.run(`DETACH ${outDb}`);
      }
      await fsyncPath(file);
      const artifacts: Entry['artifacts'] = {};
      for (const [name, a] of Object.entries(ctx.artifacts)) {
        if (before.artifacts.has(name)) continue;
        const to = join(tmp, 'files', a.file);
        await copyFile(join(ctx.buildDir, a.file), to);
        await fsyncPath(to);
        artifacts[name] = { ...a, bytes: (await stat(to)).size, sha256: await sha256File(to) };
      }
      const changed = (now: Record<string, unknown>, was: Map<string, string>) =>
        Object.fromEntries(Object.entries(now).filter(([k, v]) => was.get(k) !== JSON.stringify(v)));
      const entry: Entry = {
        key, stage: stage.name, tables, artifacts,
        quality: changed(ctx.quality, before.quals), matchRates: changed(ctx.matchRates, before.rates) as Record<string, number>,
      };
      await writeDurable(join(tmp, 'entry.json'), JSON.stringify(entry));
      await publishEntry(tmp, join(this.dir, key));
      for (const t of tables) this.entryOf.set(t.name, key);
    } catch (e) {
      refuse(`could not write: ${(e as Error).message}`);
    } finally {
      await rm(tmp, { recursive: true, force: true });
      this.stats.ms.store += Math.round(performance.now() - t0);
    }
  }

  contentHash(table: string): TableContentHash | undefined {
    return this.hashes.get(table);
  }

  /** Keeps `h` for `table` if the table is an entry's (replacing one over other columns), to be written beside it by `saveContentHashes`. */
  rememberContentHash(table: string, h: TableContentHash): void {
    if (!this.entryOf.has(table) || this.hashes.get(table)?.columns === h.columns) return;
    this.hashes.set(table, h);
    this.learnt.add(table);
  }

  /**
   * Writes the hashes learnt in this build beside their entries (merged with those there,
   * replaced atomically). A memo only: a failure is logged, and the next build hashes again.
   */
  async saveContentHashes(): Promise<void> {
    const byEntry = new Map<string, string[]>();
    for (const t of this.learnt) byEntry.set(this.entryOf.get(t)!, [...(byEntry.get(this.entryOf.get(t)!) ?? []), t]);
    for (const [key, tables] of byEntry) {
      const dir = join(this.dir, key);
      try {
        const all = { ...(await readContentHashes(dir)), ...Object.fromEntries(tables.map((t) => [t, this.hashes.get(t)!])) };
        await replaceDurable(join(dir, CONTENT_HASHES), JSON.stringify(all));
      } catch (e) {
        this.ctx.log.warn({ entry: key, err: (e as Error).message }, 'could not keep the content hashes beside a stage output cache entry');
      }
    }
    this.learnt.clear();
  }

  /** Records this build's entries and removes those no recent build used. */
  async finish(): Promise<StageOutputStats> {
    this.stats.pruned = (await pruneUnused(this.dir, this.used)).length;
    // In the build's order, though a stage beside the main line may finish later than those after it.
    const byPosition = (a: string, b: string) => (this.position.get(a) ?? 0) - (this.position.get(b) ?? 0);
    this.stats.reused.sort(byPosition);
    this.stats.computed.sort(byPosition);
    return this.stats;
  }
}

/**
 * The name a stage's cache file is attached under while it is read or written: the
 * database's, so two stages running side by side need names of their own.
 */
const attachName = (dir: 'in' | 'out', stage: Stage) => `stage_cache_${dir}_${stage.name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}`;

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain table name: ${name}`);
  return name;
};

/**
 * Every table and view, qualified (`database.schema.name`, a view's with `view ` in front):
 * only tables of the main schema are stored, so a stage that makes a view or a temp table is
 * seen and refused.
 */
async function objectNames(ctx: BuildContext): Promise<string[]> {
  const rows = await queryRows(ctx.conn, `SELECT database_name || '.' || schema_name || '.' || table_name AS n FROM duckdb_tables()
    UNION ALL SELECT 'view ' || database_name || '.' || schema_name || '.' || view_name FROM duckdb_views() WHERE NOT internal`);
  return rows.map((r) => String(r.n));
}

/** An entry's content hashes: none when the file is absent or is not what `saveContentHashes` writes (then the tables are hashed again). */
async function readContentHashes(dir: string): Promise<Record<string, TableContentHash>> {
  try {
    const got = JSON.parse(await readFile(join(dir, CONTENT_HASHES), 'utf8')) as unknown;
    if (typeof got !== 'object' || got === null) return {};
    return Object.fromEntries(Object.entries(got).filter(([, h]) => isContentHash(h)));
  } catch {
    return {};
  }
}

function isContentHash(h: unknown): h is TableContentHash {
  const o = h as TableContentHash;
  return typeof o === 'object' && o !== null && typeof o.columns === 'string' && Array.isArray(o.types) && o.types.every((t) => typeof t === 'string')
    && Number.isInteger(o.rows) && o.rows >= 0 && typeof o.hash === 'string' && /^-?\d+$/.test(o.hash);
}

async function columnsOf(ctx: BuildContext, table: string): Promise<string[]> {
  return (await queryRows(ctx.conn, `DESCRIBE ${ident(table)}`)).map((c) => `${String(c.column_name)} ${String(c.column_type)}`);
}
