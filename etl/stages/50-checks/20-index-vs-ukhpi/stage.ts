import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { INDEX_CHECK } from '../../../../schemas/tables/market.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Nothing else guards the repeat-sales index (issue 48): each district's own index change is
 * set beside UK HPI's over the same months, and a gap over the tolerance is flagged in the
 * manifest (`quality.index_vs_ukhpi`), where the service reads it: a flagged district's index
 * carries no High valuation.
 */
export const indexCheckStage: Stage = {
  name: 'index_vs_ukhpi',
  description: `each district's repeat-sales index change against UK HPI over ${INDEX_CHECK.windowMonths} months; gaps over ${INDEX_CHECK.tolerancePp} points flagged`,
  reads: ['price_index_monthly', 'ukhpi_monthly'],
  writes: [],
  async run(ctx) {
    const rows = await queryRows(ctx.conn, sql.text('check_index_vs_ukhpi'), { window_months: INDEX_CHECK.windowMonths, tolerance_pp: INDEX_CHECK.tolerancePp });
    const round = (v: unknown, k: number) => (v === null ? null : Math.round(Number(v) * 10 ** k) / 10 ** k);
    const districts = rows.map((r) => ({
      district: String(r.district), from: String(r.start_month), to: String(r.end_month), repeat_pairs: Number(r.repeat_pairs),
      index_change: round(r.index_change, 4), ukhpi_change: round(r.ukhpi_change, 4), gap_pp: round(r.gap_pp, 2), flagged: r.flagged === true,
    }));
    ctx.quality.index_vs_ukhpi = {
      tolerance_pp: INDEX_CHECK.tolerancePp,
      window_months: INDEX_CHECK.windowMonths,
      compared: districts.length,
      flagged: districts.filter((d) => d.flagged).map((d) => d.district),
      districts,
    };
  },
};
