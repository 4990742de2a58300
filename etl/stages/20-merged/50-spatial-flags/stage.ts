import { computeFlags } from './flags.ts';
import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';

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
    ctx.quality.spatial_flags = await computeFlags(ctx.conn, 'addresses', { today: ctx.today });
    // The features themselves, for point queries and entry dates (GET /flood-risk, /planning/constraints).
    await sql.run(ctx.conn, 'planning_features', { today: ctx.today });
  },
};
