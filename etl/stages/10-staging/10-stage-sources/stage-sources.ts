import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { ManifestSource } from '../../../../schemas/manifest.ts';
import { sha256File, type SourceFile } from '../../../pipeline/discover.ts';
import { RejectLog } from '../../../sources/rejects.ts';
import { appendRows, createTable, type StageColumn } from '../../../pipeline/load-rows.ts';
import { STAGING_SPECS } from './specs/index.ts';
import type { StagingSpec } from './specs/spec.ts';
import type { StageCache } from '../../../pipeline/stage-cache.ts';

export type SourceReport = z.infer<typeof ManifestSource>;

export interface StagingProgress {
  (event: { file: string; rows: number }): void;
}

/**
 * Reads every discovered source file with its reader into its staging table (`stg_*`),
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
    if (!created.has(spec.table)) await createTable(conn, spec.table, withFileNo(spec, 0));
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

const withFileNo = (spec: StagingSpec<unknown>, fileNo: number): StageColumn<unknown>[] =>
  [...spec.columns, { name: '_file_no', type: 'INTEGER', get: () => fileNo }];

/** Reads one file with its kind's reader and appends its rows to the kind's table. */
export async function stageFile(
  conn: DuckDBConnection, spec: StagingSpec<unknown>, f: SourceFile, fileNo: number, today: string, progress?: StagingProgress,
): Promise<SourceReport> {
  const rejects = new RejectLog();
  let latest: string | undefined;
  let rows = 0;
  const tracked = async function* () {
    for await (const row of spec.read(f.path, rejects)) {
      const d = spec.date?.(row);
      // A date after today is a typo in the source (Oxford's register has a licence
      // starting in 3017); it must not become the source's as-of date.
      if (d && d <= today && (!latest || d > latest)) latest = d;
      if (++rows % 100_000 === 0) progress?.({ file: f.rel, rows });
      yield row;
    }
  };
  await appendRows(conn, spec.table, withFileNo(spec, fileNo), tracked());
  progress?.({ file: f.rel, rows });
  const r = rejects.toJSON();
  return {
    name: spec.kind, path: f.rel, bytes: f.bytes, sha256: await sha256File(f.path),
    as_of: latest ?? null, rows_read: rows, rows_rejected: r.total, rejected_by_reason: r.by_reason,
  };
}
