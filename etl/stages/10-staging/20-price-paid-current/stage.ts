import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Price Paid as it stands: the monthly files' A (add), C (change) and D (delete) records
 * applied in file order. Staging's work (one source's files made into its current rows), so
 * the matcher and the sales stage read `ppd_current` rather than the raw staged records.
 */
export const pricePaidCurrentStage: Stage = {
  name: 'ppd_current',
  description: 'apply the monthly Price Paid records (A add, C change, D delete) in file order: the sales as they stand',
  reads: ['stg_price_paid'],
  writes: ['ppd_current'],
  async run(ctx) {
    await sql.run(ctx.conn, 'ppd_current');
  },
};
