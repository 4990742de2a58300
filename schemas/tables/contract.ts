/**
 * The shape of a published table's contract: columns in file order with their DuckDB types
 * (as read back from the Parquet file) and docs, the sort key, and the row rules every build
 * must meet. Declared once per table in `schemas/tables/`; the ETL writes and validates by it,
 * `etl/data-dictionary.ts` renders it, and the service checks a build's files against it.
 */

import { plainIdentifier } from '../sql-identifier.ts';

/** One column: DuckDB type of the Parquet column, and its documentation. */
export interface ColumnContract {
  name: string;
  /** DuckDB type as `DESCRIBE read_parquet(...)` reports it: 'VARCHAR', 'DOUBLE', 'DATE', 'VARCHAR[]', … */
  type: string;
  /** Unit or format: 'GBP', 'sq ft', 'm²', 'ISO date', 'WGS84 degrees', 'fraction 0–1', … or '' */
  unit: string;
  /** Where the value comes from (source file kind or derivation). */
  source: string;
  description: string;
}

/**
 * A rule every row of a build must meet, checked before it is published (a broken rule fails
 * the build and `current` stays on the previous one):
 * - `unique`: the columns identify a row (a one-column key must also be present);
 * - `never`: a SQL predicate over the table's columns that no row may satisfy;
 * - `references`: every row's column value is in another published table.
 */
export type RowRule = { rule: string } & (
  | { unique: string[] }
  | { never: string }
  | { references: { table: string; column: string } }
);

export interface TableContract {
  name: string;
  description: string;
  /** The Parquet file is sorted by these columns, so row-group statistics prune lookups. */
  sortKey: string[];
  columns: ColumnContract[];
  rules?: RowRule[];
}

/** Shorthand for a column. */
export const col = (name: string, type: string, unit: string, source: string, description: string): ColumnContract =>
  ({ name, type, unit, source, description });

const ident = plainIdentifier;

/** The query counting the rows of `table` that break `rule` (0 when the rule holds). */
export function ruleViolationsSql(table: string, rule: RowRule): string {
  const t = ident(table);
  if ('unique' in rule) {
    const cols = rule.unique.map(ident);
    const key = cols.length === 1 ? cols[0]! : `(${cols.join(', ')})`;
    return `SELECT count(*) - count(DISTINCT ${key}) FROM ${t}`;
  }
  if ('never' in rule) return `SELECT count(*) FROM ${t} WHERE ${rule.never}`;
  return `SELECT count(*) FROM ${t} ANTI JOIN ${ident(rule.references.table)} USING (${ident(rule.references.column)})`;
}
