import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** UK HPI as loaded, for districts without enough sales of their own. */
export const ukhpiStage: Stage = {
  name: 'ukhpi',
  description: 'UK HPI by area and month as published (latest file wins)',
  reads: ['stg_ukhpi'],
  writes: ['ukhpi_monthly'],
  async run(ctx) {
    await sql.run(ctx.conn, 'mart_ukhpi_monthly');
  },
};
