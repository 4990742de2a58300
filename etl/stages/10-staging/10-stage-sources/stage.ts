import { join } from 'node:path';
import type { Stage } from '../../../pipeline/context.ts';
import { codeFingerprint } from '../../../pipeline/code-fingerprint.ts';
import { StageCache } from '../../../pipeline/stage-cache.ts';
import { stageSources } from './stage-sources.ts';
import { SOURCES } from '../../../sources/index.ts';

/**
 * The staging code's fingerprint, taken when this process loaded it: a long-running
 * scheduler whose files are replaced on disk keeps keying entries by the code it runs.
 */
const STAGING_CODE = codeFingerprint([join(import.meta.dirname, 'stage-sources.ts')]);

/** Reads every discovered source file into its `stg_*` table, or loads it from the staging cache. */
export const stageSourcesStage: Stage = {
  name: 'stage_sources',
  description: 'read every source file with its reader into a staging table, counting rejected rows by reason (unchanged files from the staging cache)',
  reads: ['sources folder', 'staging cache'],
  writes: [...new Set(SOURCES.map((s) => s.table))],
  sources: SOURCES,
  async run(ctx) {
    const cache = ctx.cache && await StageCache.open(ctx.conn, {
      dir: join(ctx.cache.dir, 'staging'), read: ctx.cache.read, log: ctx.log,
      code: STAGING_CODE, lazy: true,
    });
    if (cache) ctx.staged = cache;
    // A second connection: the TS-read files stage on the JS thread while DuckDB reads the bulk ones.
    const readerConn = await ctx.db.connect();
    try {
      ctx.sources = await stageSources(ctx.conn, ctx.files, ctx.today, ({ file, rows }) => ctx.progress(`stage_sources ${file}`, rows), cache, readerConn);
    } finally {
      readerConn.closeSync();
    }
    if (cache) ctx.quality.stage_cache = await cache.finish();
  },
};
