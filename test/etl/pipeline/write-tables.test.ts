import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { writeTables, type PreviousBuild } from '../../../etl/pipeline/write-tables.ts';
import { col, type TableContract } from '../../../schemas/tables/contract.ts';
import type { Manifest } from '../../../schemas/manifest.ts';
import { checkBuildTables } from '../../../lib/tables/check.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-write-tables-');
afterAll(tmp.cleanup);

const contract = (name: string): TableContract => ({
  name, description: '', sortKey: ['k'],
  columns: [col('k', 'BIGINT', '', '', ''), col('v', 'VARCHAR', '', '', ''), col('x', 'DOUBLE', '', '', '')],
});
const TABLES = [contract('t_same'), contract('t_changed')];

/** The rows each table holds in a build: `t_changed` gets a different value in its third row from the second build on. */
function tableSql(name: string, n: number): string {
  const v = name === 't_changed' && n > 1 ? `CASE WHEN i = 2 THEN 'changed' ELSE 'v' || i END` : `'v' || i`;
  // Inserted in reverse order: the written file is sorted by its key whatever the table's order.
  return `CREATE TABLE ${name} AS SELECT i::BIGINT AS k, ${v} AS v, i / 4 AS x FROM range(1000) r(i) ORDER BY i DESC`;
}

/** A previous build of which only the tables' entries matter here. */
const previousOf = (dir: string, tables: Manifest['tables']): PreviousBuild => ({ id: 'previous', dir, manifest: { tables } as unknown as Manifest });

let builds = 0;

/** Writes the tables of build number `n` into a fresh folder, against `previous`. */
async function write(n: number, previous?: PreviousBuild): Promise<PreviousBuild & { stats: Awaited<ReturnType<typeof writeTables>>['stats'] }> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const dir = join(tmp.dir, `build-${++builds}`);
  mkdirSync(dir);
  try {
    for (const t of TABLES) await conn.run(tableSql(t.name, n));
    const ctx = { db, conn, buildDir: dir, published: TABLES, log: quietLog } as unknown as BuildContext;
    const { tables, stats } = await writeTables(ctx, previous);
    return { ...previousOf(dir, tables), stats };
  } finally {
    conn.closeSync();
  }
}

/** A file's rows in key order, read back with DuckDB. */
async function fileRows(path: string): Promise<unknown[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    return (await conn.runAndReadAll(`SELECT * FROM read_parquet('${path}') ORDER BY k`)).getRowObjectsJson();
  } finally {
    conn.closeSync();
  }
}

const expected = (name: string, n: number) => Array.from({ length: 1000 }, (_, i) => ({
  k: String(i), v: name === 't_changed' && n > 1 && i === 2 ? 'changed' : `v${i}`, x: i / 4,
}));
const inode = (path: string) => statSync(path).ino;

describe('writing the published tables against the previous build', () => {
  it('links an unchanged table\'s file, rewrites a changed one, and both hold the rows of their build', async () => {
    const first = await write(1);
    expect(first.stats).toMatchObject({ reused: [], written: 2 });
    const second = await write(2, first);
    expect(second.stats).toMatchObject({ reused: ['t_same'], written: 1 });
    expect(inode(join(second.dir, 't_same.parquet'))).toBe(inode(join(first.dir, 't_same.parquet')));
    expect(inode(join(second.dir, 't_changed.parquet'))).not.toBe(inode(join(first.dir, 't_changed.parquet')));
    for (const t of TABLES) expect(await fileRows(join(second.dir, `${t.name}.parquet`)), t.name).toEqual(expected(t.name, 2));
    expect(await fileRows(join(first.dir, 't_changed.parquet'))).toEqual(expected('t_changed', 1));
    expect(second.manifest.tables.t_same).toEqual(first.manifest.tables.t_same);
    expect(second.manifest.tables.t_changed!.content_key).not.toBe(first.manifest.tables.t_changed!.content_key);
    // The linked file passes the contract check like a written one.
    expect(await checkBuildTables(second.dir, TABLES)).toEqual([]);
    // Its first build pruned, the linked file stays whole in the second.
    rmSync(first.dir, { recursive: true });
    expect(await fileRows(join(second.dir, 't_same.parquet'))).toEqual(expected('t_same', 2));
  });

  it('rewrites a table whose previous file is missing, damaged or of another size, or whose manifest records no checksum', async () => {
    const first = await write(1);
    const file = join(first.dir, 't_same.parquet');
    const bytes = readFileSync(file);

    // t_changed is unchanged in these builds (both number 1): reused throughout, a control.
    rmSync(file);
    expect((await write(1, first)).stats).toMatchObject({ reused: ['t_changed'], written: 1 });

    // Same size, one byte flipped in the middle.
    const damaged = Buffer.from(bytes);
    damaged[damaged.length >> 1]! ^= 0xff;
    writeFileSync(file, damaged);
    const afterDamage = await write(1, first);
    expect(afterDamage.stats).toMatchObject({ reused: ['t_changed'], written: 1 });
    expect(await fileRows(join(afterDamage.dir, 't_same.parquet'))).toEqual(expected('t_same', 1));

    writeFileSync(file, bytes.subarray(0, bytes.length - 10));
    expect((await write(1, first)).stats).toMatchObject({ reused: ['t_changed'], written: 1 });

    writeFileSync(file, bytes);
    const { sha256: _, ...noChecksum } = first.manifest.tables.t_same!;
    const older = previousOf(first.dir, { ...first.manifest.tables, t_same: noChecksum });
    expect((await write(1, older)).stats).toMatchObject({ reused: ['t_changed'], written: 1 });
    // The file intact again: reused.
    expect((await write(1, first)).stats).toMatchObject({ reused: ['t_same', 't_changed'], written: 0 });
  });

  it('rewrites a table whose content key differs from the previous build\'s, even with the same row count', async () => {
    const first = await write(1);
    const otherKey = { ...first.manifest.tables.t_same!, content_key: 'f'.repeat(64) };
    const previous = previousOf(first.dir, { ...first.manifest.tables, t_same: otherKey });
    const second = await write(1, previous);
    expect(second.stats).toMatchObject({ reused: ['t_changed'], written: 1 });
    expect(inode(join(second.dir, 't_same.parquet'))).not.toBe(inode(join(first.dir, 't_same.parquet')));
  });
});
