import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, type SourceFile } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { stageSources, type SourceReport } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { synthRegion } from '../../support/region.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const TABLES = [...new Set(SOURCES.map((s) => s.table))];

/** Stages `files` on one connection, or on two (the second lane on a second connection); every table's rows in rowid order. */
async function stage(files: readonly SourceFile[], lanes: 1 | 2): Promise<{ reports: SourceReport[]; rows: Record<string, unknown[]> }> {
  const db = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await db.connect();
  const reader: DuckDBConnection | undefined = lanes === 2 ? await db.connect() : undefined;
  try {
    const reports = await stageSources(conn, files, '2025-09-30', undefined, undefined, reader);
    const rows: Record<string, unknown[]> = {};
    for (const t of TABLES) {
      rows[t] = (await conn.runAndReadAll(`SELECT to_json(t)::VARCHAR AS j FROM ${t} t ORDER BY rowid`)).getRowObjectsJson().map((r) => r.j);
    }
    return { reports, rows };
  } finally {
    reader?.closeSync();
    conn.closeSync();
  }
}

describe('stageSources on two connections', () => {
  it('stages a synthetic region to the same rows, in the same order, with the same reports in the same order as one connection', async () => {
    const { files } = await discoverSources(await synthRegion(3000, 5), SOURCES);
    // Both lanes have work: bulk kinds (DuckDB; Scottish certificates after England and Wales ones in stg_epc) and TS-read kinds.
    const kinds = new Set(files.map((f) => f.kind));
    for (const k of ['epc', 'epc_scotland', 'price_paid', 'rental_evidence', 'police_crime', 'listings'] as const) expect(kinds).toContain(k);
    const one = await stage(files, 1);
    const two = await stage(files, 2);
    expect(two.reports).toEqual(one.reports);
    expect(two.reports.map((r) => r.path)).toEqual(one.reports.map((r) => r.path));
    for (const t of TABLES) {
      expect(two.rows[t]!.length, t).toBe(one.rows[t]!.length);
      expect(two.rows[t], t).toEqual(one.rows[t]);
    }
    expect(one.rows.stg_rental_evidence!.length).toBeGreaterThan(0);
    expect(one.rows.stg_epc!.length).toBeGreaterThan(0);
  }, 180_000);

  it('fails the stage when a file of the TS lane is not of its format, after the other lane has stopped', async () => {
    const dir = join(tmp.dir, 'bad');
    mkdirSync(join(dir, 'uprn'), { recursive: true });
    mkdirSync(join(dir, 'hmo'), { recursive: true });
    writeFixture(dir, 'uprn/a.csv', 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n1,358260,172796,51.44,-2.60\n');
    const bad = writeFixture(dir, 'hmo/register.csv', 'colour,shape\nred,round\n');
    const files: SourceFile[] = [
      ...(await discoverSources(dir, SOURCES)).files.filter((f) => f.kind === 'os_uprn'),
      { kind: 'hmo_register', path: bad, rel: 'hmo/register.csv', bytes: statSync(bad).size },
    ];
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const reader = await db.connect();
    await expect(stageSources(conn, files, '2025-09-30', undefined, undefined, reader)).rejects.toThrow(/not an HMO licence register/);
    // The DuckDB lane finished its file before the failure was passed on.
    const [n] = (await conn.runAndReadAll('SELECT count(*)::INTEGER AS n FROM stg_os_uprn')).getRowObjectsJson();
    expect(n).toEqual({ n: 1 });
    reader.closeSync();
    conn.closeSync();
  });

  it('fails, without waiting forever, when a file that a later file of its table waits for fails', async () => {
    const dir = join(tmp.dir, 'bad-epc');
    mkdirSync(join(dir, 'epc'), { recursive: true });
    writeFixture(dir, 'epc/certificates.csv', 'colour,shape\nred,round\n');
    writeFixture(dir, 'epc/D_EPC_data.csv', [
      'BUILDING_REFERENCE_NUMBER,OSG_REFERENCE_NUMBER,REPORT_REFERENCE_NUMBER,ADDRESS1,POST_TOWN,POSTCODE,LODGEMENT_DATE,CURRENT_ENERGY_RATING,TOTAL_FLOOR_AREA',
      '1001,906700000001,0100-0001,1 Leith Walk,EDINBURGH,EH6 5AA,2021-03-04,C,61.5',
    ].join('\n') + '\n');
    const { files } = await discoverSources(dir, SOURCES);
    expect(files.map((f) => f.kind).sort()).toEqual(['epc', 'epc_scotland']);
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const reader = await db.connect();
    await expect(stageSources(conn, files, '2025-09-30', undefined, undefined, reader)).rejects.toThrow(/not an EPC certificates file/);
    // The Scottish file, which waits for the England and Wales one (both now in the DuckDB lane), was never staged.
    const [n] = (await conn.runAndReadAll('SELECT count(*)::INTEGER AS n FROM stg_epc')).getRowObjectsJson();
    expect(n).toEqual({ n: 0 });
    reader.closeSync();
    conn.closeSync();
  });
});
