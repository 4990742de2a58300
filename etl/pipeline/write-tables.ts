import { createHash } from 'node:crypto';
import { copyFile, link, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import type { TableContract } from '../../schemas/tables/contract.ts';
import type { BuildContext } from './context.ts';
import { sha256File } from './discover.ts';
import { PARQUET_COMPRESSION, queryRows } from './sql.ts';
import { duckdbVersion } from './stage-cache.ts';
import type { ContentHashMemo, TableContentHash } from './stage-output-cache.ts';

/** How a table is written; part of its content key, so a change to it rewrites every file. */
const PARQUET_OPTIONS = `FORMAT parquet, ${PARQUET_COMPRESSION}, ROW_GROUP_SIZE 100000`;

/** The build whose files an unchanged table may reuse: the one `current` points at. */
export interface PreviousBuild {
  id: string;
  dir: string;
  manifest: Manifest;
}

/** Which tables' files were reused from the previous build and which written (`quality.table_files`). */
export interface TableFileStats {
  reused: string[];
  written: number;
  /** Tables whose content hash was known (kept with the stage output they were loaded from), not scanned. */
  hashes_known: string[];
  /** Time spent on content keys and checking the previous files (what reuse costs a build). */
  ms: { keys: number; check: number };
}

/**
 * Writes each published table as Parquet (its contract's columns, in order, sorted by its key)
 * into the build folder, or, when the previous build published a table with the same content
 * key and its file is intact (size and SHA-256 as its manifest records them), hard-links that
 * file instead (a copy where a link cannot be made). Build folders are never changed once
 * published and are pruned whole, so a link shares a file nothing writes again.
 */
export async function writeTables(ctx: BuildContext, previous?: PreviousBuild, memo?: ContentHashMemo): Promise<{ tables: Manifest['tables']; stats: TableFileStats }> {
  const tables: Manifest['tables'] = {};
  const stats: TableFileStats = { reused: [], written: 0, hashes_known: [], ms: { keys: 0, check: 0 } };
  const duckdb = await duckdbVersion(ctx.conn);
  for (const t of ctx.published) {
    const file = `${t.name}.parquet`;
    const to = join(ctx.buildDir, file);
    let t0 = performance.now();
    const known = memo?.contentHash(t.name);
    const h = known?.columns === columnList(t) ? known : await contentHash(ctx, t);
    if (h === known) stats.hashes_known.push(t.name);
    else memo?.rememberContentHash(t.name, h);
    const { key, rows } = contentKey(t, duckdb, h);
    stats.ms.keys += performance.now() - t0;
    t0 = performance.now();
    const was = previous?.manifest.tables[t.name];
    const reusable = was?.content_key === key && was.rows === rows && await intact(join(previous!.dir, was.file), was);
    stats.ms.check += performance.now() - t0;
    if (reusable) {
      await linkOrCopy(join(previous!.dir, was.file), to);
      stats.reused.push(t.name);
    } else {
      // The contract's columns in its order: a column the SQL lost fails here, by name.
      await ctx.conn.run(
        `COPY (SELECT ${columnList(t)} FROM ${t.name} ORDER BY ${t.sortKey.join(', ')}) TO '${to.replaceAll("'", "''")}' (${PARQUET_OPTIONS})`,
      );
      stats.written++;
    }
    tables[t.name] = { file, rows, bytes: (await stat(to)).size, sort_key: t.sortKey, content_key: key, sha256: reusable ? was.sha256 : await sha256File(to) };
  }
  stats.ms = { keys: Math.round(stats.ms.keys), check: Math.round(stats.ms.check) };
  return { tables, stats };
}

const columnList = (t: TableContract) => t.columns.map((c) => c.name).join(', ');

/**
 * What a table's file is a function of: the columns written and their types, the sort key,
 * the Parquet options, DuckDB's version (its writer and its `hash`), and the rows: their
 * count and the sum of every row's hash, which does not depend on row order. Two tables with
 * one key hold the same rows, bar a 64-bit hash collision (or a 0.0 become -0.0, which hash alike).
 */
function contentKey(t: TableContract, duckdb: string, { types, rows, hash }: TableContentHash): { key: string; rows: number } {
  const key = createHash('sha256').update(JSON.stringify({ format: 1, types, sortKey: t.sortKey, parquet: PARQUET_OPTIONS, duckdb, rows, hash })).digest('hex');
  return { key, rows };
}

/**
 * The table's column types, rows and order-free hash: a scan of the table, about a tenth of
 * the sorted, compressed write it can save (and known without one for a table a cached stage
 * output gave: at 1M, addresses and epc_linked took 0.4 and 0.35 s to hash, of the refresh's
 * 1.26 s of content keys).
 */
async function contentHash(ctx: BuildContext, t: TableContract): Promise<TableContentHash> {
  const types = (await queryRows(ctx.conn, `DESCRIBE SELECT ${columnList(t)} FROM ${t.name}`)).map((c) => `${String(c.column_name)} ${String(c.column_type)}`);
  const [r] = await queryRows(ctx.conn, `SELECT count(*)::BIGINT AS n, coalesce(sum(hash(${columnList(t)})::HUGEINT), 0)::VARCHAR AS h FROM ${t.name}`);
  return { columns: columnList(t), types, rows: Number(r?.n), hash: String(r?.h) };
}

/** The previous build's file is there with the size and SHA-256 its manifest records (older manifests record no SHA-256: never reused). */
async function intact(path: string, was: Manifest['tables'][string]): Promise<boolean> {
  if (!was.sha256) return false;
  const s = await stat(path).catch(() => undefined);
  return s?.isFile() === true && s.size === was.bytes && (await sha256File(path)) === was.sha256;
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  try {
    await link(from, to);
  } catch {
    // Another file system, or links not allowed: the same bytes as a copy.
    await copyFile(from, to);
  }
}
