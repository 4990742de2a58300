import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildContext } from '../../../pipeline/context.ts';
import { codeFingerprint } from '../../../pipeline/code-fingerprint.ts';
import { duckdbVersion, fsyncPath, pruneUnused, publishEntry, sqlString as q, writeDurable } from '../../../pipeline/stage-cache.ts';
import { countRows, PARQUET_COMPRESSION } from '../../../pipeline/sql.ts';
import { addressbase } from '../../../sources/addressbase/source.ts';

/**
 * Everything a match result depends on besides its own input row: the calling stage's code
 * (how it reads its rows into address keys), this stage's, the `addresses` stage that builds
 * the candidates and the staging code (their fingerprint), the address-base reader's
 * version, and the bytes of every address-base file in order.
 */
function matcherKey(ctx: BuildContext, code: string, duckdb: string): string {
  const files = ctx.sources.filter((s) => s.name === addressbase.kind).map((s) => s.sha256);
  // format 2: inputs hashed with hash() (UBIGINT), not md5 of their JSON.
  return createHash('sha256').update(JSON.stringify({ format: 2, code, version: addressbase.version, files, duckdb })).digest('hex');
}

/**
 * The fingerprint of the code a calling stage's matches depend on. Callers take it when
 * their module loads (a scheduler whose files are replaced on disk keys by the code it runs).
 */
export function matcherCode(caller: string): string {
  return codeFingerprint([
    caller,
    join(import.meta.dirname, 'stage.ts'),
    join(import.meta.dirname, '..', '10-addresses', 'stage.ts'),
    join(import.meta.dirname, '..', '..', '10-staging', '10-stage-sources', 'stage-sources.ts'),
  ]);
}

export interface MatchCacheStats {
  read: boolean;
  reused: Record<string, number>;
  matched: Record<string, number>;
  corrupt: number;
  /** Tables derived from the address base alone (the street keys): loaded from the cache, or derived and stored. */
  tables: Record<string, 'loaded' | 'derived'>;
  /** Time spent hashing inputs and reading the cache, and writing it (the cache's own cost). */
  ms: { prepare: number; store: number };
}

/**
 * Address matches reused across builds (`DATA_DIR/cache/matches/<stage>/<key>.<name>.parquet`):
 * while the matcher's key is unchanged, an id whose input row (its 64-bit `hash()`) is the same
 * as when it was matched keeps its result, and only new or changed ids go through the
 * matcher. The result is the one a full match gives: the matcher is a pure function of
 * the address base (in the key) and the input row (hashed per id).
 */
export class MatchCache {
  readonly stats: MatchCacheStats;
  private readonly used = new Set<string>();

  private constructor(private readonly ctx: BuildContext, private readonly dir: string, private readonly key: string, read: boolean) {
    this.stats = { read, reused: {}, matched: {}, corrupt: 0, tables: {}, ms: { prepare: 0, store: 0 } };
  }

  /** `folder` is the caller's own (each prunes its own), `code` its `matcherCode`. */
  static async open(ctx: BuildContext, folder: string, code: string): Promise<MatchCache | undefined> {
    if (!ctx.cache) return undefined;
    const dir = join(ctx.cache.dir, 'matches', folder);
    await mkdir(dir, { recursive: true });
    return new MatchCache(ctx, dir, matcherKey(ctx, code, await duckdbVersion(ctx.conn)), ctx.cache.read);
  }

  private file(name: string) {
    return join(this.dir, `${this.key}.${name}.parquet`);
  }

  /**
   * Hashes the rows `sql` selects (`idCol` names the id), sets aside the cached results of
   * unchanged ids, and returns the query of the rows still to match (same columns as `sql`).
   */
  async prepare(name: string, sql: string, idCol: string): Promise<string> {
    const { conn } = this.ctx;
    const t0 = performance.now();
    this.used.add(`${this.key}.${name}.parquet`);
    // Plain tables, not TEMP: the matcher streams on a connection of its own. The row's
    // 64-bit hash() identifies its input: at 1M rows about 0.1 s against 0.9 s for md5 of its JSON.
    await conn.run(`CREATE OR REPLACE TABLE _match_in_${name} AS SELECT q.*, q.${idCol} AS _id, hash(q) AS _input_hash FROM (${sql}) q`);
    const empty = `SELECT NULL::VARCHAR AS id, NULL::UBIGINT AS input_hash, NULL::BIGINT AS uprn, NULL::VARCHAR AS method, NULL::DOUBLE AS score, NULL::VARCHAR AS reason WHERE false`;
    let cached = empty;
    if (this.stats.read && (await stat(this.file(name)).catch(() => undefined))) cached = `SELECT * FROM read_parquet(${q(this.file(name))})`;
    const reuse = (from: string) => conn.run(
      `CREATE OR REPLACE TABLE _match_reuse_${name} AS
       SELECT i._id AS id, i._input_hash AS input_hash, c.uprn, c.method, c.score, c.reason
       FROM _match_in_${name} i JOIN (SELECT DISTINCT id, input_hash, uprn, method, score, reason FROM (${from})) c
         ON c.id = i._id AND c.input_hash = i._input_hash`,
    );
    await reuse(cached).catch(async (e: Error) => {
      this.stats.corrupt++;
      this.ctx.log.warn({ stage: 'match_addresses', file: this.file(name), err: e.message }, 'unreadable match cache; matching every row');
      await rm(this.file(name), { force: true });
      await reuse(empty);
    });
    this.stats.reused[name] = await countRows(conn, `_match_reuse_${name}`);
    this.stats.ms.prepare += Math.round(performance.now() - t0);
    return `SELECT * EXCLUDE (_id, _input_hash) FROM _match_in_${name} i
            WHERE NOT EXISTS (SELECT 1 FROM _match_reuse_${name} r WHERE r.id = i._id AND r.input_hash = i._input_hash)`;
  }

  /** Stores the results in `table` (the fresh ones) and the reused ones for the next build, then adds the reused ones to `table`. */
  async complete(name: string, table: string): Promise<void> {
    const { conn } = this.ctx;
    this.stats.matched[name] = await countRows(conn, table);
    const t0 = performance.now();
    const tmp = join(this.dir, `${this.key}.${name}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      // The reused rows carry their own input; a fresh result is paired with its id's input,
      // and an id seen with two different inputs is left out (which result is whose is not
      // known): such an id is always among the fresh ones, as an entry holds one input per id.
      // Every input row is grouped (one aggregate, which spills), not only the fresh ids': a
      // semi-join to the fresh ids held a hash table of them all, and with count(DISTINCT)
      // (which does not spill either) this ran out of memory at 10M addresses under 1 GB; at
      // 1M the old form fails under 200 MB and this one passes under 100 MB.
      await conn.run(
        `COPY (SELECT id, input_hash, uprn, method, score, reason FROM _match_reuse_${name}
               UNION ALL
               SELECT m.id, i.input_hash, m.uprn, m.method, m.score, m.reason FROM ${table} m
               JOIN (SELECT _id AS id, min(_input_hash) AS input_hash FROM _match_in_${name}
                     GROUP BY _id HAVING min(_input_hash) = max(_input_hash)) i USING (id))
         TO ${q(tmp)} (FORMAT parquet, ${PARQUET_COMPRESSION})`,
      );
      await publishEntry(tmp, this.file(name));
    } catch (e) {
      await rm(tmp, { force: true });
      this.ctx.log.warn({ stage: 'match_addresses', results: name, err: (e as Error).message }, 'could not write the match cache');
    }
    this.stats.ms.store += Math.round(performance.now() - t0);
    await conn.run(`INSERT INTO ${table} SELECT id, uprn, method, score, reason FROM _match_reuse_${name}`);
    await conn.run(`DROP TABLE _match_in_${name}`);
    await conn.run(`DROP TABLE _match_reuse_${name}`);
  }

  /**
   * Loads `table`, a function of the address base alone (and of the code in the key), from
   * its entry `<key>.<name>/` when there is a good one: a refresh with the same address base
   * then does not derive it from every address again. Returns whether it did; an entry that
   * fails to load is removed and counted, and the table left for the caller to derive.
   */
  async loadTable(name: string, table: string): Promise<boolean> {
    const { conn } = this.ctx;
    const dir = join(this.dir, `${this.key}.${name}`);
    this.used.add(`${this.key}.${name}`);
    if (!this.stats.read || !(await stat(dir).catch(() => undefined))) return false;
    const t0 = performance.now();
    try {
      const entry = JSON.parse(await readFile(join(dir, 'entry.json'), 'utf8')) as { key: string; rows: number };
      if (entry.key !== this.key) throw new Error(`entry holds key ${entry.key}`);
      // One statement: a page that fails to decode leaves no table behind.
      await conn.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet(${q(join(dir, 'rows.parquet'))})`);
      const rows = await countRows(conn, table);
      if (rows !== entry.rows) {
        await conn.run(`DROP TABLE ${table}`);
        throw new Error(`rows.parquet has ${rows} rows, entry says ${entry.rows}`);
      }
      this.stats.tables[name] = 'loaded';
      return true;
    } catch (e) {
      this.stats.corrupt++;
      this.ctx.log.warn({ stage: 'match_addresses', entry: dir, err: (e as Error).message }, 'unreadable match cache entry; deriving the table again');
      await rm(dir, { recursive: true, force: true });
      return false;
    } finally {
      this.stats.ms.prepare += Math.round(performance.now() - t0);
    }
  }

  /** Stores `table` (derived this build) as the entry `loadTable` reads, under a temp name renamed when complete. */
  async storeTable(name: string, table: string): Promise<void> {
    const { conn } = this.ctx;
    const t0 = performance.now();
    this.stats.tables[name] = 'derived';
    const tmp = join(this.dir, `${this.key}.${name}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await mkdir(tmp);
      await conn.run(`COPY ${table} TO ${q(join(tmp, 'rows.parquet'))} (FORMAT parquet, ${PARQUET_COMPRESSION})`);
      await fsyncPath(join(tmp, 'rows.parquet'));
      await writeDurable(join(tmp, 'entry.json'), JSON.stringify({ key: this.key, rows: await countRows(conn, table) }));
      await publishEntry(tmp, join(this.dir, `${this.key}.${name}`));
    } catch (e) {
      await rm(tmp, { recursive: true, force: true });
      this.ctx.log.warn({ stage: 'match_addresses', table: name, err: (e as Error).message }, 'could not write the match cache');
    }
    this.stats.ms.store += Math.round(performance.now() - t0);
  }

  async finish(): Promise<MatchCacheStats> {
    await pruneUnused(this.dir, this.used);
    return this.stats;
  }
}
