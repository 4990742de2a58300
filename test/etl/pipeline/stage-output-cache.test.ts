import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildContext, Stage } from '../../../etl/pipeline/context.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { writeTables } from '../../../etl/pipeline/write-tables.ts';
import { col, type TableContract } from '../../../schemas/tables/contract.ts';
import { etlCodeFingerprint, runStage, sourceKindsOf, StageOutputCache } from '../../../etl/pipeline/stage-output-cache.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-stage-output-');
afterAll(tmp.cleanup);

const sha = (c: string) => c.repeat(64);
const source = (name: string, path: string, digest: string) => ({
  name, path, bytes: 1, sha256: digest, as_of: null, rows_read: 1, rows_rejected: 0, rejected_by_reason: {},
});

/** How often each stage really ran. */
const runs: Record<string, number> = {};

/**
 * Two reusable stages over staging tables: `a` reads the address base and makes a table with
 * types Parquet would not give back (a sum's HUGEINT, a list), a working table, a file and
 * manifest entries; `b` reads `a`'s table and the planning layers, and the build date.
 */
const stages: Stage[] = [
  { name: 'stage_sources', description: '', reads: ['sources folder'], writes: ['stg_addressbase', 'stg_planning'], sources: SOURCES, run: async () => undefined },
  {
    name: 'a', description: '', reads: ['stg_addressbase'], writes: ['t_a', 'a.bin'], reuse: { today: false },
    async run(ctx) {
      runs.a = (runs.a ?? 0) + 1;
      await ctx.conn.run(`CREATE TABLE a_work AS SELECT range AS i FROM range(5)`);
      await ctx.conn.run(`CREATE TABLE t_a AS SELECT i % 2 AS k, sum(i::INTEGER) AS s, list(i ORDER BY i) AS l FROM a_work GROUP BY ALL ORDER BY k DESC`);
      writeFileSync(join(ctx.buildDir, 'a.bin'), Buffer.from([1, 2, 3, 4]));
      ctx.artifacts.a = { file: 'a.bin', description: 'a file' };
      ctx.quality.a = { made: 2 };
      ctx.matchRates.a_share = 0.5;
    },
  },
  {
    name: 'b', description: '', reads: ['t_a', 'stg_planning'], writes: ['t_b'], reuse: { today: true },
    async run(ctx) {
      runs.b = (runs.b ?? 0) + 1;
      await ctx.conn.run(`CREATE TABLE t_b AS SELECT k, s * 2 AS s2, '${ctx.today}' AS day FROM t_a`);
    },
  },
];

interface Build { ctx: BuildContext; cache: StageOutputCache; close: () => void }

/** A build of the two stages in a fresh database over the given staged files, sharing `cacheDir`. */
async function build(opts: { cacheDir: string; files?: Record<string, string>; today?: string; code?: string; read?: boolean }): Promise<Build> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const buildDir = join(tmp.dir, `build-${Math.random().toString(36).slice(2)}`);
  mkdirSync(buildDir);
  const files = opts.files ?? { addressbase: 'a', planning: 'b', price_paid: 'c' };
  const ctx = {
    db, conn, buildDir, sourcesDir: '/sources', today: opts.today ?? '2025-10-01', artifacts: {}, quality: {}, matchRates: {}, log: quietLog,
    sources: Object.entries(files).map(([kind, digest]) => source(kind, `${kind}/file.csv`, sha(digest))),
    cache: { dir: opts.cacheDir, read: opts.read ?? true },
  } as unknown as BuildContext;
  const cache = (await StageOutputCache.open(ctx, opts.code ?? 'code-1'))!;
  for (let i = 0; i < stages.length; i++) await runStage(ctx, stages, i, cache);
  await cache.finish();
  return { ctx, cache, close: () => conn.closeSync() };
}

async function tables(b: Build) {
  const out: Record<string, unknown> = {};
  for (const t of ['a_work', 't_a', 't_b']) {
    out[t] = {
      columns: await queryRows(b.ctx.conn, `SELECT column_name, column_type FROM (DESCRIBE ${t})`),
      rows: await queryRows(b.ctx.conn, `SELECT * FROM ${t}`),
    };
  }
  return out;
}

function counting<T>(f: () => Promise<T>): Promise<{ result: T; ran: Record<string, number> }> {
  const before = { ...runs };
  return f().then((result) => ({ result, ran: Object.fromEntries(['a', 'b'].map((k) => [k, (runs[k] ?? 0) - (before[k] ?? 0)])) }));
}

describe('the stage output cache', () => {
  const cacheDir = join(tmp.dir, 'cache-main');
  let fresh: Build;

  it('gives back what a reused stage made: its tables with their types and row order, its file, its manifest entries', async () => {
    const first = await counting(() => build({ cacheDir }));
    fresh = first.result;
    expect(first.ran).toEqual({ a: 1, b: 1 });
    expect(fresh.cache.stats).toMatchObject({ reused: [], computed: ['a', 'b'], not_stored: {}, corrupt: 0 });
    const again = await counting(() => build({ cacheDir }));
    expect(again.ran).toEqual({ a: 0, b: 0 });
    expect(again.result.cache.stats).toMatchObject({ reused: ['a', 'b'], computed: [], corrupt: 0 });
    const t = await tables(again.result);
    expect(t).toEqual(await tables(fresh));
    expect((t.t_a as { columns: { column_type: string }[] }).columns.map((c) => c.column_type)).toEqual(['BIGINT', 'HUGEINT', 'BIGINT[]']);
    expect(readFileSync(join(again.result.ctx.buildDir, 'a.bin'))).toEqual(Buffer.from([1, 2, 3, 4]));
    expect(again.result.ctx.artifacts).toEqual(fresh.ctx.artifacts);
    expect(again.result.ctx.quality).toEqual({ a: { made: 2 } });
    expect(again.result.ctx.matchRates).toEqual({ a_share: 0.5 });
    again.result.close();
  });

  it('runs a stage again when a source file that feeds it changes, even through a table it reads, and only then', async () => {
    const planning = await counting(() => build({ cacheDir, files: { addressbase: 'a', planning: 'B', price_paid: 'c' } }));
    expect(planning.ran).toEqual({ a: 0, b: 1 });
    const unrelated = await counting(() => build({ cacheDir, files: { addressbase: 'a', planning: 'b', price_paid: 'C' } }));
    expect(unrelated.ran).toEqual({ a: 0, b: 0 });
    const addressBase = await counting(() => build({ cacheDir, files: { addressbase: 'A', planning: 'b', price_paid: 'c' } }));
    expect(addressBase.ran).toEqual({ a: 1, b: 1 });
    // A second address-base file is a change too.
    const more = await counting(() => build({ cacheDir, files: { addressbase: 'a', planning: 'b', price_paid: 'c' } }));
    more.result.ctx.sources.push(source('addressbase', 'addressbase/more.csv', sha('d')));
    expect(more.result.cache.key(stages, 1)).not.toBe(fresh.cache.key(stages, 1));
    for (const b of [planning, unrelated, addressBase, more]) b.result.close();
  });

  it('keys a stage reading a table its writer derives from some of its reads by those reads\' files alone', () => {
    const run = async () => undefined;
    const derived: Stage[] = [
      { name: 'stage_sources', description: '', reads: ['sources folder'], writes: ['stg_addressbase', 'stg_price_paid'], sources: SOURCES, run },
      { name: 'm', description: '', reads: ['stg_addressbase', 'stg_price_paid'], writes: ['t_m1', 't_m2'], derives: { t_m1: ['stg_addressbase'] }, run },
      { name: 'c', description: '', reads: ['t_m1'], writes: ['t_c'], reuse: { today: false }, run },
      { name: 'd', description: '', reads: ['t_m2'], writes: ['t_d'], reuse: { today: false }, run },
      { name: 'e', description: '', reads: ['t_m1', 't_m2'], writes: ['t_e'], reuse: { today: false }, run },
    ];
    const kinds = (i: number) => [...sourceKindsOf(derived, i)!].sort();
    expect(kinds(1)).toEqual(['addressbase', 'price_paid']);
    expect(kinds(2)).toEqual(['addressbase']);
    expect(kinds(3)).toEqual(['addressbase', 'price_paid']);
    expect(kinds(4)).toEqual(['addressbase', 'price_paid']);
  });

  it('runs a stage that reads the build date again on another day, and one that does not only when its inputs change', async () => {
    const later = await counting(() => build({ cacheDir, today: '2025-10-02' }));
    expect(later.ran).toEqual({ a: 0, b: 1 });
    expect(await queryRows(later.result.ctx.conn, 'SELECT DISTINCT day FROM t_b')).toEqual([{ day: '2025-10-02' }]);
    later.result.close();
  });

  it('runs every stage again after a code change, and under --no-cache (rewriting the entries)', async () => {
    const code = await counting(() => build({ cacheDir, code: 'code-2' }));
    expect(code.ran).toEqual({ a: 1, b: 1 });
    const noCache = await counting(() => build({ cacheDir, read: false }));
    expect(noCache.ran).toEqual({ a: 1, b: 1 });
    expect(noCache.result.cache.stats).toMatchObject({ read: false, computed: ['a', 'b'], not_stored: {} });
    for (const b of [code, noCache]) b.result.close();
  });

  it('never trusts a damaged entry: it is removed, counted, and the stage runs with the same result', async () => {
    const dir = join(tmp.dir, 'cache-corrupt');
    (await build({ cacheDir: dir })).close();
    const keyA = fresh.cache.key(stages, 1)!;
    const keyB = fresh.cache.key(stages, 2)!;
    const entries = join(dir, 'stages');
    // The tables file of one, a byte of the stored file of the other (same size).
    writeFileSync(join(entries, keyB, 'tables.duckdb'), 'not a database');
    const bin = join(entries, keyA, 'files', 'a.bin');
    writeFileSync(bin, Buffer.from([1, 2, 3, 5]));
    const after = await counting(() => build({ cacheDir: dir }));
    expect(after.ran).toEqual({ a: 1, b: 1 });
    expect(after.result.cache.stats).toMatchObject({ corrupt: 2, reused: [], computed: ['a', 'b'] });
    expect(await tables(after.result)).toEqual(await tables(fresh));
    expect(readFileSync(join(after.result.ctx.buildDir, 'a.bin'))).toEqual(Buffer.from([1, 2, 3, 4]));
    after.result.close();
    // Rewritten whole, they are reused again; an unreadable entry.json is damage too.
    expect((await counting(() => build({ cacheDir: dir }))).ran).toEqual({ a: 0, b: 0 });
    writeFileSync(join(entries, keyA, 'entry.json'), '{"key":');
    const third = await counting(() => build({ cacheDir: dir }));
    expect(third.ran).toEqual({ a: 1, b: 0 });
    expect(third.result.cache.stats.corrupt).toBe(1);
    third.result.close();
  });

  it('ignores and prunes a temp folder a killed build left', async () => {
    const dir = join(tmp.dir, 'cache-killed');
    const keyA = fresh.cache.key(stages, 1)!;
    mkdirSync(join(dir, 'stages', `${keyA}.dead.tmp`), { recursive: true });
    const b = await counting(() => build({ cacheDir: dir }));
    expect(b.ran).toEqual({ a: 1, b: 1 });
    expect(readdirSync(join(dir, 'stages')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    b.result.close();
  });

  it('does not store a stage that did something it cannot give back (dropped a table, made a view)', async () => {
    const dir = join(tmp.dir, 'cache-refused');
    const odd: Stage[] = [
      stages[0]!,
      { name: 'drops', description: '', reads: ['stg_addressbase'], writes: [], reuse: { today: false }, run: async (ctx) => { await ctx.conn.run('DROP TABLE old'); } },
      { name: 'views', description: '', reads: ['stg_addressbase'], writes: ['v'], reuse: { today: false }, run: async (ctx) => { await ctx.conn.run('CREATE VIEW v AS SELECT 1 AS x'); } },
    ];
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    await conn.run('CREATE TABLE old AS SELECT 1 AS x');
    const ctx = {
      db, conn, buildDir: tmp.dir, sourcesDir: '/sources', today: '2025-10-01', artifacts: {}, quality: {}, matchRates: {}, log: quietLog,
      sources: [source('addressbase', 'addressbase/file.csv', sha('a'))], cache: { dir, read: true },
    } as unknown as BuildContext;
    const cache = (await StageOutputCache.open(ctx, 'code-1'))!;
    for (let i = 0; i < odd.length; i++) await runStage(ctx, odd, i, cache);
    expect(Object.keys(cache.stats.not_stored).sort()).toEqual(['drops', 'views']);
    expect(readdirSync(join(dir, 'stages'))).toEqual([]);
    conn.closeSync();
  });

  it('keys entries by code that covers every stage\'s modules and SQL and what they import', () => {
    const seen: string[] = [];
    etlCodeFingerprint(seen);
    const rel = seen.map((f) => relative(join(import.meta.dirname, '..', '..', '..'), f));
    for (const f of [
      'etl/pipeline/run.ts', 'etl/stages/30-serving/10-search-index/build.ts', 'etl/stages/30-serving/10-search-index/search_index_rows.sql',
      'etl/stages/40-marts/70-str/str_listings.sql', 'etl/stages/20-merged/10-addresses/addresses.sql', 'lib/files/search-index-format.ts',
      'schemas/address-normalise.ts', 'etl/sources/addressbase/source.ts', 'etl/sources/addressbase/read.ts',
    ]) expect(rel, f).toContain(f);
  });

  describe('content hashes kept beside an entry for write-tables', () => {
    const dir = join(tmp.dir, 'cache-hashes');
    // t_b comes from a stage's entry; t_plain from no stage (made by hand below).
    const contract = (name: string, columns: string[]): TableContract => ({ name, description: '', sortKey: ['k'], columns: columns.map((c) => col(c, 'VARCHAR', '', '', '')) });
    const published = [contract('t_b', ['k', 's2', 'day']), contract('t_plain', ['k', 'v'])];
    /** A build of the stages, t_plain added, then its tables written with the cache as memo (or none). */
    async function publish(memo = true) {
      const b = await build({ cacheDir: dir });
      await b.ctx.conn.run(`CREATE TABLE t_plain AS SELECT i AS k, 'v' || i AS v FROM range(3) r(i)`);
      const ctx = { ...b.ctx, published } as BuildContext;
      const out = await writeTables(ctx, undefined, memo ? b.cache : undefined);
      await b.cache.saveContentHashes();
      b.close();
      return out;
    }
    const hashesFile = () => join(dir, 'stages', fresh.cache.key(stages, 2)!, 'content-hashes.json');

    it('hashes once: a build that reuses the entry gets the same content key without scanning the table', async () => {
      const first = await publish();
      expect(first.stats.hashes_known).toEqual([]);
      const kept = JSON.parse(readFileSync(hashesFile(), 'utf8')) as Record<string, { rows: number }>;
      // Only the entry's table, not t_plain, nor stage a's t_a (not published here).
      expect(Object.keys(kept)).toEqual(['t_b']);
      expect(kept.t_b!.rows).toBe(2);
      const second = await publish();
      expect(second.stats.hashes_known).toEqual(['t_b']);
      // The key a scan gives, in a build that does not use the memo.
      const scanned = await publish(false);
      expect(scanned.stats.hashes_known).toEqual([]);
      for (const t of ['t_b', 't_plain']) {
        expect(second.tables[t]!.content_key).toBe(scanned.tables[t]!.content_key);
        expect(first.tables[t]!.content_key).toBe(scanned.tables[t]!.content_key);
      }
    });

    it('scans again when the kept hashes are unreadable, malformed, of another row count or other columns, and keeps them anew', async () => {
      const good = readFileSync(hashesFile(), 'utf8');
      const h = (JSON.parse(good) as Record<string, Record<string, unknown>>).t_b!;
      for (const bad of ['{"t_b":', JSON.stringify({ t_b: { ...h, rows: 3 } }), JSON.stringify({ t_b: { ...h, hash: 'x' } }), JSON.stringify({ t_b: { ...h, columns: 'k, s2' } }), '[]']) {
        writeFileSync(hashesFile(), bad);
        const again = await publish();
        expect(again.stats.hashes_known, bad).toEqual([]);
        expect(JSON.parse(readFileSync(hashesFile(), 'utf8')), bad).toEqual(JSON.parse(good));
      }
    });
  });

  it('is not used for a stage reading something that is not a table (the sources folder)', () => {
    const s: Stage[] = [stages[0]!, { ...stages[1]!, reads: ['truth/*.csv'] }];
    expect(fresh.cache.key(s, 1)).toBeUndefined();
    expect(fresh.cache.key([stages[0]!, { ...stages[1]!, reuse: undefined }], 1)).toBeUndefined();
    fresh.close();
  });
});
