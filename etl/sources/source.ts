import type { SourceKind } from '../../../../pipeline/discover.ts';
import type { RejectLog } from '../../../../sources/rejects.ts';
import type { StageColumn, StageType } from '../../../../pipeline/load-rows.ts';

/** How one source kind is staged: its reader, its staging table and columns. */
export interface StagingSpec<Row> {
  kind: SourceKind;
  /**
   * The reader's version, part of the staging cache key: bump it when the rows a file
   * stages change for a reason outside the staging code (a package upgrade, say). Edits to
   * the code itself invalidate the cache without a bump (`etl/pipeline/code-fingerprint.ts`).
   */
  version: number;
  table: string;
  read: (path: string, rejects: RejectLog) => AsyncGenerator<Row>;
  columns: StageColumn<Row>[];
  /** The date a row speaks for (ISO), whose maximum is the source's as-of date. */
  date?: (row: Row) => string | undefined;
}

/** Columns copied from same-named row properties. */
export function same<Row>(type: StageType, ...names: (keyof Row & string)[]): StageColumn<Row>[] {
  return names.map((name) => ({ name, type, get: (r: Row) => r[name] }));
}

/** Erases the row type so specs of different sources can sit in one list. */
export function spec<Row>(s: StagingSpec<Row>): StagingSpec<unknown> {
  return s as unknown as StagingSpec<unknown>;
}
