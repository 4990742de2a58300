import { join } from 'node:path';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { sqlFolder, streamSorted } from '../../../pipeline/sql.ts';
import { KeyedRowsWriter } from '../../../../lib/files/keyed-rows-file.ts';
import { VALUATION_HOMES_COLUMNS, VALUATION_HOMES_FILE, type ValuationHomesExtra } from '../../../../lib/files/valuation-homes-file.ts';
import { dropHomeKeys, homeKeys } from '../home-keys/home-keys.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Writes the sale valuer's per-home inputs by UPRN (lib/files/valuation-homes-file.ts), so a
 * valuation reads its home's page instead of every process holding every home's inputs
 * (issue 46, ADR 0015 step 4).
 */
export const valuationHomesStage: Stage = {
  name: 'valuation-homes',
  description: 'the sale valuer\'s per-home inputs by UPRN written as valuation-homes.rows',
  reads: ['properties'],
  writes: [VALUATION_HOMES_FILE],
  async run(ctx) {
    await writeValuationHomes(ctx);
  },
};

export async function writeValuationHomes(ctx: BuildContext): Promise<void> {
  const t0 = performance.now();
  const keys = await homeKeys(ctx.conn);
  const extra: ValuationHomesExtra = { kind: 'valuation-homes', paths: keys.paths.map((p) => [p.sector, p.outcode, p.district, p.country]), ages: keys.ages };
  const w = new KeyedRowsWriter(join(ctx.buildDir, VALUATION_HOMES_FILE), {
    key: { name: 'uprn', kind: 'num' }, columns: [...VALUATION_HOMES_COLUMNS], unique: true, extra: extra as unknown as Record<string, unknown>,
  });
  let result: ReturnType<KeyedRowsWriter['finish']>;
  try {
    for await (const { chunk } of streamSorted(ctx.db, ctx.conn, 'sorted_valuation_homes', sql.text('valuation_homes_rows'))) {
      const c = chunk.getColumns();
      for (let r = 0; r < chunk.rowCount; r++) {
        w.add(Number(c[0]![r]), [
          numOrNull(c[1]![r]), numOrNull(c[2]![r]), Number(c[3]![r]), numOrNull(c[4]![r]), numOrNull(c[5]![r]), numOrNull(c[6]![r]),
          Number(c[7]![r]), Number(c[8]![r]), Number(c[9]![r]), textOrNull(c[10]![r]),
        ]);
      }
    }
    result = w.finish();
  } finally {
    w.discard();
    await dropHomeKeys(ctx.conn);
  }
  ctx.artifacts.valuation_homes = { file: VALUATION_HOMES_FILE, description: 'the sale valuer\'s per-home inputs by UPRN (format: lib/files/valuation-homes-file.ts)' };
  ctx.log.info({ stage: 'valuation-homes', ...result, paths: extra.paths.length, ms: Math.round(performance.now() - t0) }, 'valuation homes written');
}
