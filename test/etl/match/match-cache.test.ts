import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { MatchCache, type MatchCacheStats } from '../../../etl/stages/20-merged/20-match-addresses/match-cache.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-match-cache-');
afterAll(tmp.cleanup);
const cacheDir = join(tmp.dir, 'cache');

/**
 * One build's matching of `inputs` (id, address) through the cache, in a fresh database. The
 * "matcher" is SQL here: an input's result is the length of its address as the UPRN, so
 * the right result for every row is known without the cache. Returns the rows the caller
 * matched (its to-match query), the table after `complete` and the cache's stats.
 */
async function build(inputs: [string, string][]) {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const ctx = { db, conn, sources: [], log: quietLog, cache: { dir: cacheDir, read: true } } as unknown as BuildContext;
    const values = inputs.map(([id, a]) => `('${id}', '${a}')`).join(', ');
    await conn.run(`CREATE TABLE inputs AS SELECT * FROM (VALUES ${values}) v(id, address)`);
    const cache = (await MatchCache.open(ctx, 'test', 'code-1'))!;
    const toMatch = await cache.prepare('t', 'SELECT id, address FROM inputs', 'id');
    const matched = (await conn.runAndReadAll(`SELECT id, address FROM (${toMatch}) ORDER BY ALL`)).getRows().map((r) => `${String(r[0])}:${String(r[1])}`);
    await conn.run(`CREATE TABLE t_matches AS SELECT id, length(address)::BIGINT AS uprn, 'len' AS method, 1.0::DOUBLE AS score, NULL::VARCHAR AS reason FROM (${toMatch})`);
    await cache.complete('t', 't_matches');
    const stats: MatchCacheStats = await cache.finish();
    const table = (await conn.runAndReadAll('SELECT id, uprn FROM t_matches ORDER BY ALL')).getRows().map((r) => `${String(r[0])}=${String(r[1])}`);
    return { matched, table, stats };
  } finally {
    conn.closeSync();
  }
}

/** What a full match gives: every input row's id and the length of its address. */
const truth = (inputs: [string, string][]) => inputs.map(([id, a]) => `${id}=${a.length}`).sort();

describe('the match cache', () => {
  it('re-matches only new and changed inputs, and gives every row its own input\'s result', async () => {
    const first: [string, string][] = [['a', 'x'], ['b', 'yy'], ['c', 'zzz']];
    const r1 = await build(first);
    expect(r1.matched).toEqual(['a:x', 'b:yy', 'c:zzz']);
    expect(r1.table).toEqual(truth(first));

    // a unchanged, b changed, c gone, d new.
    const second: [string, string][] = [['a', 'x'], ['b', 'bbbb'], ['d', 'ddddd']];
    const r2 = await build(second);
    expect(r2.matched).toEqual(['b:bbbb', 'd:ddddd']);
    expect(r2.stats).toMatchObject({ reused: { t: 1 }, matched: { t: 2 }, corrupt: 0 });
    expect(r2.table).toEqual(truth(second));

    // Nothing changed: nothing matched, every row from the cache (the stored entry held them all).
    const r3 = await build(second);
    expect(r3.matched).toEqual([]);
    expect(r3.table).toEqual(truth(second));
  });

  it('never stores the result of an id seen with two inputs, so a later build does not take it for the other', async () => {
    // e cached with input p.
    await build([['e', 'p'], ['f', 'ff']]);
    // e now twice: p (reused) and qqq (matched); the table holds both rows' own results.
    const twice: [string, string][] = [['e', 'p'], ['e', 'qqq'], ['f', 'ff']];
    const r1 = await build(twice);
    expect(r1.matched).toEqual(['e:qqq']);
    expect(r1.table).toEqual(truth(twice));
    // e once more, with qqq only: matched again, not given p's result.
    const once: [string, string][] = [['e', 'qqq'], ['f', 'ff']];
    const r2 = await build(once);
    expect(r2.matched).toEqual(['e:qqq']);
    expect(r2.table).toEqual(truth(once));
    // An id first seen with two inputs at once: both matched, neither stored.
    const both: [string, string][] = [['g', 'gg'], ['g', 'ggg']];
    expect((await build(both)).matched).toEqual(['g:gg', 'g:ggg']);
    const r3 = await build(both);
    expect(r3.matched).toEqual(['g:gg', 'g:ggg']);
    expect(r3.table).toEqual(truth(both));
  });

  it('gives an id whose input repeats unchanged one result per row', async () => {
    const dup: [string, string][] = [['h', 'hh'], ['h', 'hh'], ['i', 'i']];
    expect((await build(dup)).table).toEqual(truth(dup));
    const r = await build(dup);
    expect(r.matched).toEqual([]);
    expect(r.table).toEqual(truth(dup));
  });
});
