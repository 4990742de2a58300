import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceFile } from '../../../pipeline/discover.ts';
import { createTable } from '../../../pipeline/load-rows.ts';
import type { StageCache } from '../../../pipeline/stage-cache.ts';
import { NATIVE_KINDS } from './native/native-layouts.ts';
import { STAGING_SPECS } from './specs/index.ts';
import type { StagingSpec } from './specs/spec.ts';
import { stagedColumns, stageFile, type SourceReport, type StagingProgress } from './stage-file.ts';

export type { SourceReport, StagingProgress } from './stage-file.ts';
export { stageFile } from './stage-file.ts';

/** One file to stage: its kind's spec and its place among that kind's files. */
interface StagingJob {
  spec: StagingSpec<unknown>;
  file: SourceFile;
  fileNo: number;
}

/**
 * The tables some kind with a native path writes (`native/native-layouts.ts`): their files
 * are mostly DuckDB work. The other tables' files are JS work (their TS readers).
 */
const NATIVE_TABLES = new Set(STAGING_SPECS.filter((s) => NATIVE_KINDS[s.kind] !== undefined).map((s) => s.table));

/**
 * Stages every discovered source file into its staging table (`stg_*`) with `stageFile`,
 * one table per kind whatever the number of files (kinds of one shape may share a table), with `_file_no` recording file order
 * (Price Paid monthly updates apply in that order). Tables of kinds with no file are
 * created empty so the merge SQL always finds them. With a `cache`, a file staged before (same
 * bytes, same reader) is loaded from it instead of read again (`etl/pipeline/stage-cache.ts`). `today` (ISO date) bounds as-of dates. A malformed row is counted against its
 * file, never fatal; a file that is not of its kind's format fails the stage.
 *
 * With `readerConn` (a second connection to the same database) the files run in two lanes
 * at once: the tables a native kind writes on `conn`, where DuckDB's threads do most of the
 * work, and every other table (read by TS readers on the JS thread) on `readerConn`. Each
 * table is written by one lane only, in plan order, so every table's rows, their order and
 * the reports (returned in plan order) are the same as with one connection.
 */
export async function stageSources(
  conn: DuckDBConnection,
  files: readonly SourceFile[],
  today: string,
  progress?: StagingProgress,
  cache?: StageCache,
  readerConn?: DuckDBConnection,
): Promise<SourceReport[]> {
  const jobs: StagingJob[] = [];
  const created = new Set<string>();
  for (const spec of STAGING_SPECS) {
    // Kinds that share a table (England and Wales, and Scottish certificates) append to it.
    if (!created.has(spec.table)) await createTable(conn, spec.table, stagedColumns(spec, 0));
    created.add(spec.table);
    let fileNo = 0;
    for (const file of files.filter((x) => x.kind === spec.kind)) jobs.push({ spec, file, fileNo: ++fileNo });
  }
  const stageLane = async (c: DuckDBConnection, lane: StagingJob[]) => {
    const reports = new Map<StagingJob, SourceReport>();
    for (const job of lane) {
      const { spec, file, fileNo } = job;
      reports.set(job, cache
        ? await cache.stage(c, spec, file, fileNo, today, progress, stageFile)
        : await stageFile(c, spec, file, fileNo, today, progress));
    }
    return reports;
  };
  if (!readerConn) return [...(await stageLane(conn, jobs)).values()];
  const lanes = await Promise.allSettled([
    stageLane(conn, jobs.filter((j) => NATIVE_TABLES.has(j.spec.table))),
    stageLane(readerConn, jobs.filter((j) => !NATIVE_TABLES.has(j.spec.table))),
  ]);
  // Both lanes have stopped before a failure is passed on: neither is left writing.
  const failed = lanes.find((l) => l.status === 'rejected');
  if (failed) throw failed.reason;
  const reports = new Map(lanes.flatMap((l) => (l.status === 'fulfilled' ? [...l.value] : [])));
  return jobs.map((j) => reports.get(j)!);
}
