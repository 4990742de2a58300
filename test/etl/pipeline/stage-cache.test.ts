import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSources, type SourceFile } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { KEEP_BUILDS, pruneUnused, StageCache, type StageFileFn } from '../../../etl/pipeline/stage-cache.ts';
import { stageFile } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { pricePaid } from '../../../etl/sources/price_paid/source.ts';
import { createTable } from '../../../etl/pipeline/load-rows.ts';
import { quietLog, synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-stage-cache-');
afterAll(tmp.cleanup);
const TODAY = '2025-10-01';
let file: SourceFile;

beforeAll(async () => {
  const { files } = await discoverSources(await synthRegion(2000, 11), SOURCES);
  file = files.find((f) => f.rel === 'ppd/pp-complete.csv')!;
}, 120_000);

/** A fresh database with an empty Price Paid staging table, and a connection to it. */
async function freshDb(): Promise<{ db: DuckDBInstance; conn: DuckDBConnection }> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await createTable(conn, pricePaid.table, [...pricePaid.columns, { name: '_file_no', type: 'INTEGER' as const, get: () => 0 }]);
  return { db, conn };
}
const freshConn = async () => (await freshDb()).conn;

async function tableRows(conn: DuckDBConnection): Promise<string> {
  const r = await conn.runAndReadAll(`SELECT * FROM ${pricePaid.table} ORDER BY rowid`);
  return JSON.stringify(r.getRowObjectsJson());
}

/** Stages the file through the cache in a fresh database; returns its report, rows and stats. */
async function viaCache(dir: string, opts: { spec?: typeof pricePaid; today?: string; stage?: StageFileFn; read?: boolean; file?: SourceFile } = {}) {
  const conn = await freshConn();
  const cache = await StageCache.open(conn, { dir, read: opts.read ?? true, code: 'test', log: quietLog });
  const report = await cache.stage(conn, opts.spec ?? pricePaid, opts.file ?? file, 3, opts.today ?? TODAY, undefined, opts.stage ?? stageFile);
  return { report, rows: await tableRows(conn), stats: cache.stats, cache };
}

/** The same file staged the ordinary way. */
async function direct(today = TODAY) {
  const conn = await freshConn();
  const report = await stageFile(conn, pricePaid, file, 3, today);
  return { report, rows: await tableRows(conn) };
}

describe('the staging cache', () => {
  it('loads a cached file as the same rows (file number from the current order) and report', async () => {
    const dir = join(tmp.dir, 'hit');
    const expected = await direct();
    const miss = await viaCache(dir);
    expect(miss.stats).toMatchObject({ hits: 0, misses: 1 });
    const hit = await viaCache(dir);
    expect(hit.stats).toMatchObject({ hits: 1, misses: 0, corrupt: 0 });
    expect(hit.rows).toBe(expected.rows);
    expect(hit.report).toEqual({ ...expected.report, from_cache: true });
    expect(miss.report).toEqual({ ...expected.report, from_cache: false });
  });

  it('keeps file order over several row groups and CSV buffers: staged, written to the cache and loaded back', async () => {
    // 300,000 rows: three of DuckDB's row groups and two of the native reader's 32 MB buffers,
    // read by two threads; transaction ids rise with the line number.
    const n = 300_000;
    const ids = Array.from({ length: n }, (_, i) => `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`);
    const lines = ids.map((id, i) =>
      `"{${id}}","${100000 + (i % 7919)}","2020-01-02 00:00","BS1 1AA","T","N","F","${i}","","HIGH STREET","","BRISTOL","BRISTOL","CITY OF BRISTOL","A","A"`);
    const path = join(tmp.dir, 'ordered', 'pp-complete.csv');
    mkdirSync(join(tmp.dir, 'ordered'), { recursive: true });
    writeFileSync(path, lines.join('\r\n') + '\r\n');
    const big: SourceFile = { kind: 'price_paid', path, rel: 'ppd/pp-complete.csv', bytes: statSync(path).size };
    const dir = join(tmp.dir, 'ordered-cache');
    // The row count and the first row out of place (-1: none), not the 300,000 ids: a
    // failure's diff of two such lists takes minutes to print.
    const order = (rows: string) => {
      const got = (JSON.parse(rows) as { transaction_id: string }[]).map((r) => r.transaction_id);
      return { rows: got.length, first_out_of_place: got.findIndex((id, i) => id !== ids[i]) };
    };
    const miss = await viaCache(dir, { file: big });
    expect(miss.stats).toMatchObject({ hits: 0, misses: 1 });
    expect(order(miss.rows)).toEqual({ rows: n, first_out_of_place: -1 });
    const hit = await viaCache(dir, { file: big });
    expect(hit.stats).toMatchObject({ hits: 1, misses: 0, corrupt: 0 });
    expect(order(hit.rows)).toEqual({ rows: n, first_out_of_place: -1 });
  }, 120_000);

  it('bounds a cached file\'s as-of date by the day of the build that loads it', async () => {
    const dir = join(tmp.dir, 'as-of');
    const early = '2020-06-30';
    await viaCache(dir, { today: early });
    const later = await viaCache(dir, { today: TODAY });
    expect(later.stats.hits).toBe(1);
    expect(later.report.as_of).toBe((await direct(TODAY)).report.as_of);
    expect(later.report.as_of! > early).toBe(true);
  });

  it('misses when the reader version changes, and under --no-cache', async () => {
    const dir = join(tmp.dir, 'version');
    await viaCache(dir);
    expect((await viaCache(dir, { spec: { ...pricePaid, version: pricePaid.version + 1 } })).stats).toMatchObject({ hits: 0, misses: 1 });
    expect((await viaCache(dir, { read: false })).stats).toMatchObject({ hits: 0, misses: 1, read: false });
    expect((await viaCache(dir)).stats.hits).toBe(1);
  });

  it('re-stages a corrupt entry, counts it, and writes a good one back', async () => {
    const expected = await direct();
    for (const [what, damage] of [
      ['garbage parquet', (e: string) => writeFileSync(join(e, 'rows.parquet'), 'not parquet')],
      ['truncated parquet', (e: string) => writeFileSync(join(e, 'rows.parquet'), Buffer.alloc(100))],
      ['bad entry.json', (e: string) => writeFileSync(join(e, 'entry.json'), '{"key":')],
      ['missing rows', (e: string) => rmSync(join(e, 'rows.parquet'))],
    ] as const) {
      const dir = join(tmp.dir, `corrupt-${what.replaceAll(' ', '-')}`);
      await viaCache(dir);
      const [entry] = readdirSync(dir).filter((n) => /^[0-9a-f]{64}$/.test(n));
      damage(join(dir, entry!));
      const again = await viaCache(dir);
      expect(again.stats, what).toMatchObject({ hits: 0, misses: 1, corrupt: 1 });
      expect(again.rows, what).toBe(expected.rows);
      expect((await viaCache(dir)).stats, what).toMatchObject({ hits: 1, corrupt: 0 });
    }
  });

  it('lazy: holds a hit\'s rows back until its table is read, then loads every file in order, a miss after the earlier hits', async () => {
    const dir = join(tmp.dir, 'lazy');
    await viaCache(dir);
    // The reference: the file staged twice the ordinary way, as files 1 and 2 of the table.
    const ref = await freshConn();
    for (const n of [1, 2]) await stageFile(ref, pricePaid, file, n, TODAY);
    const twice = await tableRows(ref);

    const conn = await freshConn();
    const cache = await StageCache.open(conn, { dir, read: true, code: 'test', log: quietLog, lazy: true });
    for (const n of [1, 2]) expect((await cache.stage(conn, pricePaid, file, n, TODAY, undefined, stageFile)).from_cache).toBe(true);
    expect(cache.stats).toMatchObject({ hits: 2, not_loaded: 2 });
    expect(await tableRows(conn)).toBe('[]');
    await cache.materialize(conn, ['some_other_table']);
    expect(await tableRows(conn)).toBe('[]');
    await cache.materialize(conn, [pricePaid.table]);
    expect(cache.stats).toMatchObject({ hits: 2, not_loaded: 0, corrupt: 0 });
    expect(await tableRows(conn)).toBe(twice);
    await cache.materialize(conn, [pricePaid.table]); // loaded once only
    expect(await tableRows(conn)).toBe(twice);

    // Two stages asking at once (one beside the main line, run-stages.ts): the rows go in once,
    // and neither goes on before they are in.
    const { db, conn: both } = await freshDb();
    const cache3 = await StageCache.open(both, { dir, read: true, code: 'test', log: quietLog, lazy: true });
    for (const n of [1, 2]) await cache3.stage(both, pricePaid, file, n, TODAY, undefined, stageFile);
    const seen = await Promise.all([both, await db.connect()].map(async (c) => {
      await cache3.materialize(c, [pricePaid.table]);
      return tableRows(c);
    }));
    expect(seen).toEqual([twice, twice]);
    expect(cache3.stats).toMatchObject({ hits: 2, not_loaded: 0 });

    // File 2 a miss (another reader version): file 1's held-back rows go in first.
    const conn2 = await freshConn();
    const cache2 = await StageCache.open(conn2, { dir, read: true, code: 'test', log: quietLog, lazy: true });
    await cache2.stage(conn2, pricePaid, file, 1, TODAY, undefined, stageFile);
    expect((await cache2.stage(conn2, { ...pricePaid, version: pricePaid.version + 1 }, file, 2, TODAY, undefined, stageFile)).from_cache).toBe(false);
    expect(cache2.stats).toMatchObject({ hits: 1, misses: 1, not_loaded: 0 });
    expect(await tableRows(conn2)).toBe(twice);
  });

  it('lazy: an entry that fails when its rows are loaded is removed, counted, and the file staged from source', async () => {
    const dir = join(tmp.dir, 'lazy-corrupt');
    const expected = await direct();
    await viaCache(dir);
    const conn = await freshConn();
    const cache = await StageCache.open(conn, { dir, read: true, code: 'test', log: quietLog, lazy: true });
    await cache.stage(conn, pricePaid, file, 3, TODAY, undefined, stageFile);
    const [entry] = readdirSync(dir).filter((n) => /^[0-9a-f]{64}$/.test(n));
    rmSync(join(dir, entry!, 'rows.parquet'));
    await cache.materialize(conn, [pricePaid.table]);
    expect(cache.stats).toMatchObject({ hits: 1, corrupt: 1, not_loaded: 0 });
    expect(await tableRows(conn)).toBe(expected.rows);
    expect(existsSync(join(dir, entry!))).toBe(false);
  });

  it('leaves no entry a later build trusts when staging fails or a build dies mid-write', async () => {
    const dir = join(tmp.dir, 'failed');
    // A reader that appends some rows, then fails (a file of the wrong format part-way).
    const failing: StageFileFn = async (conn, spec, f, n, today) => {
      await stageFile(conn, spec, f, n, today);
      throw new Error('not a Price Paid file');
    };
    await expect(viaCache(dir, { stage: failing })).rejects.toThrow(/not a Price Paid file/);
    expect(readdirSync(dir)).toEqual([]);
    // A build killed while writing leaves only a temp folder, however complete it looks.
    await viaCache(dir);
    const [entry] = readdirSync(dir);
    cpSync(join(dir, entry!), join(dir, `${entry}.dead.tmp`), { recursive: true });
    rmSync(join(dir, entry!), { recursive: true });
    const after = await viaCache(dir);
    expect(after.stats).toMatchObject({ hits: 0, misses: 1 });
    await after.cache.finish();
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('reads and hashes a file again only when its stat changed since the last build hashed it', async () => {
    const dir = join(tmp.dir, 'hashes');
    const src = join(tmp.dir, 'hashes-src');
    mkdirSync(src, { recursive: true });
    const path = join(src, 'pp-complete.csv');
    cpSync(file.path, path);
    const copy: SourceFile = { ...file, path };
    const bytes = readFileSync(path);
    const expectedSha = createHash('sha256').update(bytes).digest('hex');
    // A file changed in the last 2 s before it was hashed is hashed again next time: let this one settle.
    await new Promise((r) => setTimeout(r, 2_100));
    const build = async () => {
      const conn = await freshConn();
      const cache = await StageCache.open(conn, { dir, read: true, code: 'test', log: quietLog });
      const report = await cache.stage(conn, pricePaid, copy, 1, TODAY, undefined, stageFile);
      return { report, stats: await cache.finish(), rows: await tableRows(conn) };
    };
    const first = await build();
    expect(first.report.sha256).toBe(expectedSha);
    expect(first.stats).toMatchObject({ misses: 1, hashes_reused: 0 });
    expect(existsSync(join(dir, 'file-hashes.json'))).toBe(true); // not pruned as an unused entry
    const second = await build();
    expect(second.report).toMatchObject({ sha256: expectedSha, from_cache: true });
    expect(second.stats).toMatchObject({ hits: 1, hashes_reused: 1 });

    // Other bytes of the same size, the modification time set back: the change time still moves.
    const { mtime, atime } = statSync(path);
    const changed = Buffer.from(bytes);
    const at = changed.indexOf(Buffer.from('\n')) + 2;
    changed[at] = changed[at] === 0x41 ? 0x42 : 0x41;
    writeFileSync(path, changed);
    utimesSync(path, atime, mtime);
    const third = await build();
    expect(third.report.sha256).toBe(createHash('sha256').update(changed).digest('hex'));
    expect(third.stats).toMatchObject({ misses: 1, hashes_reused: 0 });
    // Hashed within 2 s of the write: hashed again the next time too (a slow start may have let it settle).
    const recorded = JSON.parse(readFileSync(join(dir, 'file-hashes.json'), 'utf8'))[path] as { hashedAtNs: string };
    const settled = statSync(path, { bigint: true }).ctimeNs + 2_000_000_000n <= BigInt(recorded.hashedAtNs);
    expect((await build()).stats).toMatchObject({ hashes_reused: settled ? 1 : 0 });

    // A hash file that does not read: every file is hashed, nothing fails.
    writeFileSync(join(dir, 'file-hashes.json'), '{not json');
    const fifth = await build();
    expect(fifth.report.sha256).toBe(third.report.sha256);
    expect(fifth.stats).toMatchObject({ hits: 1, hashes_reused: 0 });
  }, 60_000);

  it(`keeps the entries the last ${KEEP_BUILDS} builds used and removes the rest`, async () => {
    const dir = join(tmp.dir, 'prune');
    mkdirSync(dir);
    // Each build writes (or finds) the entries it uses, then prunes.
    const build = async (...used: string[]) => {
      for (const e of used) mkdirSync(join(dir, e), { recursive: true });
      await pruneUnused(dir, new Set(used));
    };
    mkdirSync(join(dir, 'x.tmp')); // a killed build's temp folder
    await build('a', 'b');
    await build('c');
    await build('d');
    expect(readdirSync(dir).sort()).toEqual(['a', 'b', 'c', 'd', 'recent.json']);
    await build('d');
    expect(readdirSync(dir).sort()).toEqual(['c', 'd', 'recent.json']);
    expect(existsSync(join(dir, 'x.tmp'))).toBe(false);
  });
});
