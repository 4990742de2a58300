import type { Stage } from '../../../pipeline/context.ts';
import { runSql } from '../../../pipeline/sql.ts';

/** The sales history of every UPRN, and the sales that could not be placed. */
export const salesStage: Stage = {
  name: 'sales',
  description: 'matched sales by UPRN (history mart) and unmatched sales with their reason',
  reads: ['ppd_current', 'sale_matches'],
  writes: ['sales', 'sales_unmatched'],
  async run(ctx) {
    await runSql(ctx.conn, 'sales');
    await runSql(ctx.conn, 'sales_unmatched');
  },
};
