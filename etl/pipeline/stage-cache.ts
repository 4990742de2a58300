import type { DuckDBConnection } from '@duckdb/node-api';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnySource } from '../sources/source.ts';
import type { SourceReport } from './context.ts';
import { sha256File, statPathOf, type SourceFile } from './discover.ts';
import { countRows, PARQUET_COMPRESSION, queryRows } from './sql.ts';

type Progress = (event: { file: string; rows: number }) => void;
/** The part of the build's logger the cache uses (context.ts imports staging, which imports this). */
type WarnLog = { warn(obj: object, msg?: string): void };
/** Stages one file the ordinary way (stage-sources.ts `stageFile`). */
export type StageFileFn = (
  conn: DuckDBConnection, spec: AnySource, f: SourceFile, fileNo: number, today: string, progress?: Progress,
  onDates?: (dates: string[]) => void,
) => Promise<SourceReport>;

/** What a cache entry's `entry.json` holds beside its `rows.parquet`. */
interface Entry {
  key: string;
  kind: string;
  rows_read: number;
  rows_rejected: number;
  rejected_by_reason: Record<string, number>;
  as_of: string | null;
  /** The day it was staged; `as_of` is bounded by it. */
  today: string;
  /** Every distinct date the spec read from the file (today or not), so a later build's as-of is exact; null when not observed. */
  dates: string[] | null;
}

/** A hit whose rows wait for a stage that reads its table (lazy loading). */
interface PendingLoad {
  spec: AnySource;
  file: SourceFile;
  fileNo: number;
  today: string;
  key: string;
  /** Stages the file from source if the entry fails to load then. */
  stageFile: StageFileFn;
}

/** Builds whose used entries are kept; an entry none of them used is removed. */
export const KEEP_BUILDS = 3;
const RECENT = 'recent.json';
/** The SHA-256 of each source file the last build hashed, with the file's stat then (`hashOf`). */
const HASHES = 'file-hashes.json';
/**
 * A file changed less than this before it was hashed is hashed again next time: a write in the
 * same tick of the file system's clock as the hash could leave its stat as it was.
 */
const SETTLED_NS = 2_000_000_000n;

/** A file's SHA-256 and what identified its content when it was hashed (bigint stat fields as text). */
interface KnownHash { dev: string; ino: string; size: string; mtimeNs: string; ctimeNs: string; hashedAtNs: string; sha256: string }

/** A string as a SQL literal (for paths in COPY and read_parquet, which take no parameters). */
export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;
const q = sqlString;

/** DuckDB's version: part of every cache key (a new engine may read or write rows otherwise). */
export async function duckdbVersion(conn: DuckDBConnection): Promise<string> {
  const [v] = await queryRows(conn, 'SELECT version() AS v');
  return String(v?.v);
}
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Writes a file and fsyncs it, so a rename that follows publishes whole bytes. */
export async function writeDurable(path: string, text: string): Promise<void> {
  const fh = await open(path, 'w');
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Replaces a file atomically: written under a temp name beside it, fsynced, then renamed over it. */
export async function replaceDurable(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeDurable(tmp, text);
  await rename(tmp, path);
}

/**
 * Records the entries this build used and removes every entry (and leftover temp folder)
 * that none of the last `KEEP_BUILDS` builds used. The list is replaced atomically.
 */
export async function pruneUnused(dir: string, used: ReadonlySet<string>): Promise<string[]> {
  let recent: string[][] = [];
  try {
    recent = JSON.parse(await readFile(join(dir, RECENT), 'utf8')) as string[][];
    if (!Array.isArray(recent)) recent = [];
  } catch {
    recent = []; // missing or unreadable: only this build's entries count as recent
  }
  recent = [...recent, [...used]].slice(-KEEP_BUILDS);
  await replaceDurable(join(dir, RECENT), JSON.stringify(recent));
  const keep = new Set(recent.flat());
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    if (name === RECENT || name === HASHES || keep.has(name)) continue;
    await rm(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/** fsyncs a written file or folder, so an entry renamed into place holds what was written. */
export async function fsyncPath(path: string): Promise<void> {
  const fh = await open(path, 'r');
  await fh.sync().finally(() => fh.close());
}

/** Moves a fully written temp folder to its final name (replacing an older copy). */
export async function publishEntry(tmp: string, final: string): Promise<void> {
  await fsyncPath(tmp);
  await rm(final, { recursive: true, force: true });
  await rename(tmp, final);
}

export interface StageCacheStats {
  /** False under `--no-cache`: every file re-staged (and its entry rewritten). */
  read: boolean;
  hits: number;
  misses: number;
  /** Entries that failed to load and were re-staged. */
  corrupt: number;
  /** Hits whose rows no stage of this build read, so never loaded (lazy loading). */
  not_loaded: number;
  /** Files whose SHA-256 was the last build's, their stat unchanged (`hashOf`); the rest were read and hashed. */
  hashes_reused: number;
  pruned: number;
  /** Time spent hashing files, loading entries and writing them (the cache's own cost). */
  ms: { hash: number; load: number; store: number };
}

/**
 * The staging cache under `DATA_DIR/cache/staging/`: one folder per staged file, named by
 * the key of (kind, the file's path and SHA-256, the spec's reader version, the staging
 * code's fingerprint, DuckDB's version), holding the file's staged rows as Parquet (without
 * `_file_no`, which comes from the current file order) and its report. A folder is written
 * under a temp name and renamed when complete, so a killed build never leaves an entry a
 * later build trusts; an entry that fails to load is removed and the file re-staged.
 * The dates a file speaks for come from `stageFile`'s `onDates` (both staging paths report
 * them); a `stageFile` that does not report them leaves `dates` null, and such an entry is
 * reused only on the day it was written.
 */
export class StageCache {
  readonly stats: StageCacheStats;
  private readonly used = new Set<string>();
  /** Lazy: hits not yet inserted, per staging table in file order. */
  private readonly pending = new Map<string, PendingLoad[]>();
  /** Tables whose held-back rows are being inserted. */
  private readonly loading = new Map<string, Promise<void>>();
  /** The hashes this build used, written for the next at `finish`. */
  private readonly hashes = new Map<string, KnownHash>();

  private constructor(
    private readonly dir: string,
    private readonly code: string,
    private readonly duckdb: string,
    private readonly log: WarnLog,
    read: boolean,
    private readonly lazy: boolean,
    private readonly known: ReadonlyMap<string, KnownHash>,
  ) {
    this.stats = { read, hits: 0, misses: 0, corrupt: 0, not_loaded: 0, hashes_reused: 0, pruned: 0, ms: { hash: 0, load: 0, store: 0 } };
  }

  /**
   * `code` is the staging code's fingerprint (`codeFingerprint`). `lazy`: a hit's rows are
   * inserted only when some stage reads its table (`materialize`), so a refresh does not
   * load the tables only reused stages read (the address base, the Airbnb calendar).
   */
  static async open(conn: DuckDBConnection, opts: { dir: string; read: boolean; code: string; log: WarnLog; lazy?: boolean }): Promise<StageCache> {
    await mkdir(opts.dir, { recursive: true });
    // Under --no-cache every file is hashed again, as every file is staged again.
    const known = opts.read ? await readKnownHashes(join(opts.dir, HASHES)) : new Map<string, KnownHash>();
    return new StageCache(opts.dir, opts.code, await duckdbVersion(conn), opts.log, opts.read, opts.lazy ?? false, known);
  }

  /**
   * The path is part of the key because some readers take data from it (a police.uk file's
   * release is its folder's name): the same bytes at another path may stage other rows.
   */
  key(spec: AnySource, path: string, sha: string): string {
    return sha256(JSON.stringify({ format: 1, kind: spec.kind, table: spec.table, path, sha, version: spec.version, code: this.code, duckdb: this.duckdb }));
  }

  /** Loads the file's rows from its entry when there is a good one; else stages it and stores the entry. */
  async stage(
    conn: DuckDBConnection, spec: AnySource, f: SourceFile, fileNo: number, today: string,
    progress: Progress | undefined, stageFile: StageFileFn,
  ): Promise<SourceReport> {
    const t0 = performance.now();
    const sha = await this.hashOf(f.path);
    const t1 = performance.now();
    this.stats.ms.hash += Math.round(t1 - t0);
    const key = this.key(spec, f.path, sha);
    this.used.add(key);
    const file = { name: spec.kind, path: f.rel, bytes: f.bytes, sha256: sha };
    if (this.stats.read) {
      const hit = await this.check(conn, key, today).then(async (h) => {
        if (h && !this.lazy) await this.insert(conn, spec, key, fileNo);
        return h;
      }).catch((e: Error) => this.corrupted(f, key, e));
      this.stats.ms.load += Math.round(performance.now() - t1);
      if (hit) {
        this.stats.hits++;
        if (this.lazy) {
          this.stats.not_loaded++;
          const loads = this.pending.get(spec.table) ?? [];
          this.pending.set(spec.table, [...loads, { spec, file: { ...f, sha256: sha }, fileNo, today, key, stageFile }]);
        }
        progress?.({ file: f.rel, rows: hit.rows_read });
        return { ...file, ...hit, from_cache: true };
      }
    }
    this.stats.misses++;
    // The table's earlier files first: its rows stay in file order.
    await this.materialize(conn, [spec.table]);
    // Every date the file's rows speak for, kept so a later build bounds as-of by its own today.
    let seen: string[] | null = spec.date ? null : [];
    const before = await countRows(conn, spec.table);
    const report = await stageFile(conn, spec, { ...f, sha256: sha }, fileNo, today, progress, (dates) => { seen = dates; });
    const t2 = performance.now();
    await this.store(conn, spec, key, before, { ...report, key, kind: spec.kind, today, dates: seen }).catch((e: Error) => {
      // A cache that cannot be written costs the next build time, never this build.
      this.log.warn({ stage: 'stage_sources', file: f.rel, err: e.message }, 'could not write the staging cache entry');
    });
    this.stats.ms.store += Math.round(performance.now() - t2);
    return { ...report, from_cache: false };
  }

  /**
   * Inserts the cached rows held back for `tables` (lazy), each table's files in order. An
   * entry that fails to load now is removed and counted, and its file staged from source
   * in its place, as on a failed load at staging time.
   */
  async materialize(conn: DuckDBConnection, tables: readonly string[]): Promise<void> {
    for (const table of tables) {
      // A stage beside the main line (run-stages.ts) may ask for a table another is loading: it waits for that load.
      const loads = this.pending.get(table);
      if (loads && !this.loading.has(table)) {
        this.pending.delete(table);
        this.loading.set(table, this.insertHeld(conn, loads).finally(() => this.loading.delete(table)));
      }
      await this.loading.get(table);
    }
  }

  /** Inserts one table's held-back entries, in file order. */
  private async insertHeld(conn: DuckDBConnection, loads: PendingLoad[]): Promise<void> {
    for (const l of loads) {
      const t0 = performance.now();
      this.stats.not_loaded--;
      try {
        await this.insert(conn, l.spec, l.key, l.fileNo);
      } catch (e) {
        await this.corrupted(l.file, l.key, e as Error);
        await l.stageFile(conn, l.spec, l.file, l.fileNo, l.today);
      }
      this.stats.ms.load += Math.round(performance.now() - t0);
    }
  }

  private async corrupted(f: SourceFile, key: string, e: Error): Promise<undefined> {
    this.stats.corrupt++;
    this.log.warn({ stage: 'stage_sources', file: f.rel, err: e.message }, 'unreadable staging cache entry; re-staging the file');
    await rm(join(this.dir, key), { recursive: true, force: true });
    return undefined;
  }

  /** Records this build's entries and removes those no recent build used. */
  async finish(): Promise<StageCacheStats> {
    await replaceDurable(join(this.dir, HASHES), JSON.stringify(Object.fromEntries(this.hashes)));
    this.stats.pruned = (await pruneUnused(this.dir, this.used)).length;
    return this.stats;
  }

  /**
   * The file's SHA-256: the last build's when the file is the one it hashed (same device,
   * inode, size, modification and change times) and had not changed for `SETTLED_NS` before
   * that hash began; else read and hashed. Any write to a file sets its change time to the
   * clock's now, which no tool can set back, so a file written since shows another stat (the
   * rule git's index follows). Refreshes re-read about 1.8 GB of unchanged files at 1M
   * addresses for 2 s, and 10 times that at 10M.
   */
  private async hashOf(path: string): Promise<string> {
    const s = await stat(statPathOf(path), { bigint: true });
    const id = { dev: String(s.dev), ino: String(s.ino), size: String(s.size), mtimeNs: String(s.mtimeNs), ctimeNs: String(s.ctimeNs) };
    const known = this.known.get(path);
    if (known && known.dev === id.dev && known.ino === id.ino && known.size === id.size && known.mtimeNs === id.mtimeNs
      && known.ctimeNs === id.ctimeNs && s.ctimeNs + SETTLED_NS <= BigInt(known.hashedAtNs) && s.mtimeNs + SETTLED_NS <= BigInt(known.hashedAtNs)) {
      this.stats.hashes_reused++;
      this.hashes.set(path, known);
      return known.sha256;
    }
    const hashedAtNs = String(BigInt(Date.now()) * 1_000_000n);
    const sha256 = await sha256File(path);
    this.hashes.set(path, { ...id, hashedAtNs, sha256 });
    return sha256;
  }

  /** The entry's report when it has a good one for today (its rows counted, not yet read). */
  private async check(conn: DuckDBConnection, key: string, today: string) {
    const dir = join(this.dir, key);
    if (!(await stat(dir).catch(() => undefined))) return undefined;
    const entry = JSON.parse(await readFile(join(dir, 'entry.json'), 'utf8')) as Entry;
    if (entry.key !== key) throw new Error(`entry ${key} holds key ${entry.key}`);
    let asOf = entry.as_of;
    if (entry.today !== today) {
      if (!entry.dates) return undefined; // as-of not derivable for another day: stage again
      asOf = entry.dates.filter((d) => d <= today).at(-1) ?? null;
    }
    const [n] = await queryRows(conn, `SELECT count(*)::BIGINT AS n FROM read_parquet(${q(join(dir, 'rows.parquet'))})`);
    if (Number(n?.n) !== entry.rows_read) throw new Error(`rows.parquet has ${String(n?.n)} rows, entry says ${entry.rows_read}`);
    return { as_of: asOf, rows_read: entry.rows_read, rows_rejected: entry.rows_rejected, rejected_by_reason: entry.rejected_by_reason };
  }

  private async insert(conn: DuckDBConnection, spec: AnySource, key: string, fileNo: number): Promise<void> {
    const cols = spec.columns.map((c) => c.name).join(', ');
    // One statement: a page that fails to decode rolls the whole insert back. In file order:
    // DuckDB does not promise INSERT ... SELECT keeps it (the row-order test saw a staging
    // insert put its second row group first); the sort on the file's row number cost nothing
    // measurable at 1M.
    await conn.run(
      `INSERT INTO ${spec.table} (${cols}, _file_no) SELECT ${cols}, ${fileNo}::INTEGER ` +
        `FROM read_parquet(${q(join(this.dir, key, 'rows.parquet'))}, file_row_number = true) ORDER BY file_row_number`,
    );
  }

  private async store(conn: DuckDBConnection, spec: AnySource, key: string, before: number, r: SourceReport & Entry) {
    const tmp = join(this.dir, `${key}.${randomBytes(4).toString('hex')}.tmp`);
    await mkdir(tmp);
    try {
      const cols = spec.columns.map((c) => c.name).join(', ');
      // The rows this file appended: row ids run on from the count before it (staging only
      // appends). Written in table order without a sort: DuckDB keeps row order through COPY
      // from one table with WHERE (preserve_insertion_order; its docs' "Order Preservation";
      // not INSERT ... SELECT, which is sorted). The sort doubled this write's time at 1M.
      await conn.run(
        `COPY (SELECT ${cols} FROM ${spec.table} WHERE rowid >= ${before}) TO ${q(join(tmp, 'rows.parquet'))} (FORMAT parquet, ${PARQUET_COMPRESSION})`,
      );
      const entry: Entry = {
        key, kind: r.kind, rows_read: r.rows_read, rows_rejected: r.rows_rejected, rejected_by_reason: r.rejected_by_reason,
        as_of: r.as_of, today: r.today, dates: r.dates,
      };
      await writeDurable(join(tmp, 'entry.json'), JSON.stringify(entry));
      await fsyncPath(join(tmp, 'rows.parquet'));
      await publishEntry(tmp, join(this.dir, key));
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      throw e;
    }
  }
}

/** The last build's file hashes; none when the file is missing or does not read (every file is hashed then). */
async function readKnownHashes(path: string): Promise<Map<string, KnownHash>> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Record<string, KnownHash>;
    const ok = (h: KnownHash) => typeof h === 'object' && h !== null && /^[0-9a-f]{64}$/.test(String(h.sha256))
      && ['dev', 'ino', 'size', 'mtimeNs', 'ctimeNs', 'hashedAtNs'].every((k) => /^\d+$/.test(String(h[k as keyof KnownHash])));
    return new Map(Object.entries(parsed).filter(([, h]) => ok(h)));
  } catch {
    return new Map();
  }
}
