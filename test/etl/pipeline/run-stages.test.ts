import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildContext, Stage } from '../../../etl/pipeline/context.ts';
import { checkBeside, runStages } from '../../../etl/pipeline/run-stages.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { StageOutputCache } from '../../../etl/pipeline/stage-output-cache.ts';
import { STAGES } from '../../../etl/pipeline/stages.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';
import { deferred } from '../../support/deferred.ts';

const tmp = tempDir('pi-run-stages-');
afterAll(tmp.cleanup);

const stage = (name: string, run: Stage['run'], more: Partial<Stage> = {}): Stage => ({ name, description: '', reads: [], writes: [], run, ...more });

async function context(cacheDir?: string): Promise<BuildContext> {
  const db = await DuckDBInstance.create(':memory:');
  const buildDir = join(tmp.dir, `build-${Math.random().toString(36).slice(2)}`);
  mkdirSync(buildDir);
  return {
    db, conn: await db.connect(), buildDir, buildId: 'b', sourcesDir: '/sources', today: '2025-10-01', artifacts: {}, quality: {}, matchRates: {}, log: quietLog,
    progress: () => undefined, sources: [{ name: 'addressbase', path: 'a.csv', bytes: 1, sha256: 'a'.repeat(64), as_of: null, rows_read: 1, rows_rejected: 0, rejected_by_reason: {} }],
    ...(cacheDir ? { cache: { dir: cacheDir, read: true } } : {}),
  } as unknown as BuildContext;
}

const tableNames = async (ctx: BuildContext) => (await queryRows(ctx.conn, 'SELECT table_name AS t FROM duckdb_tables() ORDER BY 1')).map((r) => String(r.t));

describe('stages beside the main line', () => {
  it('the build\'s own order passes the check: each such stage reads only what is made before it starts, and nothing between touches its tables', () => {
    expect(() => checkBeside(STAGES)).not.toThrow();
    const beside = STAGES.filter((s) => s.beside).map((s) => `${s.beside!.after} → ${s.name}`);
    expect(beside).toEqual(['properties → marts_str']);
  });

  it('refuses an order in which a stage could not run beside the others', () => {
    const bg = (more: Partial<Stage> = {}) => stage('bg', async () => undefined, { reads: ['t_a'], writes: ['x_out'], beside: { after: 'a', tables: /^x_/ }, ...more });
    const a = stage('a', async () => undefined, { writes: ['t_a'] });
    const b = stage('b', async () => undefined, { reads: ['t_a'], writes: ['t_b'] });
    expect(() => checkBeside([a, b, bg()])).not.toThrow();
    expect(() => checkBeside([a, b, bg({ beside: { after: 'nope', tables: /^x_/ } })])).toThrow('nope is not a stage before it');
    expect(() => checkBeside([bg({ beside: { after: 'a', tables: /^x_/ } }), a])).toThrow('a is not a stage before it');
    expect(() => checkBeside([a, b, bg({ reads: ['t_b'] })])).toThrow('b, which runs beside it, writes t_b');
    expect(() => checkBeside([a, b, bg({ reads: ['t_zz'] })])).toThrow('no stage before it writes t_zz');
    expect(() => checkBeside([a, b, bg({ writes: ['y_out'] })])).toThrow('y_out is not named as its tables');
    expect(() => checkBeside([a, stage('b', async () => undefined, { reads: ['x_out'] }), bg()])).toThrow('b, which runs beside it, uses x_out');
    expect(() => checkBeside([a, stage('b', async () => undefined, { writes: ['x_work'] }), bg()])).toThrow('b, which runs beside it, uses x_work');
    const bg2 = stage('bg2', async () => undefined, { beside: { after: 'a', tables: /^z_/ } });
    expect(() => checkBeside([a, bg2, b, bg()])).toThrow('bg2 also runs beside the main line');
  });

  it('runs the stage while the stages between run, on its own connection, and files its manifest entries at its own place', async () => {
    const ctx = await context();
    const bgStarted = deferred();
    const bReached = deferred();
    let bgConn: unknown;
    const stages = [
      stage('a', async (c) => void (c.quality.a = 1)),
      // Each waits for the other: run one after the other, this would never end.
      stage('b', async (c) => {
        await bgStarted.promise;
        c.quality.b = 1;
        bReached.resolve();
      }),
      stage('bg', async (c) => {
        bgConn = c.conn;
        await c.conn.run('CREATE TABLE x_made AS SELECT 42 AS v');
        bgStarted.resolve();
        await bReached.promise;
        c.quality.bg = { made: 1 };
        c.matchRates.bg_share = 0.25;
      }, { writes: ['x_made'], beside: { after: 'a', tables: /^x_/ } }),
      stage('c', async (c) => {
        c.quality.c = (await queryRows(c.conn, 'SELECT v FROM x_made'))[0]!.v;
      }, { reads: ['x_made'] }),
    ];
    const timings: Record<string, number> = {};
    await runStages(ctx, stages, undefined, timings);
    expect(bgConn).not.toBe(ctx.conn);
    // x_made, a working table (not published), was dropped once c, its last reader, was done.
    expect(await tableNames(ctx)).toEqual([]);
    // In the order the stages are listed, as one after the other would put them; c saw bg's table.
    expect(Object.keys(ctx.quality)).toEqual(['a', 'b', 'bg', 'c']);
    expect(ctx.quality).toEqual({ a: 1, b: 1, bg: { made: 1 }, c: 42 });
    expect(ctx.matchRates).toEqual({ bg_share: 0.25 });
    expect(Object.keys(timings).sort()).toEqual(['a', 'b', 'bg', 'bg_wait', 'c']);
  }, 60_000);

  it('fails the build with the failure of a stage beside the main line, and never runs the stages after it', async () => {
    const ctx = await context();
    const ran: string[] = [];
    const stages = [
      stage('a', async () => void ran.push('a')),
      stage('b', async () => void ran.push('b')),
      stage('bg', async () => {
        throw new Error('bg broke');
      }, { beside: { after: 'a', tables: /^x_/ } }),
      stage('c', async () => void ran.push('c')),
    ];
    await expect(runStages(ctx, stages, undefined, {})).rejects.toThrow('bg broke');
    expect(ran).not.toContain('c');
  });

  it('when the main line fails, waits for the stage beside it to stop before failing the build', async () => {
    const ctx = await context();
    const bgStarted = deferred();
    let bgFinished = false;
    const stages = [
      stage('a', async () => undefined),
      stage('b', async () => {
        await bgStarted.promise;
        throw new Error('b broke');
      }),
      stage('bg', async (c) => {
        bgStarted.resolve();
        // Work in DuckDB's threads: it ends well after b's failure reaches the caller, unless the caller waits.
        await c.conn.run('CREATE TABLE x_big AS SELECT range AS i, md5(range::VARCHAR) AS h FROM range(300000) ORDER BY h');
        bgFinished = true;
      }, { beside: { after: 'a', tables: /^x_/ } }),
    ];
    await expect(runStages(ctx, stages, undefined, {})).rejects.toThrow('b broke');
    expect(bgFinished).toBe(true);
  }, 60_000);

  it('keeps each line\'s cached output apart: a stage storing while the other makes tables stores only its own, and both come back', async () => {
    const cacheDir = join(tmp.dir, 'cache');
    const runs: Record<string, number> = {};
    const stages = () => {
      const mSnapshotTaken = deferred();
      const bgMade = deferred();
      return [
        stage('stage_sources', async () => undefined, { reads: ['sources folder'], writes: ['stg_addressbase'], sources: SOURCES }),
        stage('a', async (c) => {
          runs.a = (runs.a ?? 0) + 1;
          await c.conn.run('CREATE TABLE t_a AS SELECT 1 AS k');
        }, { reads: ['stg_addressbase'], writes: ['t_a'], reuse: { today: false } }),
        // m's snapshot is taken before it runs; bg makes its tables (a working one too) after that, before m's ends.
        stage('m', async (c) => {
          runs.m = (runs.m ?? 0) + 1;
          mSnapshotTaken.resolve();
          await bgMade.promise;
          await c.conn.run('CREATE TABLE m_t AS SELECT k + 1 AS k FROM t_a');
          c.quality.m = 'm';
        }, { reads: ['t_a'], writes: ['m_t'], reuse: { today: false } }),
        stage('bg', async (c) => {
          runs.bg = (runs.bg ?? 0) + 1;
          await mSnapshotTaken.promise;
          await c.conn.run('CREATE TABLE x_work AS SELECT k * 10 AS k FROM t_a');
          await c.conn.run('CREATE TABLE x_out AS SELECT k + 1 AS k FROM x_work');
          c.quality.bg = 'bg';
          bgMade.resolve();
        }, { reads: ['t_a'], writes: ['x_out'], reuse: { today: false }, beside: { after: 'a', tables: /^x_/ } }),
      ];
    };
    const build = async () => {
      const ctx = await context(cacheDir);
      // Published, so kept to the end (working tables no later stage reads are dropped).
      ctx.published = [{ name: 'x_out' }, { name: 'm_t' }] as BuildContext['published'];
      const cache = (await StageOutputCache.open(ctx, 'code-1'))!;
      await runStages(ctx, stages(), cache, {});
      await cache.finish();
      return { ctx, stats: cache.stats };
    };
    const first = await build();
    expect(first.stats.computed.sort()).toEqual(['a', 'bg', 'm']);
    expect(first.stats.not_stored).toEqual({});
    const stored = join(cacheDir, 'stages');
    const entries = Object.fromEntries(readdirSync(stored).filter((n) => /^[0-9a-f]{64}$/.test(n)).map((n) => {
      const e = JSON.parse(readFileSync(join(stored, n, 'entry.json'), 'utf8')) as { stage: string; tables: { name: string }[] };
      return [e.stage, e.tables.map((t) => t.name).sort()];
    }));
    expect(entries).toEqual({ a: ['t_a'], m: ['m_t'], bg: ['x_out', 'x_work'] });

    const second = await build();
    expect(second.stats.reused.sort()).toEqual(['a', 'bg', 'm']);
    expect(runs).toEqual({ a: 1, m: 1, bg: 1 });
    expect(await tableNames(second.ctx)).toEqual(await tableNames(first.ctx));
    expect(await queryRows(second.ctx.conn, 'SELECT * FROM x_out')).toEqual([{ k: 11 }]);
    expect(Object.keys(second.ctx.quality)).toEqual(['m', 'bg']);
  }, 60_000);
});
