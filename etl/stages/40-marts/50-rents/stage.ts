import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';
import { windowEnd } from '../../../pipeline/source-as-of.ts';
import { MIN_LETS, MIN_YIELD_SALES } from '../../../../schemas/tables/market.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Rents by area and bedrooms, room rents and gross yields. */
export const rentsStage: Stage = {
  name: 'rents',
  description: 'long-term rents by area and bedrooms, room rents (ONS district fallback where evidence is thin), gross yields',
  reads: ['stg_rental_evidence', 'stg_ons_rents', 'postcodes', 'mart_recent_sales'],
  writes: ['rents_area', 'rents_rooms', 'yields_area'],
  async run(ctx) {
    await sql.run(ctx.conn, 'mart_rent_lets', { window_end: windowEnd(ctx.sources, 'rental_evidence', ctx.today).date });
    await sql.run(ctx.conn, 'mart_area_la');
    await sql.run(ctx.conn, 'mart_rents_area', { min_lets: MIN_LETS });
    await sql.run(ctx.conn, 'mart_rents_rooms', { min_lets: MIN_LETS });
    await sql.run(ctx.conn, 'mart_yields_area', { min_sales: MIN_YIELD_SALES });
  },
};
