/**
 * The index checked against UK HPI (issue 48): a planted diverging district is flagged in
 * the manifest's quality section, a consistent one is not, a district on a wider area's
 * index is not compared, and the window ends where UK HPI ends.
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { indexCheckStage } from '../../../etl/stages/50-checks/20-index-vs-ukhpi/stage.ts';
import { INDEX_CHECK } from '../../../schemas/tables/market.ts';

let conn: DuckDBConnection;
beforeAll(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
});
afterAll(() => conn.closeSync());

const months = (from: string, n: number) => {
  const [y, m] = from.split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, k) => {
    const t = y * 12 + m - 1 + k;
    return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`;
  });
};

/** A series growing by `annual` a year, compounding monthly, from 100 at its first month. */
const series = (ms: string[], annual: number) => ms.map((month, k) => ({ month, index: 100 * (1 + annual) ** (k / 12) }));

async function load(ours: Record<string, { annual: number; enough: boolean; last: string }>, uk: Record<string, { annual: number; last: string }>) {
  await conn.run('CREATE OR REPLACE TABLE price_index_monthly (area_level VARCHAR, area_code VARCHAR, month VARCHAR, index DOUBLE, enough_sales BOOLEAN, repeat_pairs INTEGER)');
  await conn.run('CREATE OR REPLACE TABLE ukhpi_monthly (area_code VARCHAR, month VARCHAR, index DOUBLE)');
  for (const [code, o] of Object.entries(ours)) {
    const ms = months('2023-01', 1 + (Number(o.last.slice(0, 4)) * 12 + Number(o.last.slice(5)) - (2023 * 12 + 1)));
    for (const r of series(ms, o.annual)) await conn.run(`INSERT INTO price_index_monthly VALUES ('district', '${code}', '${r.month}', ${r.index}, ${o.enough}, 400)`);
  }
  for (const [code, u] of Object.entries(uk)) {
    const ms = months('2023-01', 1 + (Number(u.last.slice(0, 4)) * 12 + Number(u.last.slice(5)) - (2023 * 12 + 1)));
    for (const r of series(ms, u.annual)) await conn.run(`INSERT INTO ukhpi_monthly VALUES ('${code}', '${r.month}', ${r.index})`);
  }
}

async function check(): Promise<any> {
  const ctx = { conn, quality: {} as Record<string, unknown> } as unknown as BuildContext;
  await indexCheckStage.run(ctx);
  return (ctx.quality as Record<string, unknown>).index_vs_ukhpi;
}

describe('index against UK HPI', () => {
  it('flags the planted diverging district only, with both changes over the same months', async () => {
    await load(
      {
        E06000023: { annual: 0.03, enough: true, last: '2025-08' }, // Bristol: 3% a year, as UK HPI
        E07000082: { annual: 0.15, enough: true, last: '2025-08' }, // Stroud: planted 15% against UK HPI's 2%
        E09000001: { annual: 0.4, enough: false, last: '2025-08' }, // the City: on a wider index, not compared
      },
      { E06000023: { annual: 0.03, last: '2025-06' }, E07000082: { annual: 0.02, last: '2025-06' }, E09000001: { annual: 0.02, last: '2025-06' } },
    );
    const q = await check();
    expect(q.tolerance_pp).toBe(INDEX_CHECK.tolerancePp);
    expect(q.compared).toBe(2);
    expect(q.flagged).toEqual(['E07000082']);
    const stroud = q.districts.find((d: { district: string }) => d.district === 'E07000082');
    // The window ends at UK HPI's last month (June), 12 months back: 15% against 2%, 13 points apart.
    expect(stroud).toMatchObject({ from: '2024-06', to: '2025-06', flagged: true });
    expect(stroud.index_change).toBeCloseTo(0.15, 3);
    expect(stroud.ukhpi_change).toBeCloseTo(0.02, 3);
    expect(stroud.gap_pp).toBeCloseTo(13, 1);
    const bristol = q.districts.find((d: { district: string }) => d.district === 'E06000023');
    expect(bristol.gap_pp).toBeCloseTo(0, 2);
    expect(bristol.flagged).toBe(false);
  });

  it('a gap just under the tolerance is not flagged; just over is', async () => {
    const under = (INDEX_CHECK.tolerancePp - 0.5) / 100;
    const over = (INDEX_CHECK.tolerancePp + 0.5) / 100;
    await load(
      { A: { annual: 0.02 + under, enough: true, last: '2025-01' }, B: { annual: 0.02 + over, enough: true, last: '2025-01' } },
      { A: { annual: 0.02, last: '2025-01' }, B: { annual: 0.02, last: '2025-01' } },
    );
    const q = await check();
    expect(q.flagged).toEqual(['B']);
  });

  it('a district without UK HPI rows, or a build without any, compares nothing and flags nothing', async () => {
    await load({ E06000023: { annual: 0.5, enough: true, last: '2025-08' } }, {});
    expect(await check()).toMatchObject({ compared: 0, flagged: [], districts: [] });
  });
});
