import type { Stage } from '../../../pipeline/context.ts';
import { runSql } from '../../../pipeline/sql.ts';

/** The postcode directory. */
export const postcodesStage: Stage = {
  name: 'postcodes',
  description: 'one row per postcode from ONSPD and Code-Point (ONSPD wins) with address counts and the 5-year median price',
  reads: ['stg_onspd', 'stg_codepoint', 'addresses', 'sales'],
  writes: ['postcodes'],
  async run(ctx) {
    await runSql(ctx.conn, 'mart_postcodes', { today: ctx.today });
  },
};
