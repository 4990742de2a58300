import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { SourceFile } from '../../etl/pipeline/discover.ts';
import { createTable } from '../../etl/pipeline/load-rows.ts';
import { stageFileNative } from '../../etl/stages/10-staging/10-stage-sources/native/stage-native.ts';
import { SOURCES } from '../../etl/sources/index.ts';
import { stagedColumns, stageFileTs, type SourceReport } from '../../etl/stages/10-staging/10-stage-sources/stage-file.ts';

/** One side of a comparison: each file's report and every staged row in insertion order (rowid). */
export interface Staged {
  reports: SourceReport[];
  rows: Record<string, unknown[]>;
  /** Native side only: file → why it was handed to the TS reader. */
  fallbacks: Record<string, string>;
}

async function db(): Promise<DuckDBConnection> {
  return (await DuckDBInstance.create(':memory:')).connect();
}

/**
 * Stages `files` (in order, numbered per kind as stageSources numbers them) with the TS readers
 * or with the native path (a file it hands back is staged by the TS reader, as stageFile does, and recorded).
 */
export async function stageWith(path: 'ts' | 'native', files: readonly SourceFile[], today: string): Promise<Staged> {
  const conn = await db();
  const out: Staged = { reports: [], rows: {}, fallbacks: {} };
  const created = new Set<string>();
  for (const spec of SOURCES) {
    const mine = files.filter((f) => f.kind === spec.kind);
    if (mine.length === 0) continue;
    if (!created.has(spec.table)) await createTable(conn, spec.table, stagedColumns(spec, 0));
    created.add(spec.table);
    let fileNo = 0;
    for (const f of mine) {
      fileNo++;
      if (path === 'ts') {
        out.reports.push(await stageFileTs(conn, spec, f, fileNo, today));
        continue;
      }
      // As stageFile does: a file the native path hands back is staged by the TS reader.
      const r = await stageFileNative(conn, spec, f, fileNo, today);
      if ('report' in r) out.reports.push(r.report);
      else {
        out.fallbacks[f.rel] = r.fallback;
        out.reports.push(await stageFileTs(conn, spec, f, fileNo, today));
      }
    }
  }
  for (const table of created) {
    // Each row as one JSON text, in insertion order: equal lists mean the same rows in the same order.
    const res = await conn.runAndReadAll(`SELECT to_json(t)::VARCHAR AS j FROM ${table} t ORDER BY rowid`);
    out.rows[table] = res.getRowObjectsJson().map((r) => r.j as unknown);
  }
  conn.closeSync();
  return out;
}
