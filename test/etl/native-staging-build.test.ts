import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../etl/pipeline/run.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-native-build-');
afterAll(tmp.cleanup);

async function buildWith(staging: 'ts' | 'native', sources: string) {
  const before = process.env.ETL_STAGING;
  process.env.ETL_STAGING = staging;
  try {
    const dataDir = join(tmp.dir, staging);
    const { manifest } = await runBuild({ dataDir, sourcesDir: sources, log: quietLog, now: new Date('2025-10-01T00:00:00Z') });
    return { manifest, dir: join(dataDir, 'current') };
  } finally {
    if (before === undefined) delete process.env.ETL_STAGING;
    else process.env.ETL_STAGING = before;
  }
}

/** Rows in the order of their values, doubles rounded to 8 significant digits. */
function sorted(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const key = (r: Record<string, unknown>) =>
    JSON.stringify(Object.values(r).map((v) => (typeof v === 'number' && !Number.isInteger(v) ? v.toPrecision(8) : v)));
  return rows.map((r) => [key(r), r] as const).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([, r]) => r);
}

function sameRow(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.join() !== Object.keys(b).join()) return false;
  return keys.every((k) => {
    const [x, y] = [a[k], b[k]];
    if (typeof x === 'number' && typeof y === 'number') return x === y || Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
    return JSON.stringify(x) === JSON.stringify(y);
  });
}

/** The quality section without its entries' own timings (`ms`: the caches', the table files'), which vary run to run. */
function withoutTimings(quality: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(quality).map(([k, v]) => {
    if (typeof v !== 'object' || v === null || !('ms' in v)) return [k, v];
    const { ms: _ms, ...rest } = v as Record<string, unknown>;
    return [k, rest];
  }));
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the published build is the same whichever path stages the sources', () => {
  it('same manifest sources, tables, match rates; every Parquet table the same rows; the same binary files', async () => {
    const sources = await synthRegion(3000, 5);
    const ts = await buildWith('ts', sources);
    const native = await buildWith('native', sources);
    expect(native.manifest.sources).toEqual(ts.manifest.sources);
    expect(native.manifest.match_rates).toEqual(ts.manifest.match_rates);
    expect(withoutTimings(native.manifest.quality)).toEqual(withoutTimings(ts.manifest.quality));
    const rows = (m: typeof ts.manifest) => Object.fromEntries(Object.entries(m.tables).map(([k, v]) => [k, v.rows]));
    expect(rows(native.manifest)).toEqual(rows(ts.manifest));

    const files = readdirSync(ts.dir).sort();
    expect(readdirSync(native.dir).sort()).toEqual(files);
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    const read = async (path: string) => (await conn.runAndReadAll('FROM read_parquet($path)', { path })).getRowObjectsJson();
    for (const f of files.filter((x) => x.endsWith('.parquet'))) {
      // Row by row, each side sorted on its values (a file is sorted by its key, and rows tied
      // on a key that is not unique come in any order). Floating-point sums may differ in the
      // last bits from build to build (DuckDB's parallel aggregation adds in varying order: two
      // TS builds differ so in str_area_months), so doubles sort rounded and compare to 1e-9.
      const [a, b] = [sorted(await read(join(ts.dir, f))), sorted(await read(join(native.dir, f)))];
      expect(b.length, f).toBe(a.length);
      for (let i = 0; i < a.length; i++) expect(sameRow(a[i]!, b[i]!), `${f} row ${i}: ${JSON.stringify(a[i])} vs ${JSON.stringify(b[i])}`).toBe(true);
    }
    conn.closeSync();
    for (const f of files.filter((x) => x.endsWith('.bin'))) expect(sha(join(native.dir, f)), f).toBe(sha(join(ts.dir, f)));
  }, 300_000);
});
