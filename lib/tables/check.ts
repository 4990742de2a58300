import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TableContract } from '../../schemas/tables/contract.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';

/** A column name and DuckDB type as a Parquet file holds it. */
export interface FileColumn {
  name: string;
  type: string;
}

/** Columns (in file order) and DuckDB types of a Parquet file, read from its footer only. */
async function fileColumns(db: DuckDBInstance, path: string): Promise<FileColumn[]> {
  const conn = await db.connect();
  try {
    // DESCRIBE over read_parquet gives DuckDB types, the vocabulary the contracts use;
    // parquet_schema() would give Parquet physical types needing a mapping back.
    const rows = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`)).getRowObjectsJson();
    return rows.map((r) => ({ name: String(r.column_name), type: String(r.column_type) }));
  } finally {
    conn.closeSync();
  }
}

/** Every way one table's columns differ from its contract (empty when they match). */
export function compareColumns(contract: TableContract, actual: readonly FileColumn[]): string[] {
  const out: string[] = [];
  const t = contract.name;
  const want = contract.columns.map((c) => `${c.name} ${c.type}`).join(', ');
  const got = actual.map((c) => `${c.name} ${c.type}`).join(', ');
  if (want === got) return out;
  const byName = new Map(actual.map((c) => [c.name, c.type]));
  for (const c of contract.columns) {
    const type = byName.get(c.name);
    if (type === undefined) out.push(`${t}.${c.name}: missing (contract: ${c.type})`);
    else if (type !== c.type) out.push(`${t}.${c.name}: ${type}, contract says ${c.type}`);
  }
  const declared = new Set(contract.columns.map((c) => c.name));
  for (const c of actual) if (!declared.has(c.name)) out.push(`${t}.${c.name}: not in the contract (${c.type})`);
  if (out.length === 0) out.push(`${t}: columns out of the contract's order (file: ${actual.map((c) => c.name).join(', ')})`);
  return out;
}

/**
 * Checks a build folder's Parquet files against the published table contracts: every table
 * present, with exactly the declared columns, in order, of the declared types. Returns the
 * mismatches, one line each (empty when the build matches). Reads file footers only.
 */
export async function checkBuildTables(buildDir: string, tables: readonly TableContract[] = PUBLISHED_TABLES): Promise<string[]> {
  const db = await DuckDBInstance.create(':memory:');
  try {
    const out: string[] = [];
    for (const t of tables) {
      const path = join(buildDir, `${t.name}.parquet`);
      if (!existsSync(path)) {
        out.push(`${t.name}: no file ${t.name}.parquet`);
        continue;
      }
      try {
        out.push(...compareColumns(t, await fileColumns(db, path)));
      } catch (e) {
        out.push(`${t.name}: unreadable (${(e as Error).message.split('\n')[0]})`);
      }
    }
    return out;
  } finally {
    db.closeSync();
  }
}
