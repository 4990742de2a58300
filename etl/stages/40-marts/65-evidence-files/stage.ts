import type { Stage } from '../../../pipeline/context.ts';
import type { BuildContext } from '../../../pipeline/context.ts';
import { streamSorted } from '../../../pipeline/sql.ts';
import { EVIDENCE_FILES, type RentLetsMeta } from '../../../../lib/files/evidence-files.ts';
import { lookupSql } from '../../../../lib/files/lookup-tables-format.ts';
import { RentLetsSummary } from '../../../../lib/valuation/rent-growth.ts';
import { writeLookupFile } from '../../30-serving/write-lookup-file.ts';

/**
 * Writes the rent lets (by grid cell and by area), the sales with a floor area and the placed
 * postcodes (by grid cell) as keyed-rows files, so the service searches them where they lie
 * instead of holding them in R-trees in every process (issue 46, ADR 0015 step 6). Serving
 * files like 30-serving's, here because the valuation evidence and postcode marts make their rows.
 */
export const evidenceFilesStage: Stage = {
  name: 'evidence-files',
  description: 'rent lets, floor-area sales and postcode points by grid cell, rent lets by area, written as keyed-rows files (rent-lets*.rows, sqft-sales.rows, postcode-points.rows)',
  reads: ['rent_lets', 'properties', 'sqft_sales', 'postcodes'],
  writes: [EVIDENCE_FILES.rentLets.file, EVIDENCE_FILES.rentLetAreas.file, EVIDENCE_FILES.sqftSales.file, EVIDENCE_FILES.postcodePoints.file],
  async run(ctx) {
    const meta: RentLetsMeta = { ...(await rentLetsFigures(ctx)) };
    await writeLookupFile(ctx, EVIDENCE_FILES.rentLets, { as_of: meta.as_of, growth_per_month: meta.growth_per_month });
    await writeLookupFile(ctx, EVIDENCE_FILES.rentLetAreas);
    await writeLookupFile(ctx, EVIDENCE_FILES.sqftSales);
    await writeLookupFile(ctx, EVIDENCE_FILES.postcodePoints);
  },
};

/**
 * The lets' as-of and growth from the rows of rents_lets_all in its order, as the service
 * computes them for a build without the file (one text, one function: the same double),
 * folded a let at a time (a 30M build has 8M lets).
 */
async function rentLetsFigures(ctx: BuildContext): Promise<RentLetsMeta> {
  const summary = new RentLetsSummary();
  for await (const { chunk, names } of streamSorted(ctx.db, ctx.conn, 'sorted_rents_lets_all', lookupSql('rents_lets_all'))) {
    const cols = chunk.getColumns();
    const at = (n: string) => cols[names.indexOf(n)]!;
    const [sector, type, beds, rent, date] = ['sector', 'property_type', 'bedrooms', 'rent_pcm', 'let_date'].map(at);
    for (let i = 0; i < chunk.rowCount; i++) {
      summary.add({ sector: sector![i] as string | null, property_type: type![i] as string, bedrooms: Number(beds![i]), rent_pcm: Number(rent![i]), let_date: date![i] as string });
    }
  }
  const { asOf, growthPerMonth } = summary.result();
  return { as_of: asOf, growth_per_month: growthPerMonth };
}
