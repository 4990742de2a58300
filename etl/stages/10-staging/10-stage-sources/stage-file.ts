import type { DuckDBConnection } from '@duckdb/node-api';
import { sourceSha256, type SourceFile } from '../../../pipeline/discover.ts';
import { appendRows, type StageColumn } from '../../../pipeline/load-rows.ts';
import type { AnySource } from '../../../sources/index.ts';
import { RejectLog } from '../../../sources/rejects.ts';
import { stageFileNative } from './native/stage-native.ts';
import type { SourceReport, StagingProgress } from './source-report.ts';
import { stagingPath, type StagingPath } from './staging-path.ts';

export type { SourceReport, StagingProgress } from './source-report.ts';

/**
 * Told every distinct date the file's accepted rows speak for (today or not, sorted), so a
 * cached file's as-of can be bounded by a later build's today (`etl/pipeline/stage-cache.ts`).
 */
export type DatesSeen = (dates: string[]) => void;

/** A kind's staging columns: its reader's, then `_file_no` (the file's place among its kind's files). */
export function stagedColumns(spec: AnySource, fileNo: number): StageColumn<unknown>[] {
  return [...spec.columns, { name: '_file_no', type: 'INTEGER', get: () => fileNo }];
}

/**
 * Stages one source file into its kind's (existing) `stg_*` table and reports it. The native
 * path serves the regular bulk formats; a file it cannot read exactly as the TS reader would
 * (another layout, a quote or encoding the two parsers read differently) falls back to the
 * TS reader, so both paths give the same rows and the same reject counts.
 */
export async function stageFile(
  conn: DuckDBConnection,
  spec: AnySource,
  file: SourceFile,
  fileNo: number,
  today: string,
  progress?: StagingProgress,
  onDates?: DatesSeen,
  path: StagingPath = stagingPath(),
): Promise<SourceReport> {
  if (path === 'native') {
    const native = await stageFileNative(conn, spec, file, fileNo, today);
    if ('report' in native) {
      progress?.({ file: file.rel, rows: native.report.rows_read });
      onDates?.(native.dates);
      return native.report;
    }
  }
  return stageFileTs(conn, spec, file, fileNo, today, progress, onDates);
}

/** Stages one file with its kind's TS reader and the appender. */
export async function stageFileTs(
  conn: DuckDBConnection,
  spec: AnySource,
  file: SourceFile,
  fileNo: number,
  today: string,
  progress?: StagingProgress,
  onDates?: DatesSeen,
): Promise<SourceReport> {
  const rejects = new RejectLog();
  let latest: string | undefined;
  const dates = new Set<string>();
  let rows = 0;
  const tracked = async function* () {
    for await (const row of spec.read(file.path, rejects)) {
      const d = spec.date?.(row);
      if (d && onDates) dates.add(d);
      // A date after today is a typo in the source (Oxford's register has a licence
      // starting in 3017); it must not become the source's as-of date.
      if (d && d <= today && (!latest || d > latest)) latest = d;
      if (++rows % 100_000 === 0) progress?.({ file: file.rel, rows });
      yield row;
    }
  };
  await appendRows(conn, spec.table, stagedColumns(spec, fileNo), tracked());
  progress?.({ file: file.rel, rows });
  onDates?.([...dates].sort());
  const r = rejects.toJSON();
  return {
    name: spec.kind, path: file.rel, bytes: file.bytes, sha256: await sourceSha256(file),
    as_of: latest ?? null, rows_read: rows, rows_rejected: r.total, rejected_by_reason: r.by_reason,
  };
}
