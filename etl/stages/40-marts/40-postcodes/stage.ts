import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';
import { windowEnd } from '../../../pipeline/source-as-of.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * The postcode directory, and its places (`postcode_places`: the directory without the
 * sales) for the stages that place things by postcode without depending on Price Paid.
 */
export const postcodesStage: Stage = {
  name: 'postcodes',
  description: 'one row per postcode from ONSPD and Code-Point (ONSPD wins) with address counts and the 5-year median price',
  reads: ['stg_onspd', 'stg_codepoint', 'addresses', 'sales', 'sales_unmatched'],
  writes: ['postcode_places', 'postcodes'],
  derives: { postcode_places: ['stg_onspd', 'stg_codepoint', 'addresses'] },
  async run(ctx) {
    await sql.run(ctx.conn, 'mart_postcode_places');
    await sql.run(ctx.conn, 'mart_postcodes', { window_end: windowEnd(ctx.sources, 'price_paid', ctx.today).date });
  },
};
