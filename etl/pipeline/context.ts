import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { IgnoredFile, SourceFile } from './discover.ts';
import type { z } from 'zod';
import type { ManifestSource } from '../../schemas/manifest.ts';
import type { TableContract } from '../../schemas/tables/contract.ts';
import type { AnySource } from '../sources/source.ts';

/** What staging reports of one source file (the manifest's `sources` entry). */
export type SourceReport = z.infer<typeof ManifestSource>;

export interface EtlLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
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
  /** Tables this build publishes (normally every contract in schemas/tables/). */
  published: TableContract[];
  /** Non-table files a stage wrote into `buildDir` (name → file and description). */
  artifacts: Record<string, { file: string; description: string }>;
  matchRates: Record<string, number>;
  quality: Record<string, unknown>;
  log: EtlLogger;
  progress: (stage: string, done: number, total?: number) => void;
  /**
   * The build's caches (`DATA_DIR/cache/`): staged files, address matches and stage outputs
   * reused from earlier builds. `read: false` re-stages, re-matches and recomputes
   * everything, rewriting the entries.
   * Absent: no cache at all (stage tests).
   */
  cache?: { dir: string; read: boolean };
  /**
   * Staging tables whose cached rows are held back until a stage reads them (the staging
   * cache's lazy loading): `runStage` has them inserted before a stage runs. Absent: every
   * staging table is loaded.
   */
  staged?: { materialize(conn: DuckDBConnection, tables: readonly string[]): Promise<void> };
}

/** One named step of the build, testable alone on a context with the tables it reads. */
export interface Stage {
  name: string;
  description: string;
  /** Tables it reads and writes: the printed plan, and what a reusable stage's cache key follows (`reuse`). */
  reads: string[];
  writes: string[];
  /**
   * Set when the stage's output may be reused from an earlier build whose inputs were the
   * same (stage-output-cache.ts). Its inputs are taken to be the source files feeding the
   * tables in `reads`, transitively, so `reads` must name every table it reads
   * (test/etl/pipeline/stage-reads.test.ts checks the code); `today`: it reads the build's
   * date (`ctx.today`, `ctx.now`).
   */
  reuse?: { today: boolean };
  /**
   * For a table in `writes` made from only some of `reads`: those. A later stage reading
   * only such tables is keyed by fewer source files (`certificates`, reading the certificate
   * matches, is not Price Paid's). A table left out is taken to depend on every read.
   */
  derives?: Record<string, string[]>;
  /**
   * Set to run the stage beside the main line (run-stages.ts): it starts once the stage named
   * `after` is done, on a connection of its own, while the stages between run; the build
   * waits for it at its own place in the order. For a stage that leaves cores idle beside
   * others (DuckDB's work only, beside the matcher's JavaScript). Every table it makes,
   * working tables too, matches `tables`, and no stage between touches one
   * (`checkBeside`): that is how each line's cached output is told apart.
   */
  beside?: { after: string; tables: RegExp };
  /**
   * The sources a staging stage reads (the registry, `etl/sources/index.ts`): how the engine
   * learns which files to discover and which kinds feed each staging table.
   */
  sources?: readonly AnySource[];
  run(ctx: BuildContext): Promise<void>;
}

/** The sources the stages of a plan read (declared by its staging stage). */
export function planSources(stages: readonly Stage[]): AnySource[] {
  return stages.flatMap((s) => s.sources ?? []);
}
