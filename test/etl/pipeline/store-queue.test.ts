import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverSources, type SourceFile } from '../../../etl/pipeline/discover.ts';
import { StageCache } from '../../../etl/pipeline/stage-cache.ts';
import { StoreQueue } from '../../../etl/pipeline/store-queue.ts';
import { createTable } from '../../../etl/pipeline/load-rows.ts';
import { stageFile } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { pricePaid } from '../../../etl/stages/10-staging/10-stage-sources/specs/property.ts';
import { quietLog, synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-store-queue-');
afterAll(tmp.cleanup);
const TODAY = '2025-10-01';
/** Two Price Paid files of one table: the region's, and its first 300 sales as a second file. */
let files: SourceFile[];

beforeAll(async () => {
  const { files: found } = await discoverSources(await synthRegion(2000, 11));
  const whole = found.find((f) => f.rel === 'ppd/pp-complete.csv')!;
  const part = join(tmp.dir, 'pp-part.csv');
  writeFileSync(part, readFileSync(whole.path, 'utf8').split('\n').slice(0, 300).join('\n') + '\n');
  files = [whole, { ...whole, path: part, rel: 'ppd/pp-part.csv', bytes: readFileSync(part).length }];
}, 120_000);

/** A log that keeps the warnings. */
function warnings() {
  const seen: string[] = [];
  return { seen, log: { ...quietLog, warn: (_: object, msg?: string) => { seen.push(msg ?? ''); } } };
}

async function freshDb(): Promise<{ db: DuckDBInstance; conn: DuckDBConnection }> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  await createTable(conn, pricePaid.table, [...pricePaid.columns, { name: '_file_no', type: 'INTEGER' as const, get: () => 0 }]);
  return { db, conn };
}

async function tableRows(conn: DuckDBConnection): Promise<string> {
  return JSON.stringify((await conn.runAndReadAll(`SELECT * FROM ${pricePaid.table} ORDER BY rowid`)).getRowObjectsJson());
}

/** A queue whose first task waits for `open()`: what is queued after it runs only then. */
function gatedQueue(db: DuckDBInstance, log = quietLog) {
  const queue = new StoreQueue(db, log);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  queue.add(() => gate);
  return { queue, open };
}

/** Both files staged through a cache at `dir` into a fresh database, with or without a queue. */
async function stageBoth(dir: string, queue?: (db: DuckDBInstance) => StoreQueue) {
  const { db, conn } = await freshDb();
  const cache = await StageCache.open(conn, { dir, read: true, code: 'test', log: quietLog, queue: queue?.(db) });
  for (const [i, f] of files.entries()) await cache.stage(conn, pricePaid, f, i + 1, TODAY, undefined, stageFile);
  return { conn, cache };
}

describe('the background cache stores', () => {
  it('run in order, one failure counted and warned without stopping the rest, the reports after them all', async () => {
    const { db } = await freshDb();
    const { seen, log } = warnings();
    const queue = new StoreQueue(db, log);
    const ran: string[] = [];
    queue.add(async (conn) => { await conn.run('SELECT 1'); ran.push('a'); });
    queue.add(async () => { throw new Error('disk full'); });
    queue.add(async (conn) => { await conn.run('SELECT 2'); ran.push('c'); });
    queue.atEnd(() => { ran.push('report'); });
    const stats = await queue.drain();
    expect(ran).toEqual(['a', 'c', 'report']);
    expect(stats).toMatchObject({ queued: 3, failed: 1 });
    expect(seen).toEqual(['a background cache store failed']);
  });

  it('hold back what is queued while held, and run it once released', async () => {
    const { db } = await freshDb();
    const queue = new StoreQueue(db, quietLog);
    const ran: string[] = [];
    let before!: () => void;
    const beforeRan = new Promise<void>((resolve) => { before = resolve; });
    queue.add(async () => { ran.push('before'); before(); });
    const release = queue.hold();
    queue.add(async () => { ran.push('held'); });
    const drained = queue.drain();
    await beforeRan;
    await new Promise((resolve) => setTimeout(resolve, 50)); // time for a held task to run, were it not held
    expect(ran).toEqual(['before']);
    release();
    await drained;
    expect(ran).toEqual(['before', 'held']);
  });

  it('store each staged file\'s own rows though the next file was appended before the store ran', async () => {
    const { db, conn } = await freshDb();
    for (const [i, f] of files.entries()) await stageFile(conn, pricePaid, f, i + 1, TODAY);
    const expected = await tableRows(conn);
    const dir = join(tmp.dir, 'later');
    let gate!: ReturnType<typeof gatedQueue>;
    const first = await stageBoth(dir, (d) => (gate = gatedQueue(d)).queue);
    expect(readdirSync(dir)).toEqual([]); // nothing written while the stores wait
    gate.open();
    await gate.queue.drain();
    expect(first.cache.stats).toMatchObject({ misses: 2 });
    expect(readdirSync(dir).filter((n) => /^[0-9a-f]{64}$/.test(n))).toHaveLength(2);
    const again = await stageBoth(dir);
    expect(again.cache.stats).toMatchObject({ hits: 2, misses: 0, corrupt: 0 });
    expect(await tableRows(again.conn)).toBe(expected);
    expect(await tableRows(first.conn)).toBe(expected);
  });

  it('write no entry when the staged rows changed before the store ran (a warning), and the next build re-stages', async () => {
    const dir = join(tmp.dir, 'changed');
    const { db, conn } = await freshDb();
    const { seen, log } = warnings();
    const { queue, open } = gatedQueue(db);
    const cache = await StageCache.open(conn, { dir, read: true, code: 'test', log, queue });
    await cache.stage(conn, pricePaid, files[1]!, 1, TODAY, undefined, stageFile);
    await conn.run(`DELETE FROM ${pricePaid.table} WHERE rowid % 7 = 0`);
    open();
    expect(await queue.drain()).toMatchObject({ failed: 0 }); // the cache's own failure: a warning
    expect(seen).toEqual(['could not write the staging cache entry']);
    expect(readdirSync(dir)).toEqual([]); // nor a temp folder
    const { conn: direct } = await freshDb();
    await stageFile(direct, pricePaid, files[1]!, 1, TODAY);
    const { conn: next } = await freshDb();
    const again = await StageCache.open(next, { dir, read: true, code: 'test', log: quietLog });
    await again.stage(next, pricePaid, files[1]!, 1, TODAY, undefined, stageFile);
    expect(again.stats).toMatchObject({ hits: 0, misses: 1 });
    expect(await tableRows(next)).toBe(await tableRows(direct));
  });
});
