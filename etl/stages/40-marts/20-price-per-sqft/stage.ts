import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Median £ per sq ft of recent sales by area, type and new build or resale. */
export const pricePerSqftStage: Stage = {
  name: 'price_per_sqft',
  description: '£ per sq ft of the last 24 months of sales (index-adjusted) by area, property type and new build/resale',
  reads: ['mart_recent_sales'],
  writes: ['price_per_sqft'],
  async run(ctx) {
    await sql.run(ctx.conn, 'mart_price_per_sqft');
  },
};
