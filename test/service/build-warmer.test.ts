/**
 * The server opens a newly published build's resources in the background (service/build/warmer.ts),
 * so after a swap no request waits for an index or a model to load.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { cpSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Lazy } from '../../service/build/lazy.ts';
import type { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource } from '../../service/build/source.ts';
import { startBuildWarmer } from '../../service/build/warmer.ts';
import { createLogger } from '../../service/log.ts';
import { beginBuild, promoteBuild, readManifest, writeManifest } from '../../etl/publish/publish.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-warmer-');
afterAll(tmp.cleanup);

/** Every Lazy field of the resources object, found by looking at it (not through its own `all` list). */
const lazyFields = (r: BuildResources) => Object.values(r).filter((v): v is Lazy<unknown> => v instanceof Lazy);

/** Each resource of the build opened (every one: a build of the synthetic region has every table). */
async function expectAllOpen(r: BuildResources): Promise<void> {
  const fields = lazyFields(r);
  expect(fields.length).toBeGreaterThanOrEqual(21);
  expect(new Set(r.all), 'every resource field is in the warm list').toEqual(new Set(fields));
  for (const f of fields) expect(await f.isOpen(), f.name).toBe(true);
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('build warmer', () => {
  it('opens every per-build resource of the current build, and of each new build when it is published, without a request', async () => {
    const dataDir = join(tmp.dir, 'data');
    await publishSynthBuild(dataDir, { addresses: 1000, seed: 3 });
    const logs: string[] = [];
    const warmer = startBuildWarmer(fileDataSource(dataDir), createLogger('info', { write: (l: string) => void logs.push(l) }), 100, 50);
    try {
      await warmer.idle();
      const first = realpathSync(join(dataDir, 'current'));
      const a = warmer.resources()!;
      expect(a.build.dir).toBe(first);
      expect(warmer.current()?.dir).toBe(first);
      await expectAllOpen(a);

      await publishSynthBuild(dataDir, { addresses: 1000, seed: 3 });
      const second = realpathSync(join(dataDir, 'current'));
      expect(second).not.toBe(first);
      // Requests stay on the first build until every resource of the second is open, then move at once.
      expect(warmer.resources()).toBe(a);
      await until(() => warmer.current()?.dir !== first, 30_000);
      const b = warmer.resources()!;
      expect(b.build.dir).toBe(second);
      await expectAllOpen(b);
      // The first build's resources are closed after the grace period (here 50 ms).
      await new Promise((r) => setTimeout(r, 200));
      await expect(a.store.get()).rejects.toThrow(/closed/);
      await warmer.idle();
      const warmed = logs.map((l) => JSON.parse(l) as { msg: string; build_id?: string }).filter((l) => l.msg === 'build warmed');
      expect(warmed).toHaveLength(2);
    } finally {
      await warmer.close();
    }
  }, 120_000);

  it('refuses a build whose tables do not match their contracts, with one log line, and the previous build keeps serving', async () => {
    const dataDir = join(tmp.dir, 'refuse');
    await publishSynthBuild(dataDir, { addresses: 1000, seed: 3 });
    const logs: string[] = [];
    const warmer = startBuildWarmer(fileDataSource(dataDir), createLogger('info', { write: (l: string) => void logs.push(l) }), 100, 50);
    try {
      await warmer.idle();
      const first = realpathSync(join(dataDir, 'current'));
      expect(warmer.current()?.dir).toBe(first);

      // A copy of the good build, published under a new id with sales.match_score dropped.
      const bad = await beginBuild(dataDir, new Date(Date.now() + 60_000));
      for (const f of readdirSync(first)) cpSync(join(first, f), join(bad.dir, f), { recursive: true });
      const db = await DuckDBInstance.create(':memory:');
      const conn = await db.connect();
      await conn.run(`COPY (SELECT * EXCLUDE (match_score) FROM read_parquet('${join(first, 'sales.parquet')}')) TO '${join(bad.dir, 'sales.parquet')}' (FORMAT parquet)`);
      conn.closeSync();
      const m = await readManifest(first);
      rmSync(join(bad.dir, 'manifest.json'));
      await writeManifest(bad.dir, { ...m, build_id: bad.id, tables: { ...m.tables, sales: { ...m.tables.sales!, bytes: statSync(join(bad.dir, 'sales.parquet')).size } } });
      await promoteBuild(dataDir, bad.id);
      expect(realpathSync(join(dataDir, 'current'))).not.toBe(first);

      const refusals = () => logs.map((l) => JSON.parse(l) as { msg: string; build_id?: string; mismatches?: string[] }).filter((l) => l.msg.startsWith('build refused'));
      await until(() => refusals().length > 0, 30_000);
      await warmer.idle();
      expect(refusals()).toEqual([expect.objectContaining({ build_id: bad.id, mismatches: ['sales.match_score: missing (contract: DOUBLE)'] })]);
      expect(warmer.current()?.dir).toBe(first);
      await new Promise((r) => setTimeout(r, 400)); // later ticks do not try it again
      expect(refusals()).toHaveLength(1);
      expect(await warmer.resources()!.store.isOpen()).toBe(true);
    } finally {
      await warmer.close();
    }
  }, 120_000);
});
