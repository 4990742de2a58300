import type { KeyedRowsMeta } from './keyed-rows-file.ts';

/**
 * The sale valuer's evidence (issue 46, ADR 0015 step 6): every sale the in-heap model would
 * hold (service/domain/valuation-models/sale.ts, `SaleEvidence`), brought to the build's last
 * index month by the ETL, in two keyed-rows files read where they lie instead of typed arrays
 * and an R-tree in each process:
 *  - `SALE_EVIDENCE_FILE`, keyed by the home's grid cell (lib/geo/grid-cells.ts): the located
 *    homes' sales, for the nearest-k searches (lib/geo/cell-nearest.ts);
 *  - `SALE_EVIDENCE_POSTCODES_FILE`, keyed by the home's postcode id (valuation-homes.rows'
 *    numbering): the sales with a floor area, for the £/sq ft estimate's same-postcode rung.
 * The type and age effects (a median over every sale) are computed by the ETL with the
 * model's own functions (lib/valuation/sale-model.ts) and kept in the meta, so opening reads
 * no sale. Every column is a number (no nulls): a row's values lie at fixed offsets.
 */
export const SALE_EVIDENCE_FILE = 'sale-evidence.rows';
export const SALE_EVIDENCE_POSTCODES_FILE = 'sale-evidence-postcodes.rows';

/**
 * Cell side in metres. A nearest-k search reads rings of cells until the next ring lies beyond
 * the k-th sale found: small cells read few sales more than the k in a town, at the cost of
 * more (empty, cheap) rings where sales are sparse, up to the 2 km radius. Measured at 1M
 * (valuations of 10,000 UPRNs, in one process, 3 runs, a busy machine): 250 m 230-610 µs a
 * valuation, 125 m 210-245, 60 m 70-155, 45 m 53-80, 30 m 61-99.
 */
export const SALE_EVIDENCE_CELL_M = 45;

export const SALE_EVIDENCE_COLUMNS = [
  /** Local metres (`localMetres`). */
  { name: 'x', kind: 'num' },
  { name: 'y', kind: 'num' },
  { name: 'uprn', kind: 'num' },
  /** year × 12 + month − 1. */
  { name: 'month', kind: 'num' },
  /** Log price brought to the index's last month. */
  { name: 'log_value', kind: 'num' },
  /** Location level (NaN without a floor area). */
  { name: 'z', kind: 'num' },
  /** 0 Detached, 1 Semi-Detached, 2 Terraced, 3 Flat, 255 unknown. */
  { name: 'type', kind: 'num' },
  /** 1 on the home's latest sale. */
  { name: 'latest', kind: 'num' },
] as const satisfies KeyedRowsMeta['columns'];

export const SALE_EVIDENCE_POSTCODE_COLUMNS = [
  { name: 'uprn', kind: 'num' },
  { name: 'month', kind: 'num' },
  /** Location level (never NaN here: only sales with a floor area). */
  { name: 'z', kind: 'num' },
] as const satisfies KeyedRowsMeta['columns'];

/** The byte of each column's value from a row's null bits (`rangeRaw`'s `at`): one byte of them, then 8 a column. */
const at = <C extends readonly { name: string }[]>(cols: C) => Object.fromEntries(cols.map((c, i) => [c.name, 1 + 8 * i])) as Record<C[number]['name'], number>;
export const SALE_EVIDENCE_AT = at(SALE_EVIDENCE_COLUMNS);
export const SALE_EVIDENCE_POSTCODE_AT = at(SALE_EVIDENCE_POSTCODE_COLUMNS);

/** What the cell file keeps beside its rows (`meta.extra`). */
export interface SaleEvidenceExtra {
  kind: 'sale-evidence';
  cell_m: number;
  /** Month number the values are brought to (the index's last month). */
  as_of_month: number;
  /** The model's size elasticity the levels were made with (a reader with another refuses the file). */
  size_beta: number;
  /** Log type effect per type code, and age band effect per age code (`SaleEvidence.typeLog`, `ageLog`). */
  type_log: number[];
  age_log: number[];
  /** Evidence sales in all (located or not): `SaleEvidence.size`. */
  sales: number;
}
