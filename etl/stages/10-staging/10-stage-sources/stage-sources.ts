import type { DuckDBConnection } from '@duckdb/node-api';
import type { SourceFile } from '../../../pipeline/discover.ts';
import { createTable } from '../../../pipeline/load-rows.ts';
import type { StageCache } from '../../../pipeline/stage-cache.ts';
import { SOURCES, type AnySource } from '../../../sources/index.ts';
import { stagedColumns, stageFile, type SourceReport, type StagingProgress } from './stage-file.ts';

export type { SourceReport, StagingProgress } from './stage-file.ts';
export { stageFile } from './stage-file.ts';

/** One file to stage: its kind's spec, its place among that kind's files, and when it is staged (or failed). */
interface StagingJob {
  spec: AnySource;
  file: SourceFile;
  fileNo: number;
  done: Promise<void>;
  settle: (e?: unknown) => void;
}

function job(spec: AnySource, file: SourceFile, fileNo: number): StagingJob {
  let settle!: (e?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (e) => (e === undefined ? resolve() : reject(e))));
  done.catch(() => undefined); // awaited only by a later file of its table, if any
  return { spec, file, fileNo, done, settle };
}

/**
 * Whether a kind's files go to the reader lane: kinds without a native path (their TS
 * readers are JS work), unless a native kind writes the same table after them (the DuckDB
 * lane never waits for the reader lane, so the two cannot wait for each other).
 */
function readerKinds(): Set<string> {
  const out = new Set<string>();
  SOURCES.forEach((s, i) => {
    const nativeAfter = SOURCES.slice(i + 1).some((t) => t.table === s.table && t.native !== undefined);
    if (s.native === undefined && !nativeAfter) out.add(s.kind);
  });
  return out;
}
const READER_KINDS = readerKinds();

/**
 * Stages every discovered source file into its staging table (`stg_*`) with `stageFile`,
 * one table per kind whatever the number of files (kinds of one shape may share a table), with `_file_no` recording file order
 * (Price Paid monthly updates apply in that order). Tables of kinds with no file are
 * created empty so the merge SQL always finds them. With a `cache`, a file staged before (same
 * bytes, same reader) is loaded from it instead of read again (`etl/pipeline/stage-cache.ts`). `today` (ISO date) bounds as-of dates. A malformed row is counted against its
 * file, never fatal; a file that is not of its kind's format fails the stage.
 *
 * With `readerConn` (a second connection to the same database) the files are staged in two
 * lanes at once: the native kinds' files on `conn`, where DuckDB's threads do most of the
 * work, and the other kinds' files (TS readers, JS work) on `readerConn`. A file starts only
 * once the files before it on its table are staged (a reader-lane file that waits for a
 * native one goes last in its lane, so nothing waits behind it), so every
 * table's rows and their order, and the reports (returned in plan order), are the same as
 * with one connection.
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
  for (const spec of SOURCES) {
    // Kinds that share a table (England and Wales, and Scottish certificates) append to it.
    if (!created.has(spec.table)) await createTable(conn, spec.table, stagedColumns(spec, 0));
    created.add(spec.table);
    let fileNo = 0;
    for (const file of files.filter((x) => x.kind === spec.kind)) jobs.push(job(spec, file, ++fileNo));
  }
  const before = new Map(jobs.map((j, i) => [j, jobs.slice(0, i).findLast((p) => p.spec.table === j.spec.table)]));
  const reports = new Map<StagingJob, SourceReport>();
  const stageLane = async (c: DuckDBConnection, lane: StagingJob[]) => {
    let failure: unknown;
    for (const j of lane) {
      try {
        if (failure !== undefined) throw failure;
        await before.get(j)?.done;
        reports.set(j, cache
          ? await cache.stage(c, j.spec, j.file, j.fileNo, today, progress, stageFile)
          : await stageFile(c, j.spec, j.file, j.fileNo, today, progress));
        j.settle();
      } catch (e) {
        // This lane stops; a file of the other lane waiting on one of these fails with it.
        failure ??= e;
        j.settle(e);
      }
    }
    if (failure !== undefined) throw failure;
  };
  if (!readerConn) await stageLane(conn, jobs);
  else {
    const reader = jobs.filter((j) => READER_KINDS.has(j.spec.kind));
    const waits = (j: StagingJob) => (before.get(j) && !READER_KINDS.has(before.get(j)!.spec.kind) ? 1 : 0);
    const lanes = await Promise.allSettled([
      stageLane(conn, jobs.filter((j) => !READER_KINDS.has(j.spec.kind))),
      // Stable sort: the files that wait for the DuckDB lane last.
      stageLane(readerConn, reader.sort((a, b) => waits(a) - waits(b))),
    ]);
    // Both lanes have stopped before a failure is passed on: neither is left writing.
    const failed = lanes.find((l) => l.status === 'rejected');
    if (failed) throw failed.reason;
  }
  return jobs.map((j) => reports.get(j)!);
}
