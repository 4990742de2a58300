import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources } from '../../../etl/pipeline/discover.ts';
import { stageSources } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { hasRaw, RAW_DIR } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

async function db() {
  const inst = await DuckDBInstance.create(':memory:');
  return inst.connect();
}

describe('stageSources', () => {
  it('stages each file into its table, counts rejects per file, and creates empty tables for absent kinds', async () => {
    mkdirSync(join(tmp.dir, 'uprn'), { recursive: true });
    writeFixture(tmp.dir, 'uprn/a.csv', 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n1,358260,172796,51.44,-2.60\nx,1,1,51,-2\n');
    writeFixture(tmp.dir, 'uprn/b.csv', 'UPRN,X_COORDINATE,Y_COORDINATE,LATITUDE,LONGITUDE\n2,358261,172797,51.45,-2.61\n');
    const conn = await db();
    const { files } = await discoverSources(tmp.dir, SOURCES);
    const reports = await stageSources(conn, files, '2026-01-01');
    expect(reports.map((r) => [r.path, r.rows_read, r.rows_rejected, r.rejected_by_reason])).toEqual([
      ['uprn/a.csv', 1, 1, { 'invalid:uprn': 1 }],
      ['uprn/b.csv', 1, 0, {}],
    ]);
    expect(reports[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    const rows = (await conn.runAndReadAll('SELECT uprn::INTEGER AS uprn, _file_no FROM stg_os_uprn ORDER BY uprn')).getRowObjectsJson();
    expect(rows).toEqual([{ uprn: 1, _file_no: 1 }, { uprn: 2, _file_no: 2 }]);
    for (const spec of SOURCES) {
      const n = (await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${spec.table}`)).getRowObjectsJson()[0]!.n;
      expect(typeof n).toBe('number');
    }
    conn.closeSync();
  });
});

describe('stageSources: Scottish and England and Wales certificates', () => {
  it('stages both into stg_epc, each file read by its own reader with its own rejects', async () => {
    const dir = join(tmp.dir, 'both');
    mkdirSync(join(dir, 'epc'), { recursive: true });
    writeFixture(dir, 'epc/certificates.csv', 'LMK_KEY,ADDRESS1,POSTCODE,CURRENT_ENERGY_RATING,LODGEMENT_DATE,UPRN\nk1,1 High St,BS1 1AA,D,2020-01-02,101\n');
    writeFixture(dir, 'epc/D_EPC_data.csv', [
      'Property_UPRN,OSG_UPRN,Report Reference Number,Address 1,Post Town,Postcode,Date of Certificate,Current energy efficiency rating band,Total floor area (m²)',
      'BUILDING_REFERENCE_NUMBER,OSG_REFERENCE_NUMBER,REPORT_REFERENCE_NUMBER,ADDRESS1,POST_TOWN,POSTCODE,LODGEMENT_DATE,CURRENT_ENERGY_RATING,TOTAL_FLOOR_AREA',
      '1001,906700000001,0100-0001,1 Leith Walk,EDINBURGH,EH6 5AA,2021-03-04,C,61.5',
      '1002,906700000002,0100-0002,2 Leith Walk,EDINBURGH,EH6 5AA,2021-03-04,X,70',
    ].join('\n') + '\n');
    const conn = await db();
    const { files } = await discoverSources(dir, SOURCES);
    const reports = await stageSources(conn, files, '2026-01-01');
    expect(reports.map((r) => [r.name, r.path, r.rows_read, r.rejected_by_reason])).toEqual([
      ['epc', 'epc/certificates.csv', 1, {}],
      ['epc_scotland', 'epc/D_EPC_data.csv', 1, { 'invalid:current_energy_rating': 1 }],
    ]);
    const rows = (await conn.runAndReadAll(
      'SELECT certificate_id, uprn::VARCHAR AS uprn, posttown, total_floor_area_m2, country FROM stg_epc ORDER BY certificate_id',
    )).getRowObjectsJson();
    expect(rows).toEqual([
      { certificate_id: '0100-0001', uprn: '906700000001', posttown: 'EDINBURGH', total_floor_area_m2: 61.5, country: 'Scotland' },
      { certificate_id: 'k1', uprn: '101', posttown: null, total_floor_area_m2: null, country: null },
    ]);
    conn.closeSync();
  });
});

describe.skipIf(!hasRaw('SOURCES.md'))('stageSources on the shared real samples', () => {
  it('stages every sample with the row counts SOURCES.md states and as-of dates no later than today', async () => {
    const conn = await db();
    const { files } = await discoverSources(RAW_DIR, SOURCES);
    // The 1M-row calendar is staged in the ETL tests; here it would only add time.
    const reports = await stageSources(conn, files.filter((f) => f.kind !== 'airbnb_calendar'), '2026-11-21');
    const rows = (kind: string) => reports.filter((r) => r.name === kind).reduce((s, r) => s + r.rows_read, 0);
    expect(rows('airbnb_listings')).toBe(2845);
    expect(rows('airbnb_reviews')).toBe(106751);
    expect(rows('codepoint')).toBe(27245 + 3650);
    expect(rows('onspd')).toBe(8048);
    expect(rows('price_paid')).toBe(10298 + 200 + 2864 + 321);
    expect(rows('hmo_register')).toBe(3211 + 16 + 1106); // Oxford's register and exemptions, Sheffield's register
    const hmo = reports.find((r) => r.path.endsWith('hmo-simplified-register.csv'))!;
    expect(hmo.as_of! <= '2026-11-21').toBe(true);
    const listings = reports.find((r) => r.name === 'airbnb_listings')!;
    expect(listings.as_of).toBe('2025-09-26');
    expect(reports.find((r) => r.path.includes('ni_export'))!.rejected_by_reason).toEqual({ wrong_column_count: 1 });
    conn.closeSync();
  }, 120_000);
});
