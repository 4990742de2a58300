import { DuckDBInstance } from '@duckdb/node-api';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BuildValidationError, runBuild } from '../../etl/pipeline/run.ts';
import { currentBuildId, verifyBuild } from '../../etl/publish/publish.ts';
import { checkBuildTables } from '../../lib/tables/check.ts';
import { ruleViolationsSql } from '../../schemas/tables/contract.ts';
import { PUBLISHED_TABLES } from '../../schemas/tables/index.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-contracts-');
afterAll(tmp.cleanup);

async function sql(statements: string[]): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  let rows: Record<string, unknown>[] = [];
  for (const s of statements) rows = (await conn.runAndReadAll(s)).getRowObjectsJson() as Record<string, unknown>[];
  conn.closeSync();
  return rows;
}

describe('table contracts (schemas/tables/)', () => {
  it('name each published column once, with a type, and rules over declared columns only', () => {
    for (const t of PUBLISHED_TABLES) {
      const names = t.columns.map((c) => c.name);
      expect(new Set(names).size, t.name).toBe(names.length);
      for (const c of t.columns) expect(c.type, `${t.name}.${c.name}`).toMatch(/^[A-Z][A-Z0-9_]*(\[\])?$/);
      for (const k of t.sortKey) expect(names, `${t.name} sort key`).toContain(k);
      for (const r of t.rules ?? []) if ('unique' in r) for (const k of r.unique) expect(names, `${t.name}: ${r.rule}`).toContain(k);
    }
  });

  it('turn each rule kind into a counting query and refuse a table name that is not a plain identifier', () => {
    expect(ruleViolationsSql('sales', { rule: 'r', unique: ['uprn'] })).toBe('SELECT count(*) - count(DISTINCT uprn) FROM sales');
    expect(ruleViolationsSql('sales', { rule: 'r', unique: ['uprn', 'date'] })).toBe('SELECT count(*) - count(DISTINCT (uprn, date)) FROM sales');
    expect(ruleViolationsSql('sales', { rule: 'r', never: 'price <= 0' })).toBe('SELECT count(*) FROM sales WHERE price <= 0');
    expect(ruleViolationsSql('sales', { rule: 'r', references: { table: 'properties', column: 'uprn' } }))
      .toBe('SELECT count(*) FROM sales ANTI JOIN properties USING (uprn)');
    expect(() => ruleViolationsSql('sales; DROP TABLE x', { rule: 'r', unique: ['uprn'] })).toThrow(/not a plain identifier/);
    expect(() => ruleViolationsSql('sales', { rule: 'r', unique: ['uprn)'] })).toThrow(/not a plain identifier/);
  });

  it('a home without a whole position breaks the properties rule "located in the UK" (lat or lng NULL, or outside the box)', async () => {
    const rule = PUBLISHED_TABLES.find((t) => t.name === 'properties')!.rules!.find((r) => r.rule === 'located in the UK');
    expect(rule && 'never' in rule).toBe(true);
    const [r] = await sql([`SELECT count(*)::INTEGER AS n FROM (VALUES (51.45, -2.59), (51.45, NULL), (NULL, -2.59), (40.0, -2.59), (51.45, 5.0))
      t(lat, lng) WHERE ${(rule as { never: string }).never}`]);
    expect(r!.n).toBe(4);
  });

  it('match a fresh build, and checkBuildTables names every missing file, lost column, changed type and reordering', async () => {
    const dataDir = join(tmp.dir, 'a');
    await runBuild({ dataDir, sourcesDir: await synthRegion(2000, 11), log: quietLog });
    const current = join(dataDir, 'current');
    expect(await checkBuildTables(current)).toEqual([]);

    const copy = join(tmp.dir, 'tampered');
    cpSync(current, copy, { recursive: true, dereference: true });
    const q = (f: string) => `'${join(copy, f)}'`;
    await sql([
      // sales: price as text, match_score dropped
      `COPY (SELECT * EXCLUDE (match_score) REPLACE (price::VARCHAR AS price) FROM read_parquet(${q('sales.parquet')})) TO ${q('sales.tmp')} (FORMAT parquet)`,
      // price_growth: the same columns, last one first
      `COPY (SELECT enough_sales, * EXCLUDE (enough_sales) FROM read_parquet(${q('price_growth.parquet')})) TO ${q('price_growth.tmp')} (FORMAT parquet)`,
    ]);
    cpSync(join(copy, 'sales.tmp'), join(copy, 'sales.parquet'));
    cpSync(join(copy, 'price_growth.tmp'), join(copy, 'price_growth.parquet'));
    rmSync(join(copy, 'postcodes.parquet'));
    const growthCols = ['enough_sales', 'area_level', 'area_code', 'parent_code', 'as_of_month', 'index', 'growth_1y', 'growth_3y',
      'growth_5y', 'growth_10y', 'sales_12m', 'median_price_12m', 'repeat_pairs'];
    expect(await checkBuildTables(copy)).toEqual([
      'sales.price: VARCHAR, contract says BIGINT',
      'sales.match_score: missing (contract: DOUBLE)',
      `price_growth: columns out of the contract's order (file: ${growthCols.join(', ')})`,
      'postcodes: no file postcodes.parquet',
    ]);
  }, 180_000);

  it('fail a build with a planted bad row on its row rule, and current stays on the good build', async () => {
    const sources = join(tmp.dir, 'src-planted');
    cpSync(await synthRegion(2000, 11), sources, { recursive: true });
    const dataDir = join(tmp.dir, 'b');
    const first = await runBuild({ dataDir, sourcesDir: sources, log: quietLog });

    // One certificate, the only one of a UPRN the address base has, now says 9,000 m²
    // (96,875 sq ft): a valid EPC row, but outside the properties rule (50–50,000 sq ft).
    const certs = join(sources, 'epc', 'certificates.csv');
    const known = new Set((await sql([`SELECT uprn::VARCHAR AS u FROM read_parquet('${join(dataDir, 'current', 'properties.parquet')}')`])).map((r) => String(r.u)));
    const lines = readFileSync(certs, 'utf8').split('\n');
    const header = parse(lines[0]!)[0] as string[];
    const [AREA, UPRN] = [header.indexOf('TOTAL_FLOOR_AREA'), header.indexOf('UPRN')];
    // The file has planted malformed rows: consider only lines that parse to a full row.
    const rows = lines.slice(1).map((line, i) => {
      try {
        const [f] = parse(line) as string[][];
        return f?.length === header.length ? { at: i + 1, f } : undefined;
      } catch {
        return undefined;
      }
    });
    const perUprn = new Map<string, number>();
    for (const r of rows) if (r) perUprn.set(r.f[UPRN]!, (perUprn.get(r.f[UPRN]!) ?? 0) + 1);
    const pick = rows.find((r) => r && known.has(r.f[UPRN]!) && perUprn.get(r.f[UPRN]!) === 1 && Number(r.f[AREA]) > 0)!;
    expect(pick).toBeDefined();
    pick.f[AREA] = '9000';
    lines[pick.at] = pick.f.map((v) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v)).join(',');
    writeFileSync(certs, lines.join('\n'));

    const err = await runBuild({ dataDir, sourcesDir: sources, log: quietLog }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildValidationError);
    expect((err as BuildValidationError).failures).toEqual(['properties: plausible floor area (sq ft) (1 rows break it)']);
    expect(await currentBuildId(dataDir)).toBe(first.build_id);
    await verifyBuild(join(dataDir, 'current'));
    expect(readdirSync(join(dataDir, 'builds'))).toEqual([first.build_id]);
  }, 180_000);
});
