import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceFile } from '../../../pipeline/discover.ts';
import { createTable } from '../../../pipeline/load-rows.ts';
import type { StageCache } from '../../../pipeline/stage-cache.ts';
import { STAGING_SPECS } from './specs/index.ts';
import { stagedColumns, stageFile, type SourceReport, type StagingProgress } from './stage-file.ts';

export type { SourceReport, StagingProgress } from './stage-file.ts';
export { stageFile } from './stage-file.ts';

/**
 * Stages every discovered source file into its staging table (`stg_*`) with `stageFile`,
 * one table per kind whatever the number of files (kinds of one shape may share a table), with `_file_no` recording file order
 * (Price Paid monthly updates apply in that order). Tables of kinds with no file are
 * created empty so the merge SQL always finds them. With a `cache`, a file staged before (same
 * bytes, same reader) is loaded from it instead of read again (`etl/pipeline/stage-cache.ts`). `today` (ISO date) bounds as-of dates. A malformed row is counted against its
 * file, never fatal; a file that is not of its kind's format fails the stage.
 */
export async function stageSources(
  conn: DuckDBConnection,
  files: readonly SourceFile[],
  today: string,
  progress?: StagingProgress,
  cache?: StageCache,
): Promise<SourceReport[]> {
  const reports: SourceReport[] = [];
  const created = new Set<string>();
  for (const spec of STAGING_SPECS) {
    // Kinds that share a table (England and Wales, and Scottish certificates) append to it.
    if (!created.has(spec.table)) await createTable(conn, spec.table, stagedColumns(spec, 0));
    created.add(spec.table);
    let fileNo = 0;
    for (const f of files.filter((x) => x.kind === spec.kind)) {
      fileNo++;
      reports.push(cache
        ? await cache.stage(conn, spec, f, fileNo, today, progress, stageFile)
        : await stageFile(conn, spec, f, fileNo, today, progress));
    }
  }
  return reports;
}
