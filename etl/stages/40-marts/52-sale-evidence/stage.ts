import { join } from 'node:path';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder, streamSorted } from '../../../pipeline/sql.ts';
import { KeyedRowsWriter } from '../../../../lib/files/keyed-rows-file.ts';
import {
  SALE_EVIDENCE_CELL_M, SALE_EVIDENCE_COLUMNS, SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE, SALE_EVIDENCE_POSTCODE_COLUMNS, type SaleEvidenceExtra,
} from '../../../../lib/files/sale-evidence-file.ts';
import { CELL_KEY_PARAMS, cellKeyOfMetres } from '../../../../lib/geo/grid-cells.ts';
import { localMetres } from '../../../../lib/geo/points.ts';
import {
  AGE_BANDS, SALE_MODEL, ageCode, groupEffects, indexLookupOf, locationLevel, sizeTypeLevel, typeEffects, type IndexLookup,
} from '../../../../lib/valuation/sale-model.ts';
import { valuationSql } from '../../../../lib/valuation/valuation-sql.ts';
import { dropHomeKeys, homeKeys } from '../../30-serving/home-keys/home-keys.ts';
import { streamColumns, type ColumnChunk } from '../../30-serving/stream-columns.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** A sale of the evidence as the view gives it (columns in sale_evidence_*.sql's order, after `cell`). */
interface EvidenceSale {
  uprn: number;
  month: number;
  latest: number;
  /** NaN without a position. */
  x: number;
  y: number;
  type: number;
  /** NaN unknown. */
  area: number;
  age: number;
  postcodeId: number;
  /** Log price brought to the index's last month; null when no area index of the home's path has a series. */
  logValue: number | null;
}

/**
 * Writes the sale valuer's evidence (lib/files/sale-evidence-file.ts): every sale the in-heap
 * model would hold, brought to the build's last index month, by grid cell and by postcode, with
 * the type and age effects in the meta, so the service reads the sales near a home where they
 * lie and opens without reading any (issue 46, ADR 0015 step 6). After the price index (its
 * growth) and beside the marts: a serving file that needs a mart.
 */
export const saleEvidenceStage: Stage = {
  name: 'sale-evidence',
  description: 'the sale valuer\'s evidence (every sale brought to the last index month) by grid cell and by postcode',
  reads: ['sales', 'properties', 'price_index_monthly'],
  writes: [SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE],
  async run(ctx) {
    await writeSaleEvidence(ctx);
  },
};

export async function writeSaleEvidence(ctx: BuildContext, cellM = SALE_EVIDENCE_CELL_M): Promise<void> {
  const t0 = performance.now();
  const ix = await queryRows(ctx.conn, valuationSql('valuation_index'));
  const { lookup, end } = indexLookupOf({
    area_level: ix.map((r) => String(r.area_level)), area_code: ix.map((r) => String(r.area_code)), month_no: ix.map((r) => Number(r.month_no)),
    log_index: ix.map((r) => Number(r.log_index)), enough_sales: ix.map((r) => r.enough_sales === true),
  });
  const beta = SALE_MODEL.sizeBeta;
  try {
    const keys = await homeKeys(ctx.conn);
    const homes: HomeKeys = { series: keys.paths.map((p) => lookup.seriesFor(p)), ageCodes: keys.ages.map(ageCode) };
    await sql.run(ctx.conn, 'sale_evidence_table');
    // The effects, from every sale with a floor area, by the model's own functions. Held in typed
    // arrays of the sized sales' count (22 bytes a sale; 30M homes have tens of millions).
    const most = Number((await queryRows(ctx.conn, sql.text('sale_evidence_sized_count')))[0]!.n);
    const held = { areaSqft: new Float64Array(most), type: new Uint8Array(most), group: new Int32Array(most), logValue: new Float64Array(most), age: new Uint8Array(most) };
    let sales = 0;
    let n = 0;
    for await (const s of evidenceSales(ctx, 'sale_evidence_all', lookup, homes, 0, undefined)) {
      if (s.sale.logValue === null) continue;
      sales++;
      if (!(s.sale.area > 0)) continue;
      if (n === most) throw new Error(`sale-evidence: more sales with a floor area than sale_evidence_sized_count's ${most}`);
      held.areaSqft[n] = s.sale.area; held.type[n] = s.sale.type; held.group[n] = s.path; held.logValue[n] = s.sale.logValue; held.age[n] = s.sale.age;
      n++;
    }
    const sized = { areaSqft: held.areaSqft.subarray(0, n), type: held.type.subarray(0, n), group: held.group.subarray(0, n), logValue: held.logValue.subarray(0, n), age: held.age.subarray(0, n) };
    const typeLog = typeEffects(sized, beta);
    // Each sale's level replaces its log value in place (the log value is not read again).
    const level = sized.logValue;
    for (let i = 0; i < n; i++) level[i] = sizeTypeLevel(level[i]!, sized.areaSqft[i]!, sized.type[i]!, typeLog, beta);
    const ageLog = groupEffects(sized.group, sized.age, AGE_BANDS.length, level);
    const z = (s: EvidenceSale) => locationLevel(sizeTypeLevel(s.logValue!, s.area, s.type, typeLog, beta), s.age, ageLog);

    const extra: SaleEvidenceExtra = { kind: 'sale-evidence', cell_m: cellM, as_of_month: end, size_beta: beta, type_log: [...typeLog], age_log: [...ageLog], sales };
    const byCell = new KeyedRowsWriter(join(ctx.buildDir, SALE_EVIDENCE_FILE), {
      key: { name: 'cell', kind: 'num' }, columns: [...SALE_EVIDENCE_COLUMNS], unique: false, extra: extra as unknown as Record<string, unknown>,
    });
    let cells: ReturnType<KeyedRowsWriter['finish']>;
    try {
      for await (const { sale: s, cell } of evidenceSales(ctx, 'sale_evidence_by_cell', lookup, homes, 1, { cell_m: cellM, ...CELL_KEY_PARAMS }, true)) {
        if (s.logValue === null) continue;
        // DuckDB sorted by its own reckoning of the cell; the reader reckons in JavaScript.
        if (cellKeyOfMetres(s.x, s.y, cellM) !== cell) throw new Error(`sale-evidence: DuckDB put UPRN ${s.uprn} in cell ${cell}, JavaScript in ${cellKeyOfMetres(s.x, s.y, cellM)}`);
        byCell.add(cell, [s.x, s.y, s.uprn, s.month, s.logValue, z(s), s.type, s.latest]);
      }
      cells = byCell.finish();
    } finally {
      byCell.discard();
    }
    const byPostcode = new KeyedRowsWriter(join(ctx.buildDir, SALE_EVIDENCE_POSTCODES_FILE), {
      key: { name: 'postcode_id', kind: 'num' }, columns: [...SALE_EVIDENCE_POSTCODE_COLUMNS], unique: false, extra: { kind: 'sale-evidence-postcodes', as_of_month: end },
    });
    let postcodes: ReturnType<KeyedRowsWriter['finish']>;
    try {
      for await (const { sale: s } of evidenceSales(ctx, 'sale_evidence_by_postcode', lookup, homes, 0, undefined, true)) {
        if (s.logValue !== null) byPostcode.add(s.postcodeId, [s.uprn, s.month, z(s)]);
      }
      postcodes = byPostcode.finish();
    } finally {
      byPostcode.discard();
    }
    ctx.artifacts.sale_evidence = { file: SALE_EVIDENCE_FILE, description: 'the sale valuer\'s evidence by grid cell, with the type and age effects (format: lib/files/sale-evidence-file.ts)' };
    ctx.artifacts.sale_evidence_postcodes = { file: SALE_EVIDENCE_POSTCODES_FILE, description: 'the sale valuer\'s evidence with floor areas by postcode id (format: lib/files/sale-evidence-file.ts)' };
    ctx.log.info({ stage: 'sale-evidence', sales, cells, postcodes, type_log: extra.type_log, ms: Math.round(performance.now() - t0) }, 'sale evidence written');
  } finally {
    await sql.run(ctx.conn, 'sale_evidence_table_drop');
    await dropHomeKeys(ctx.conn);
  }
}

/** The homes' area paths' index series and age bands' codes, by the ids sale_evidence_t carries (home-keys.ts). */
interface HomeKeys {
  series: (Float64Array | null)[];
  ageCodes: number[];
}

/**
 * The sales of query `name` (`params` bound; `skip` leading columns before `uprn`: the cell), each with its
 * home's inputs as the in-heap model reads them, its log value today, and its home's path id
 * (the type and age effects' group). A `sorted` query is read by way of a table (`streamSorted`:
 * its sort spills there, streamed it may not).
 */
async function* evidenceSales(
  ctx: BuildContext, name: string, lookup: IndexLookup, homes: HomeKeys, skip: number, params: Record<string, number> | undefined, sorted = false,
): AsyncGenerator<{ sale: EvidenceSale; cell: number; path: number }> {
  const chunks = sorted ? sortedColumns(ctx, name, params) : streamColumns(ctx.db, sql.text(name), params);
  for await (const { rows, columns } of chunks) {
    const c = (i: number) => columns[skip + i]!;
    for (let r = 0; r < rows; r++) {
      const [lat, lng] = [c(4)[r], c(5)[r]];
      const [x, y] = lat === null || lat === undefined || lng === null || lng === undefined ? [NaN, NaN] : localMetres(Number(lat), Number(lng));
      const path = Number(c(10)[r]);
      const month = Number(c(2)[r]);
      const series = homes.series[path];
      const area = c(7)[r];
      yield {
        cell: skip ? Number(columns[0]![r]) : NaN,
        path,
        sale: {
          uprn: Number(c(0)[r]), month, latest: c(3)[r] === true ? 1 : 0, x, y, type: Number(c(6)[r]), area: area === null || area === undefined ? NaN : Number(area),
          age: homes.ageCodes[Number(c(8)[r])]!, postcodeId: Number(c(9)[r]), logValue: series ? Math.log(Number(c(1)[r])) + lookup.growthAlong(series, month) : null,
        },
      };
    }
  }
}

/** Query `name`'s chunks as columns, sorted into a table first (`streamSorted`). */
async function* sortedColumns(ctx: BuildContext, name: string, params: Record<string, number> | undefined): AsyncGenerator<ColumnChunk> {
  for await (const { chunk } of streamSorted(ctx.db, ctx.conn, `sorted_${name}`, sql.text(name), params)) yield { rows: chunk.rowCount, columns: chunk.getColumns() };
}
