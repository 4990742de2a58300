import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Accuracy against ground truth, when the sources folder has one (the synthetic region
 * writes `truth/`; real sources have none and this stage records that it was skipped).
 */
export const qualityStage: Stage = {
  name: 'quality',
  description: 'matching precision and recall and the bedrooms rule against ground truth, when present',
  reads: ['sale_matches', 'properties', 'addresses', 'truth/*.csv'],
  writes: [],
  async run(ctx) {
    const salesTruth = join(ctx.sourcesDir, 'truth', 'sales.csv');
    const propsTruth = join(ctx.sourcesDir, 'truth', 'properties.csv');
    if (!existsSync(salesTruth)) {
      ctx.quality.ground_truth = 'none in the sources folder: accuracy not measured';
      return;
    }
    const [m] = await queryRows(ctx.conn, sql.text('quality_sale_matching'), { truth_sales: salesTruth });
    const matched = Number(m?.matched ?? 0);
    const correct = Number(m?.correct ?? 0);
    const matchable = Number(m?.matchable ?? 0);
    ctx.matchRates.sale_match_precision = matched > 0 ? correct / matched : 0;
    ctx.matchRates.sale_match_recall = matchable > 0 ? correct / matchable : 0;
    ctx.quality.sale_matching = { sales: Number(m?.sales ?? 0), matched, correct, matchable };
    if (existsSync(propsTruth)) {
      const [b] = await queryRows(ctx.conn, sql.text('quality_bedrooms_rule'), { truth_properties: propsTruth });
      const compared = Number(b?.compared ?? 0);
      ctx.quality.bedrooms_rule = { compared, exact_share: compared > 0 ? Number(b?.exact) / compared : null };
      if ((ctx.quality.address_source as { kind?: string } | undefined)?.kind === 'open_data') {
        const [o] = await queryRows(ctx.conn, sql.text('quality_open_addresses'), { truth_properties: propsTruth });
        const n = (k: string) => Number(o?.[k] ?? 0);
        ctx.quality.open_data_truth = {
          true_homes: n('true_homes'), homes_with_address: n('homes_with_address'), share_with_address: n('true_homes') > 0 ? n('homes_with_address') / n('true_homes') : null,
          addresses_not_true_homes: n('addresses_not_true_homes'), postcode_agrees: n('postcode_agrees'),
        };
      }
    }
  },
};
