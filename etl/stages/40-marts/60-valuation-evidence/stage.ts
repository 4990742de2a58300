import { MIN_HMO_YIELD_SALES } from '../../../../schemas/tables/valuation.ts';
import type { Stage } from '../../../pipeline/context.ts';
import { sqlFolder } from '../../../pipeline/sql.ts';
import { windowEnd } from '../../../pipeline/source-as-of.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Evidence tables of the HMO, development GDV and long-term rent endpoints
 * (docs/valuation-rental-hmo.md, docs/valuation-gdv-rents.md): lets and recent sales one row each, with positions, so the service
 * can aggregate them by any area or radius; and the area HMO yields.
 */

export const valuationEvidenceStage: Stage = {
  name: 'valuation_evidence',
  description: 'lets of the last 24 months and floor-area-matched sales of the last 36 months with positions; area HMO yields',
  reads: ['stg_rental_evidence', 'properties', 'postcodes', 'sales', 'price_index_monthly', 'rents_rooms'],
  writes: ['rent_lets', 'sqft_sales', 'hmo_yields_area'],
  async run(ctx) {
    await sql.run(ctx.conn, 'valuation_rent_lets', { window_end: windowEnd(ctx.sources, 'rental_evidence', ctx.today).date });
    await sql.run(ctx.conn, 'valuation_sqft_sales', { window_end: windowEnd(ctx.sources, 'price_paid', ctx.today).date });
    await sql.run(ctx.conn, 'valuation_hmo_yields', { min_sales: MIN_HMO_YIELD_SALES });
  },
};
