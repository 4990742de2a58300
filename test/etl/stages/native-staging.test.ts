import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverSources, type SourceFile } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import type { SourceKind } from '../../../etl/sources/index.ts';
import { stagingPath } from '../../../etl/stages/10-staging/10-stage-sources/staging-path.ts';
import { hasShared, RAW_DIR } from '../../support/raw.ts';
import { synthRegion } from '../../support/region.ts';
import { stageWith } from '../../support/staging-paths.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const nativeKind = (f: SourceFile) => SOURCES.some((s) => s.kind === f.kind && s.native !== undefined);

/** Stages the files both ways and checks every report and every staged row (in order) agree. */
async function expectSamePaths(files: SourceFile[], today: string) {
  const ts = await stageWith('ts', files, today);
  const native = await stageWith('native', files, today);
  expect(native.reports).toEqual(ts.reports);
  expect(Object.keys(native.rows).sort()).toEqual(Object.keys(ts.rows).sort());
  for (const [table, rows] of Object.entries(ts.rows)) {
    expect(native.rows[table]!.length, table).toBe(rows.length);
    expect(native.rows[table], table).toEqual(rows);
  }
  return { ts, native };
}

describe('native staging: the same rows and reports as the TS readers', () => {
  it('on a synthetic region (3,000 addresses, messy rows planted), every file read natively', async () => {
    const dir = await synthRegion(3000, 5);
    const files = (await discoverSources(dir, SOURCES)).files.filter(nativeKind);
    expect(new Set(files.map((f) => f.kind))).toEqual(new Set(SOURCES.filter((s) => s.native).map((s) => s.kind)));
    const { ts, native } = await expectSamePaths(files, '2025-09-30');
    // No file handed back to the TS reader: the comparison above is of the native path itself.
    expect(native.fallbacks).toEqual({});
    // The planted mess is there to be refused, by both.
    expect(ts.reports.reduce((n, r) => n + r.rows_rejected, 0)).toBeGreaterThan(0);
  }, 120_000);

  const present = hasShared('data/raw');
  it.skipIf(!present)('on every real sample of those kinds under ../shared/data/raw', async () => {
    const files = (await discoverSources(RAW_DIR, SOURCES)).files.filter(nativeKind);
    expect(files.length).toBeGreaterThan(0);
    const { native } = await expectSamePaths(files, '2026-01-01');
    // Only the Price Paid report-builder files (another layout) and appd-test.csv (an unquoted
    // cell with doubled quotes, read with relax_quotes) go to the TS reader.
    for (const rel of Object.keys(native.fallbacks)) expect(rel).toMatch(/^ppd\/ppd_/);
    expect(files.length - Object.keys(native.fallbacks).length).toBeGreaterThanOrEqual(files.length - 3);
  }, 300_000);
});

const GUID = (n: number) => `{${String(n).padStart(8, '0')}-0000-4000-8000-000000000000}`;
const pp = (n: number, date: string, postcode: string) =>
  `"${GUID(n)}","250000","${date}","${postcode}","T","N","F","12","","HIGH STREET","","BRISTOL","BRISTOL","CITY OF BRISTOL","A","A"`;

function fixture(kind: SourceKind, rel: string, content: string): SourceFile {
  mkdirSync(dirname(join(tmp.dir, rel)), { recursive: true });
  const path = writeFixture(tmp.dir, rel, content);
  return { kind, path, rel, bytes: statSync(path).size };
}

describe('native staging: hand-made bad rows get the TS reader\'s reasons', () => {
  it('Price Paid: a short row, a bad date and a bad postcode, read natively', async () => {
    const file = fixture('price_paid', 'ppd/bad.csv', [
      pp(1, '2020-01-02 00:00', 'BS1 1AA'),
      pp(2, '2020-02-30 00:00', 'BS1 1AA'),
      pp(3, '2020-03-04 00:00', 'NOT A POSTCODE'),
      `"${GUID(4)}","250000","2020-01-02 00:00"`,
      pp(5, '2020-05-06 00:00', 'bs11aa'),
      // Ids in other forms than the bulk file's braced upper case: lower case, no braces, padded, not a GUID.
      pp(6, '2020-05-07 00:00', 'BS1 1AA').replace('0000-4000-8000', 'abcd-4000-8000'),
      pp(7, '2020-05-08 00:00', 'BS1 1AA').replace(/"\{([^}]*)\}"/, '"$1"'),
      pp(8, '2020-05-09 00:00', 'BS1 1AA').replace('"{', '" {'),
      pp(9, '2020-05-10 00:00', 'BS1 1AA').replace('-0000-4000', '-000-4000'),
    ].join('\r\n') + '\r\n');
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    expect(native.fallbacks).toEqual({});
    expect(ts.reports[0]).toMatchObject({
      rows_read: 5, rows_rejected: 4, as_of: '2020-05-09',
      rejected_by_reason: { 'invalid:date': 1, 'invalid:postcode': 1, 'invalid:transaction_id': 1, wrong_column_count: 1 },
    });
    const rows = ts.rows.stg_price_paid!.map((r) => JSON.parse(r as string));
    expect(rows.map((r) => r.postcode)).toEqual(['BS1 1AA', 'BS1 1AA', 'BS1 1AA', 'BS1 1AA', 'BS1 1AA']);
    expect(rows.map((r) => r.transaction_id)).toEqual([
      '00000001-0000-4000-8000-000000000000', '00000005-0000-4000-8000-000000000000', '00000006-ABCD-4000-8000-000000000000',
      '00000007-0000-4000-8000-000000000000', '00000008-0000-4000-8000-000000000000',
    ]);
  });

  it('Price Paid: an unterminated quote is a csv_syntax reject in both (the native path hands the file back)', async () => {
    const file = fixture('price_paid', 'ppd/open-quote.csv', [pp(1, '2020-01-02 00:00', 'BS1 1AA'), `"${GUID(2)}","250000","2020-01-02 00:00","BS1 1AA`].join('\n') + '\n');
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    // The byte check's reason, though it runs beside DuckDB's read (which gives up on the file too).
    expect(native.fallbacks).toEqual({ 'ppd/open-quote.csv': 'a quote left open' });
    expect(ts.reports[0]).toMatchObject({ rows_read: 1, rows_rejected: 1, rejected_by_reason: { csv_syntax: 1 } });
  });

  it('EPC: a short row, a bad lodgement date, a bad postcode and a stray quote', async () => {
    const header = 'LMK_KEY,ADDRESS1,POSTCODE,CURRENT_ENERGY_RATING,LODGEMENT_DATE,UPRN,NUMBER_HABITABLE_ROOMS';
    const good = fixture('epc', 'epc/bad.csv', [
      header,
      'k1,1 High St,bs1 1aa,d,2020-01-02,101,',
      'k2,2 High St,BS1 1AA,D,02/13/2020,102,3',
      'k3,3 High St,B,D,2020-01-02,103,3',
      'k4,4 High St',
      'k5,"5 High St, rear",BS1 1AA,N/A,2020-01-02,UPRN-000000000105,4',
      // JS trim strips Unicode white space (no-break and ideographic spaces), not only ASCII.
      'k8,\u00a08 High St\u3000,\tbs1\u00a01aa ,B,2020-01-02,,\u2003',
    ].join('\n') + '\n');
    const stray = fixture('epc', 'epc/stray.csv', [header, 'k6,6 "High" St,BS1 1AA,D,2020-01-02,106,3'].join('\n') + '\n');
    const { ts, native } = await expectSamePaths([good, stray], '2026-01-01');
    expect(Object.keys(native.fallbacks)).toEqual(['epc/stray.csv']);
    expect(ts.reports.map((r) => [r.rows_read, r.rejected_by_reason])).toEqual([
      [3, { 'invalid:lodgement_date': 1, 'invalid:postcode': 1, wrong_column_count: 1 }],
      [0, { csv_syntax: 1 }],
    ]);
    const rows = ts.rows.stg_epc!.map((r) => JSON.parse(r as string));
    expect(rows.map((r) => [r.certificate_id, r.uprn, r.address1, r.postcode, r.current_energy_rating, r.number_habitable_rooms])).toEqual([
      ['k1', 101, '1 High St', 'BS1 1AA', 'D', null],
      ['k5', 105, '5 High St, rear', 'BS1 1AA', null, 4],
      ['k8', null, '8 High St', 'BS1 1AA', 'B', null],
    ]);
  });

  it('a line break csv-parse reads as text (a lone CR in an LF file) hands the file to the TS reader', async () => {
    const header = 'LMK_KEY,ADDRESS1,POSTCODE,CURRENT_ENERGY_RATING,LODGEMENT_DATE';
    const file = fixture('epc', 'epc/lone-cr.csv', `${header}\nk1,1 High St,BS1 1AA,D,2020-01-02\nk2,2 High\rSt,BS1 1AA,D,2020-01-02\n`);
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    expect(native.fallbacks).toEqual({ 'epc/lone-cr.csv': 'mixed line breaks' });
    expect(ts.reports[0]).toMatchObject({ rows_read: 2, rows_rejected: 0 });
  });

  it('a quote inside an unquoted cell, which DuckDB reads as text, hands the file to the TS reader and stages nothing natively', async () => {
    const header = 'LMK_KEY,ADDRESS1,POSTCODE,CURRENT_ENERGY_RATING,LODGEMENT_DATE';
    // Far enough down the file that the first-record read does not reach it.
    const good = Array.from({ length: 50_000 }, (_, i) => `k${i},${i} High St,BS1 1AA,D,2020-01-02`);
    const file = fixture('epc', 'epc/inner-quote.csv', `${header}\n${good.join('\n')}\nkq,2 "High" St,BS1 1AA,D,2020-01-02\nkz,3 High St,BS1 1AA,D,2020-01-02\n`);
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    expect(native.fallbacks).toEqual({ 'epc/inner-quote.csv': 'a quote inside an unquoted cell' });
    expect(ts.reports[0]).toMatchObject({ rows_read: 50_001, rows_rejected: 1 });
  });

  it('Scottish certificates: either header row first, ids and UPRNs as the reader makes them, its markers, read natively', async () => {
    const named = 'BUILDING_REFERENCE_NUMBER,OSG_REFERENCE_NUMBER,REPORT_REFERENCE_NUMBER,ADDRESS1,POSTCODE,LODGEMENT_DATE,CURRENT_ENERGY_RATING,TOTAL_FLOOR_AREA';
    const labels = 'Property_UPRN,OSG_UPRN,Report Reference Number,Address 1,Postcode,Date of Certificate,Current energy efficiency rating band,Total floor area (m²)';
    const rows = [
      'P1,906012345.0,R1,1 Main St,eh1 1aa,2020-01-02,d,55',
      'P2,0,,2 Main St,EH1 1AA,02/03/2021,C,NODATA!', // no report: P2 with the date as written; UPRN 0 is none
      'P3,000.00,R3,3 Main St,EH1 1AA,2021-02-30,C,', // no such day
      'P4,abc,R4,4 Main St,EH1 1AA,2021-02-03,C,', // not a UPRN
      'P5,12,R5,5 Main St,EH1 1AA,2021-02-03,Z,', // not a band
      'P6,13,R6,6 Main St', // short
      ',14,N/A,7 Main St,EH1 1AA,2021-02-04,B,invalid!', // no report and no property id: no certificate id
      'P8, 15 ,\u00a0R8 ,8 Main St,EH1 1AA,2021-02-05,b,0', // JS trimming; floor area 0 is none
    ];
    const both = fixture('epc_scotland', 'epc/scotland/both.csv', ['\ufeff' + labels, named, ...rows].join('\r\n') + '\r\n');
    const namedFirst = fixture('epc_scotland', 'epc/scotland/named-first.csv', [named, labels, ...rows.slice(0, 2)].join('\n') + '\n');
    const labelsOnly = fixture('epc_scotland', 'epc/scotland/labels-only.csv', [labels, ...rows.slice(0, 2)].join('\n') + '\n');
    // A second header row after an empty line, or of another width: read by the TS reader.
    const gap = fixture('epc_scotland', 'epc/scotland/gap.csv', [labels, '', named, rows[0]].join('\n') + '\n');
    const wide = fixture('epc_scotland', 'epc/scotland/wide.csv', [labels, named + ',EXTRA', rows[0]].join('\n') + '\n');
    const { ts, native } = await expectSamePaths([both, namedFirst, labelsOnly, gap, wide], '2026-01-01');
    expect(native.fallbacks).toEqual({
      'epc/scotland/gap.csv': 'a layout only the TS reader reads (or refuses)',
      'epc/scotland/wide.csv': 'a layout only the TS reader reads (or refuses)',
    });
    expect(ts.reports.map((r) => [r.rows_read, r.rejected_by_reason])).toEqual([
      [3, { 'invalid:certificate_id': 1, 'invalid:current_energy_rating': 1, 'invalid:lodgement_date': 1, 'invalid:uprn': 1, wrong_column_count: 1 }],
      [2, {}],
      [2, {}],
      [1, {}],
      [1, {}],
    ]);
    const staged = ts.rows.stg_epc!.map((r) => JSON.parse(r as string)).slice(0, 4);
    expect(staged.map((r) => [r.certificate_id, r.uprn, r.postcode, r.current_energy_rating, r.total_floor_area_m2, r.lodgement_date, r.country])).toEqual([
      ['R1', 906012345, 'EH1 1AA', 'D', 55, '2020-01-02', 'Scotland'],
      ['P2:02/03/2021', null, 'EH1 1AA', 'C', null, '2021-03-02', 'Scotland'],
      ['R8', 15, 'EH1 1AA', 'B', null, '2021-02-05', 'Scotland'],
      ['R1', 906012345, 'EH1 1AA', 'D', 55, '2020-01-02', 'Scotland'],
    ]);
  });

  it('rental evidence: each field\'s rule, the room-let rule, a repeated id and JS trimming, read natively', async () => {
    const row = (cells: Partial<Record<string, string>>) => {
      const base: Record<string, string> = {
        evidence_id: 'E1', let_date: '2025-03-01', address: '1 High St', postcode: 'BS1 1AA', uprn: '101',
        property_type: 'flat', bedrooms: '2', let_type: 'whole', rent_pcm: '950', furnished: 'furnished', source: 'agent',
      };
      return ['evidence_id', 'let_date', 'address', 'postcode', 'uprn', 'property_type', 'bedrooms', 'let_type', 'rent_pcm', 'furnished', 'source']
        .map((k) => cells[k] ?? base[k]).join(',');
    };
    const file = fixture('rental_evidence', 'rents/evidence.csv', [
      // Columns in another order than the published layout, and padded names: found by name.
      ' evidence_id ,let_date,address,postcode,uprn,property_type,bedrooms,let_type,rent_pcm,furnished,source',
      row({ evidence_id: 'A1' }),
      row({ evidence_id: ' ', let_date: 'bad' }), // the first failing field is the reason
      row({ evidence_id: 'A2', let_date: '2024-02-30' }),
      row({ evidence_id: 'A3', let_date: '01/03/2025' }),
      row({ evidence_id: 'Y0', let_date: '0000-01-01' }), // a real day to JS's Date, and to DuckDB
      row({ evidence_id: 'Y1', let_date: '1900-02-29' }), // not a leap year
      row({ evidence_id: 'Y2', let_date: '２０２５-03-01' }), // full-width digits are not \d in either
      row({ evidence_id: 'A4', address: '\u00a0' }),
      row({ evidence_id: 'A5', postcode: 'bs11aa', uprn: '' }),
      row({ evidence_id: 'A6', postcode: 'NOPE' }),
      row({ evidence_id: 'A7', uprn: '0' }),
      row({ evidence_id: 'A8', uprn: '1.5' }),
      row({ evidence_id: 'A9', uprn: '0x10' }),
      row({ evidence_id: 'B1', property_type: 'House' }),
      row({ evidence_id: 'B2', bedrooms: '' }),
      row({ evidence_id: 'B3', bedrooms: '21' }),
      row({ evidence_id: 'B4', let_type: 'room', bedrooms: '1' }),
      row({ evidence_id: 'B5', let_type: 'room', bedrooms: '3', rent_pcm: '1e3' }),
      row({ evidence_id: 'B6', rent_pcm: '0' }),
      row({ evidence_id: 'B7', rent_pcm: '1e400' }),
      row({ evidence_id: 'B8', furnished: 'yes' }),
      row({ evidence_id: 'B9', furnished: '', source: '' }),
      row({ evidence_id: 'A1', rent_pcm: '1000' }), // a repeat of a valid id
      row({ evidence_id: 'A2' }), // A2 was refused above, so this is its first valid row
      row({ evidence_id: '\u3000C1\t', address: ' 3 Low St ', rent_pcm: ' 875.5 ' }),
    ].join('\n') + '\n');
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    expect(native.fallbacks).toEqual({});
    expect(ts.reports[0]).toMatchObject({
      rows_read: 8, rows_rejected: 17, as_of: '2025-03-01',
      rejected_by_reason: {
        'invalid:evidence_id': 1, 'invalid:let_date': 4, 'invalid:address': 1, 'invalid:postcode': 1, 'invalid:uprn': 2,
        'invalid:property_type': 1, 'invalid:bedrooms': 3, 'invalid:rent_pcm': 2, 'invalid:furnished': 1, 'duplicate:evidence_id': 1,
      },
    });
    const rows = ts.rows.stg_rental_evidence!.map((r) => JSON.parse(r as string));
    expect(rows.map((r) => [r.evidence_id, r.postcode, r.uprn, r.bedrooms, r.rent_pcm, r.furnished, r.source, r.address])).toEqual([
      ['A1', 'BS1 1AA', 101, 2, 950, 'furnished', 'agent', '1 High St'],
      ['Y0', 'BS1 1AA', 101, 2, 950, 'furnished', 'agent', '1 High St'],
      ['A5', 'BS1 1AA', null, 2, 950, 'furnished', 'agent', '1 High St'],
      ['A9', 'BS1 1AA', 16, 2, 950, 'furnished', 'agent', '1 High St'],
      ['B5', 'BS1 1AA', 101, 3, 1000, 'furnished', 'agent', '1 High St'],
      ['B9', 'BS1 1AA', 101, 2, 950, null, null, '1 High St'],
      ['A2', 'BS1 1AA', 101, 2, 950, 'furnished', 'agent', '1 High St'],
      ['C1', 'BS1 1AA', 101, 2, 875.5, 'furnished', 'agent', '3 Low St'],
    ]);
  });

  it('Airbnb calendar: a short row and a bad date are column_count and invalid:date', async () => {
    const file = fixture('airbnb_calendar', 'airbnb/calendar.csv', [
      'listing_id,date,available,price,adjusted_price,minimum_nights,maximum_nights',
      '1,2025-01-01,t,"$1,040.00",,2,30',
      '1,2025-13-01,t,$100.00,,2,30',
      '1,2025-01-02,t',
      '1,2025-01-03,x,$100.00,,2,30',
    ].join('\n') + '\n');
    const { ts, native } = await expectSamePaths([file], '2026-01-01');
    expect(native.fallbacks).toEqual({});
    expect(ts.reports[0]!.rejected_by_reason).toEqual({ column_count: 1, 'invalid:available': 1, 'invalid:date': 1 });
  });
});

describe('stagingPath', () => {
  it('is native unless ETL_STAGING says ts, and refuses anything else', () => {
    expect(stagingPath({})).toBe('native');
    expect(stagingPath({ ETL_STAGING: 'ts' })).toBe('ts');
    expect(stagingPath({ ETL_STAGING: 'native' })).toBe('native');
    expect(() => stagingPath({ ETL_STAGING: 'fast' })).toThrow(/ETL_STAGING/);
  });
});

