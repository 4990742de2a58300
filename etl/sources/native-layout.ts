import type { SqlFolder } from '../pipeline/sql.ts';
import { headerIndex, type CsvRecord } from './csv.ts';

/**
 * How one file of a kind is read natively, decided from its first records as its TS reader
 * decides: the name of each column in file order (the roles the checking SQL reads, `x<i>`
 * for the rest), whether a record is a header, the lines passed over before it, and the
 * checking SQL's parameters.
 */
export interface NativeLayout {
  names: string[];
  header: boolean;
  /** Lines before the header row (a Scottish file's first of two header rows); none if absent. */
  skip?: number;
  params?: Record<string, boolean>;
}

/**
 * A source's native path (staging's `native/stage-native.ts`): for the regular bulk formats,
 * DuckDB's CSV reader and SQL that applies the TS reader's rules. Set as `Source.native`.
 */
export interface NativeKind {
  /** The folder of its `native_check.sql` (the reader's rules, each row's first failing field) and `native_insert.sql`. */
  sql: SqlFolder;
  /**
   * Run before the check where two kinds share it: `native_candidates.sql` in `sql`, making
   * the candidate rows the check reads from this kind's columns, after the macro it uses.
   */
  candidates?: { sql: SqlFolder; macro: string };
  /** The reason the TS reader gives a row of the wrong width; undefined: it has no width check, so such a file is read by it. */
  widthReason?: 'wrong_column_count' | 'column_count';
  /**
   * From the file's first record (and what follows it: its second record, `refused` when
   * csv-parse refused the next one): undefined when the TS reader would read the file another
   * way or refuse it (it then does).
   */
  layout(first: string[], second?: CsvRecord | 'refused'): NativeLayout | undefined;
}

/** Names per position: `roles` maps a role to the position the reader takes it from. */
export function named(width: number, roles: Map<string, number>): string[] {
  const names = Array.from({ length: width }, (_, i) => `x${i}`);
  for (const [role, i] of roles) names[i] = role;
  return names;
}

/** Roles found in a header: role → first position of its column (the TS readers keep the first of a repeated name). */
export function rolesIn(header: string[], columns: Record<string, string>): Map<string, number> {
  return rolesAt(headerIndex(header).index, columns);
}

/** Roles found in a header's index (column name → position). */
export function rolesAt(index: Map<string, number>, columns: Record<string, string>): Map<string, number> {
  const roles = new Map<string, number>();
  for (const [role, name] of Object.entries(columns)) {
    const i = index.get(name);
    if (i !== undefined) roles.set(role, i);
  }
  return roles;
}

export const has = (header: string[], names: readonly string[]) => names.every((n) => headerIndex(header).index.has(n));

/** A header whose columns (names trimmed, found by name) are the checking SQL's roles: each `columns` name must be there. */
export function byOwnNames(first: string[], columns: readonly string[]): NativeLayout | undefined {
  const header = first.map((f) => f.trim());
  if (!has(header, columns)) return undefined;
  return { names: named(first.length, rolesIn(header, Object.fromEntries(columns.map((c) => [c, c])))), header: true };
}
