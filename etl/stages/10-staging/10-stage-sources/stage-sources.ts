import type { DuckDBConnection } from '@duckdb/node-api';
import type { z } from 'zod';
import type { ManifestSource } from '../../../../schemas/manifest.ts';
import { sha256File, type SourceFile } from '../../../pipeline/discover.ts';
import { RejectLog } from '../../../sources/rejects.ts';
import { appendRows, createTable, type StageColumn } from '../../../pipeline/load-rows.ts';
import { STAGING_SPECS } from './specs/index.ts';

export type SourceReport = z.infer<typeof ManifestSource>;

export interface StagingProgress {
  (event: { file: string; rows: number }): void;
}

/**
 * Reads every discovered source file with its reader into its staging table (`stg_*`),
 * one table per kind whatever the number of files (kinds of one shape may share a table), with `_file_no` recording file order
 * (Price Paid monthly updates apply in that order). Tables of kinds with no file are
 * created empty so the merge SQL always finds them. `today` (ISO date) bounds as-of dates. A malformed row is counted against its
 * file, never fatal; a file that is not of its kind's format fails the stage.
 */
export async function stageSources(
  conn: DuckDBConnection,
  files: readonly SourceFile[],
  today: string,
  progress?: StagingProgress,
): Promise<SourceReport[]> {
  const reports: SourceReport[] = [];
  const created = new Set<string>();
  for (const spec of STAGING_SPECS) {
    let fileNo = 0;
    const extra: StageColumn<unknown>[] = [{ name: '_file_no', type: 'INTEGER', get: () => fileNo }];
    const columns = [...spec.columns, ...extra];
    // Kinds that share a table (England and Wales, and Scottish certificates) append to it.
    if (!created.has(spec.table)) await createTable(conn, spec.table, columns);
    created.add(spec.table);
    for (const f of files.filter((x) => x.kind === spec.kind)) {
      fileNo++;
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
      await appendRows(conn, spec.table, columns, tracked());
      progress?.({ file: f.rel, rows });
      const r = rejects.toJSON();
      reports.push({
        name: spec.kind, path: f.rel, bytes: f.bytes, sha256: await sha256File(f.path),
        as_of: latest ?? null, rows_read: rows, rows_rejected: r.total, rejected_by_reason: r.by_reason,
      });
    }
  }
  return reports;
}
