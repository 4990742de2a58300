import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The sales history of every UPRN, and the sales that could not be placed. */
export const salesStage: Stage = {
  name: 'sales',
  description: 'matched sales by UPRN (history mart) and unmatched sales with their reason',
  reads: ['ppd_current', 'sale_matches', 'stg_onspd'],
  writes: ['sales', 'sales_unmatched'],
  async run(ctx) {
    await sql.run(ctx.conn, 'sales');
    await sql.run(ctx.conn, 'sales_unmatched');
    const [c] = await queryRows(ctx.conn, sql.text('sales_coverage'));
    ctx.quality.sales_coverage = Object.fromEntries(Object.entries(c ?? {}).map(([k, v]) => [k, Number(v)]));
  },
};
