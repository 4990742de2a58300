import { join } from 'node:path';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { COMPARABLES_CELL_M, COMPARABLES_COLUMNS, COMPARABLES_FILE, COMP_TYPES, type ComparablesExtra } from '../../../../lib/files/comparables-file.ts';
import { KeyedRowsWriter } from '../../../../lib/files/keyed-rows-file.ts';
import { CELL_KEY_PARAMS, cellKeyOf } from '../../../../lib/geo/grid-cells.ts';
import { streamColumns } from '../stream-columns.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

type Path = ComparablesExtra['paths'][number];
const pathKey = (p: readonly unknown[]) => JSON.stringify(p);
const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * Writes the comparables file (lib/files/comparables-file.ts): every standard sale of a located
 * home by grid cell, so GET /prices/comparables reads the cells around its point where they lie
 * instead of every process holding all sales in an R-tree (issue 46, ADR 0015 step 4).
 */
export const comparablesStage: Stage = {
  name: 'comparables',
  description: 'the comparables file (standard sales of located homes by grid cell) written as comparables.rows',
  reads: ['sales', 'properties'],
  writes: [COMPARABLES_FILE],
  async run(ctx) {
    await writeComparables(ctx, COMPARABLES_CELL_M);
  },
};

/** Writes the file with cells of `cellM` metres (a bench compares sizes). */
export async function writeComparables(ctx: BuildContext, cellM: number, file = join(ctx.buildDir, COMPARABLES_FILE)): Promise<void> {
  const t0 = performance.now();
  const paths: Path[] = (await queryRows(ctx.conn, sql.text('comparables_paths'))).map((r) => [textOrNull(r.sector), textOrNull(r.outcode), textOrNull(r.la_code), textOrNull(r.country)]);
  const pathId = new Map(paths.map((p, i) => [pathKey(p), i]));
  const extra: ComparablesExtra = { kind: 'comparables', cell_m: cellM, paths };
  const w = new KeyedRowsWriter(file, { key: { name: 'cell', kind: 'num' }, columns: [...COMPARABLES_COLUMNS], unique: false, extra: extra as unknown as Record<string, unknown> });
  let result: ReturnType<KeyedRowsWriter['finish']>;
  try {
    for await (const { rows, columns: c } of streamColumns(ctx.db, sql.text('comparables_rows'), { cell_m: cellM, ...CELL_KEY_PARAMS })) {
      for (let r = 0; r < rows; r++) {
        const [lat, lng] = [Number(c[5]![r]), Number(c[6]![r])];
        const cell = Number(c[0]![r]);
        // DuckDB sorted by its own reckoning of the cell; the reader computes it in JavaScript.
        if (cellKeyOf(lat, lng, cellM) !== cell) throw new Error(`comparables: DuckDB put (${lat}, ${lng}) in cell ${cell}, JavaScript in ${cellKeyOf(lat, lng, cellM)}`);
        const path = pathId.get(pathKey([c[10]![r], c[11]![r], c[12]![r], c[13]![r]].map(textOrNull)));
        if (path === undefined) throw new Error(`comparables: sale of UPRN ${String(c[1]![r])} has an area path comparables_paths did not list`);
        const type = Math.max(0, COMP_TYPES.indexOf(textOrNull(c[7]![r]) as never));
        const [beds, area] = [numOrNull(c[8]![r]), numOrNull(c[9]![r])];
        w.add(cell, [Number(c[1]![r]), Number(c[2]![r]), Number(c[3]![r]), Number(c[4]![r]), lat, lng, type, beds ?? -1, area ?? NaN, path]);
      }
    }
    result = w.finish();
  } finally {
    w.discard();
  }
  ctx.artifacts.comparables = { file: COMPARABLES_FILE, description: 'standard sales of located homes by grid cell (format: lib/files/comparables-file.ts)' };
  ctx.log.info({ stage: 'comparables', ...result, paths: paths.length, cell_m: cellM, ms: Math.round(performance.now() - t0) }, 'comparables written');
}
