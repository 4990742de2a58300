import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readPricePaid } from '../../../etl/sources/price_paid/read.ts';
import { PPD_COLUMNS, PPD_REPORT_BUILDER_HEADER, type PricePaidRow } from '../../../schemas/sources/price-paid.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { tempDir, writeFixture } from '../../support/tmp.ts';
import { readAllRows } from '../../support/read-all.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);

const readAll = (path: string) => readAllRows(readPricePaid, path);

const G1 = '5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A';
const G2 = '20E2441A-0F16-49AB-97D4-8737E62A5D93';
const G3 = 'D893EE64-4464-44B5-B01B-8E62403ED83C';

/** A bulk row, every field quoted as in pp-complete.csv. */
function bulk(cells: string[]): string {
  return cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(',');
}
const good = (id: string, status = 'A') =>
  [`{${id}}`, '42000', '1995-12-21 00:00', 'NE4 9DN', 'S', 'N', 'F', '8', '', 'MATFEN PLACE', 'FENHAM',
    'NEWCASTLE UPON TYNE', 'NEWCASTLE UPON TYNE', 'TYNE AND WEAR', 'A', status];

const ROW1 = {
  transaction_id: G1, price: 42000, date: '1995-12-21', postcode: 'NE4 9DN', property_type: 'S',
  new_build: false, tenure: 'F', paon: '8', saon: undefined, street: 'MATFEN PLACE', locality: 'FENHAM',
  town: 'NEWCASTLE UPON TYNE', district: 'NEWCASTLE UPON TYNE', county: 'TYNE AND WEAR', category: 'A',
  record_status: 'A',
};

describe('readPricePaid: bulk CSV', () => {
  it('reads fully quoted rows, gzip or plain, LF or CRLF, with or without a final newline', async () => {
    for (const eol of ['\n', '\r\n']) {
      for (const gz of [false, true]) {
        for (const finalEol of [true, false]) {
          const text = [bulk(good(G1)), bulk(good(G2))].join(eol) + (finalEol ? eol : '');
          const { rows, rejects } = await readAll(writeFixture(tmp.dir, `pp${gz ? '.csv.gz' : '.csv'}`, text, gz));
          expect(rejects.total).toBe(0);
          expect(rows).toEqual([ROW1, { ...ROW1, transaction_id: G2 }]);
        }
      }
    }
  });

  it('reads minimal quoting and un-doubles a stray doubled quote in an unquoted field', async () => {
    const text =
      `{${G1.toLowerCase()}},92500,2015-04-08 00:00,m50  3bs,F,Y,L,"ABITO, 4",APARTMENT 812,CLIPPERS QUAY,,SALFORD,SALFORD,GREATER MANCHESTER,A,A\n` +
      `{${G2}},318000,2015-07-08 00:00,NG9 3AR,O,N,F,4,,KESWICK "" CLOSE,BEESTON,NOTTINGHAM,BROXTOWE,NOTTINGHAMSHIRE,B,A\n`;
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'minimal.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows[0]).toMatchObject({
      transaction_id: G1, postcode: 'M50 3BS', property_type: 'F', new_build: true, tenure: 'L',
      paon: 'ABITO, 4', saon: 'APARTMENT 812', locality: undefined,
    });
    expect(rows[1]).toMatchObject({ street: 'KESWICK " CLOSE', category: 'B', property_type: 'O' });
  });

  it('keeps a row with a blank postcode and reports monthly-update statuses as published', async () => {
    const noPostcode = good(G1);
    noPostcode[3] = '';
    const text = [bulk(noPostcode), bulk(good(G2, 'C')), bulk(good(G3, 'D'))].join('\n');
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'monthly.csv', text));
    expect(rejects.total).toBe(0);
    expect(rows.map((r) => [r.transaction_id, r.postcode, r.record_status])).toEqual([
      [G1, undefined, 'A'],
      [G2, 'NE4 9DN', 'C'],
      [G3, 'NE4 9DN', 'D'],
    ]);
  });

  it('rejects each malformed row with a specific reason and keeps reading', async () => {
    const bad = (i: number, v: string) => {
      const c = good(G1);
      c[i] = v;
      return bulk(c);
    };
    const lines = [
      bulk(good(G3)), // the layout is detected from the first record
      bad(0, 'not-a-guid'), // transaction_id
      bad(1, '0'), // price must be > 0
      bad(1, '12.50'), // price must be whole pounds
      bad(1, ''), // price missing
      bad(2, '2015-02-30 00:00'), // no such day
      bad(2, '21/12/95'), // not a date format we know
      bad(3, 'NOT A POSTCODE'),
      bad(4, 'X'), // property_type
      bad(5, 'U'), // old_new
      bad(6, 'Q'), // duration
      bad(14, 'C'), // category
      bad(15, 'X'), // record status
      bulk(good(G1).slice(0, 15)), // 15 columns
      bulk([...good(G1), 'extra']), // 17 columns
      bulk(good(G2)),
      '"{5BBE9CB3-6332-4EB0-9CD3-8737CEA4A65A}","1', // quote never closed: csv syntax
    ];
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'bad.csv', lines.join('\n')));
    expect(rows.map((r) => r.transaction_id)).toEqual([G3, G2]);
    expect(rejects.toJSON().by_reason).toEqual({
      csv_syntax: 1,
      'invalid:category': 1,
      'invalid:date': 2,
      'invalid:new_build': 1,
      'invalid:postcode': 1,
      'invalid:price': 3,
      'invalid:property_type': 1,
      'invalid:record_status': 1,
      'invalid:tenure': 1,
      'invalid:transaction_id': 1,
      wrong_column_count: 2,
    });
    expect(rejects.samples.find((s) => s.reason === 'wrong_column_count')).toMatchObject({ line: 14 });
  });

  it('refuses a file that is not Price Paid, and reads an empty file as no rows', async () => {
    await expect(readAll(writeFixture(tmp.dir, 'other.csv', 'a,b,c\n1,2,3\n'))).rejects.toThrow(/not a Price Paid file/);
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'empty.csv', ''));
    expect(rows).toEqual([]);
    expect(rejects.total).toBe(0);
  });
});

describe('readPricePaid: report-builder CSV', () => {
  const header = PPD_REPORT_BUILDER_HEADER.join(',');
  const rec = (id: string) =>
    bulk([id, '1285000', '2021-04-16', 'EC2Y 8AT', 'F', 'N', 'L', 'FLAT 1', 'SPEED HOUSE', 'BARBICAN', '', 'LONDON',
      'CITY OF LONDON', 'GREATER LONDON', 'A', `http://landregistry.data.gov.uk/data/ppi/transaction/${id}/current`]);
  const ROW = {
    transaction_id: G1, price: 1285000, date: '2021-04-16', postcode: 'EC2Y 8AT', property_type: 'F',
    new_build: false, tenure: 'L', saon: 'FLAT 1', paon: 'SPEED HOUSE', street: 'BARBICAN', locality: undefined,
    town: 'LONDON', district: 'CITY OF LONDON', county: 'GREATER LONDON', category: 'A', record_status: 'A',
  };

  it('maps columns by header name (SAON before PAON); every row is an addition', async () => {
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'rb.csv', `${header}\n${rec(G1)}\n${rec(G2)}\n`));
    expect(rejects.total).toBe(0);
    expect(rows).toEqual([ROW, { ...ROW, transaction_id: G2 }]);
  });

  it('recovers the first record when the header has no line break after it (LF, CRLF, gzip)', async () => {
    for (const eol of ['\n', '\r\n']) {
      for (const gz of [false, true]) {
        const text = `${header}${rec(G1)}${eol}${rec(G2)}${eol}`;
        const { rows, rejects } = await readAll(writeFixture(tmp.dir, `glued${gz ? '.csv.gz' : '.csv'}`, text, gz));
        expect(rejects.total).toBe(0);
        expect(rows.map((r) => r.transaction_id)).toEqual([G1, G2]);
      }
    }
  });

  it('rejects a row with the wrong column count, and refuses a header missing a column', async () => {
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'rb-bad.csv', `${header}\n"${G1}","1"\n${rec(G2)}`));
    expect(rows.map((r) => r.transaction_id)).toEqual([G2]);
    expect(rejects.toJSON().by_reason).toEqual({ wrong_column_count: 1 });
    const noPrice = header.replace('price_paid,', '');
    await expect(readAll(writeFixture(tmp.dir, 'rb-nohdr.csv', `${noPrice}\n`))).rejects.toThrow(/no price_paid column/);
  });
});

const PP = 'ppd/pp-complete_head_1995/pp-complete_first10297rows.csv';
const APPD = 'ppd/ppd_test_sample_2015/appd-test.csv';
const BARBICAN = 'ppd/ppd_report_builder_city_of_london/barbican_raw.csv';
const GOLDEN = 'ppd/ppd_report_builder_city_of_london/golden_lane.csv';

describe.skipIf(!hasRaw(PP))('readPricePaid on real pp-complete head', () => {
  it('reads all 10,298 rows (no final newline), 0 rejects, 8 with a blank postcode', async () => {
    const { rows, rejects } = await readAll(rawPath(PP));
    expect(rejects.toJSON().total).toBe(0);
    expect(rows).toHaveLength(10_298);
    expect(rows[0]).toEqual(ROW1);
    expect(rows.filter((r) => r.postcode === undefined)).toHaveLength(8);
    expect(rows.every((r) => r.date >= '1995-01-01' && r.date <= '1995-12-31')).toBe(true);
  });
});

describe.skipIf(!hasRaw(APPD))('readPricePaid on real minimal-quoting sample', () => {
  it('reads all 200 rows including the quoted-comma PAON and the stray-quote street', async () => {
    const { rows, rejects } = await readAll(rawPath(APPD));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(200);
    expect(rows.find((r) => r.paon === 'ABITO, 4')?.saon).toBe('APARTMENT 812');
    expect(rows.filter((r) => r.district === 'CITY OF BRISTOL')).toHaveLength(3);
    expect(rows.find((r) => r.transaction_id === 'EB9934F0-5C82-48ED-ACB5-009953605A88')?.street).toBe('KESWICK " CLOSE');
  });
});

describe.skipIf(!hasRaw(BARBICAN) || !hasRaw(GOLDEN))('readPricePaid on real report-builder files', () => {
  // SOURCES.md counts 2,863 transactions (lines after the header line); the glued first
  // record makes 2,864 distinct transactions, and the reader recovers it.
  it('barbican_raw.csv: recovers the record glued to the header', async () => {
    const { rows, rejects } = await readAll(rawPath(BARBICAN));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(2_864);
    expect(new Set(rows.map((r) => r.transaction_id)).size).toBe(2_864);
    expect(rows[0]).toMatchObject({
      transaction_id: 'DBA933F9-BC2B-669D-E053-6B04A8C0AD56', price: 1_285_000, date: '2021-04-16',
      saon: 'FLAT 1', paon: 'SPEED HOUSE', record_status: 'A',
    });
  });

  it('golden_lane.csv: 321 rows', async () => {
    const { rows, rejects } = await readAll(rawPath(GOLDEN));
    expect(rejects.total).toBe(0);
    expect(rows).toHaveLength(321);
    expect(rows.every((r) => r.postcode?.startsWith('EC1Y ') || r.postcode?.startsWith('EC2Y '))).toBe(true);
  });
});

describe('readPricePaid: round trip through every layout', () => {
  const text = fc
    .string({ unit: fc.constantFrom(...'ABCXYZ019 ,\'"-&/'.split('')), maxLength: 12 })
    .filter((s) => !s.includes('""')) // see docs: a literal "" is read as one quote
    .map((s) => (s.trim() === '' ? undefined : s.trim()));
  const row = fc.record({
    transaction_id: fc.uuid().map((u) => u.toUpperCase()),
    price: fc.integer({ min: 1, max: 500_000_000 }),
    date: fc.date({ min: new Date('1995-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    postcode: fc.option(fc.constantFrom('BS1 4DJ', 'EC2Y 8AT', 'M50 3BS', 'W1A 1AA', 'SW1A 2AA'), { nil: undefined }),
    property_type: fc.constantFrom('D', 'S', 'T', 'F', 'O' as const),
    new_build: fc.boolean(),
    tenure: fc.constantFrom('F', 'L', 'U' as const),
    paon: text, saon: text, street: text, locality: text, town: text, district: text, county: text,
    category: fc.constantFrom('A', 'B' as const),
    record_status: fc.constantFrom('A', 'C', 'D' as const),
  });
  const cellsBulk = (r: PricePaidRow) => [
    `{${r.transaction_id}}`, String(r.price), `${r.date} 00:00`, r.postcode ?? '', r.property_type, r.new_build ? 'Y' : 'N',
    r.tenure, r.paon ?? '', r.saon ?? '', r.street ?? '', r.locality ?? '', r.town ?? '', r.district ?? '', r.county ?? '',
    r.category, r.record_status,
  ];
  const minimal = (cells: string[]) => cells.map((c) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',');
  const cellsReport = (r: PricePaidRow) => [
    r.transaction_id, String(r.price), r.date, r.postcode ?? '', r.property_type, r.new_build ? 'Y' : 'N', r.tenure,
    r.saon ?? '', r.paon ?? '', r.street ?? '', r.locality ?? '', r.town ?? '', r.district ?? '', r.county ?? '',
    r.category, `http://landregistry.data.gov.uk/data/ppi/transaction/${r.transaction_id}/current`,
  ];

  it('reads back exactly what was written (bulk full and minimal quoting, report builder)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 20 }), async (rows) => {
        const files = {
          full: rows.map((r) => bulk(cellsBulk(r))).join('\n'),
          minimal: rows.map((r) => minimal(cellsBulk(r))).join('\n'),
          report: [PPD_REPORT_BUILDER_HEADER.join(','), ...rows.map((r) => bulk(cellsReport(r)))].join('\n'),
        };
        for (const [name, content] of Object.entries(files)) {
          const got = await readAll(writeFixture(tmp.dir, `rt-${name}.csv`, content));
          expect(got.rejects.total).toBe(0);
          const want = name === 'report' ? rows.map((r) => ({ ...r, record_status: 'A' })) : rows;
          expect(got.rows).toEqual(want);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('skips a header row naming PPD_COLUMNS on a bulk file', async () => {
    const { rows, rejects } = await readAll(writeFixture(tmp.dir, 'hdr.csv', `${PPD_COLUMNS.join(',')}\n${bulk(good(G1))}\n`));
    expect(rejects.total).toBe(0);
    expect(rows).toEqual([ROW1]);
  });
});
