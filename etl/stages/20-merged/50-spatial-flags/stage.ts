import { computeFlags } from './flags.ts';
import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';
import { sourceAsOfs } from '../../../pipeline/source-as-of.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Flood, conservation, Article 4 and listed-building flags by point-in-polygon. */
export const flagsStage: Stage = {
  name: 'spatial_flags',
  description: 'point-in-polygon of every UPRN against the planning layers in force (spatial index)',
  reads: ['addresses', 'stg_planning'],
  writes: ['uprn_flags', 'uprn_designations', 'planning_features'],
  reuse: { today: true },
  async run(ctx) {
    // In force on the layer's as-of (its latest date of any kind, not after the build date: the
    // same features as on the build date, but a later build of the same files answers the same).
    const on = sourceAsOfs(ctx.sources).planning?.date ?? ctx.today;
    ctx.quality.spatial_flags = await computeFlags(ctx.conn, 'addresses', { today: on });
    // The features themselves, for point queries and entry dates (GET /flood-risk, /planning/constraints).
    await sql.run(ctx.conn, 'planning_features', { today: on });
  },
};
