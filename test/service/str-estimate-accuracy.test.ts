import { describe, expect, it } from 'vitest';
import { stagedContext } from '../support/region.ts';
import { strEstimateAccuracy } from '../support/str-accuracy.ts';

/**
 * Leave-one-out accuracy of the STR estimate against the synthetic region's true revenue
 * (docs/str.md, "The estimate": 21.7% on 60,000 addresses with bench/str-estimate-accuracy.ts).
 * A small region here, so the bound is loose: it catches a broken model, not a 2-point drift.
 */
describe('STR estimate accuracy on the synthetic region', () => {
  it('median absolute error of annual revenue, leave-one-out, under 40%; no large bias', async () => {
    const ctx = await stagedContext(8000, 42);
    const acc = await strEstimateAccuracy(ctx.conn, ctx.sourcesDir);
    process.stdout.write(`STR estimate accuracy (8,000 addresses, seed 42): ${JSON.stringify(acc)}\n`);
    expect(acc.listings).toBeGreaterThanOrEqual(20);
    expect(acc.mdape_revenue_next12).toBeLessThan(0.4);
    expect(Math.abs(acc.median_error_revenue_next12)).toBeLessThan(0.25);
    expect(acc.mdape_adr_next12).toBeLessThan(0.3);
  }, 120_000);
});
