import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { IgnoredFile, SourceFile } from './discover.ts';
import type { SourceReport } from '../stages/10-staging/10-stage-sources/stage-sources.ts';

export interface EtlLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One column of a published table, for the data dictionary (docs/data-dictionary.md). */
export interface ColumnDoc {
  name: string;
  /** Unit or format: 'GBP', 'sq ft', 'm²', 'ISO date', 'WGS84 degrees', 'fraction 0–1', … or '' */
  unit: string;
  /** Where the value comes from (source file kind or derivation). */
  source: string;
  description: string;
}

/** Shorthand for a column doc. */
export const col = (name: string, unit: string, source: string, description: string): ColumnDoc => ({ name, unit, source, description });

/** A table the build publishes, the key its Parquet file is sorted by, and its columns. */
export interface PublishedTable {
  name: string;
  sortKey: string[];
  description: string;
  columns: ColumnDoc[];
}

/** What the stages of one build share. */
export interface BuildContext {
  /** The build's database; `conn` is its main connection. */
  db: DuckDBInstance;
  conn: DuckDBConnection;
  sourcesDir: string;
  /** The build's `.partial` folder, where tables are written. */
  buildDir: string;
  buildId: string;
  now: Date;
  /** `now` as an ISO date: the build's "today" for as-of dates and in-force checks. */
  today: string;
  files: SourceFile[];
  ignored: IgnoredFile[];
  sources: SourceReport[];
  published: PublishedTable[];
  /** Non-table files a stage wrote into `buildDir` (name → file and description). */
  artifacts: Record<string, { file: string; description: string }>;
  matchRates: Record<string, number>;
  quality: Record<string, unknown>;
  log: EtlLogger;
  progress: (stage: string, done: number, total?: number) => void;
}

/** One named step of the build, testable alone on a context with the tables it reads. */
export interface Stage {
  name: string;
  description: string;
  /** Tables it reads and writes, for the printed plan. */
  reads: string[];
  writes: string[];
  run(ctx: BuildContext): Promise<void>;
}
