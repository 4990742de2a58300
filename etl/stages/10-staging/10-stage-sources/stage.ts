import type { Stage } from '../../../pipeline/context.ts';
import { stageSources } from './stage-sources.ts';
import { STAGING_SPECS } from './specs/index.ts';

/** Reads every discovered source file into its `stg_*` table. */
export const stageSourcesStage: Stage = {
  name: 'stage_sources',
  description: 'read every source file with its reader into a staging table, counting rejected rows by reason',
  reads: ['sources folder'],
  writes: [...new Set(STAGING_SPECS.map((s) => s.table))],
  async run(ctx) {
    ctx.sources = await stageSources(ctx.conn, ctx.files, ctx.today, ({ file, rows }) => ctx.progress(`stage_sources ${file}`, rows));
  },
};
