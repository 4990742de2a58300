import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { recordKey, type KeyKind } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { loadMatchIn, type MatchSource } from '../../../etl/stages/20-merged/20-match-addresses/match-in.ts';
import { input, type Row } from '../../../etl/stages/20-merged/20-match-addresses/match-job.ts';
import { normalisePostcode, normaliseText } from '../../../schemas/address-normalise.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';

/** A record as a source writes it. */
type Rec = { postcode?: string | null; town?: string | null; parts?: (string | null | undefined)[] };

const u = (v: string | null | undefined) => (v === null || v === undefined ? undefined : v);

/**
 * Loads `recs` as two sources (the same rows read as sales, then as certificates) into
 * match_in, then checks every record as the matching jobs read it (match-job.ts input) and
 * its outward code and street key against the JS reference: normalisePostcode,
 * normaliseText, recordKey, as the records were prepared before match_in was built in SQL.
 */
async function expectSameAsJs(recs: Rec[], streetKeys: boolean): Promise<void> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    await conn.run('CREATE TABLE recs (n INTEGER, rid VARCHAR, postcode VARCHAR, town VARCHAR, a VARCHAR, b VARCHAR, c VARCHAR)');
    const app = await conn.createAppender('recs');
    recs.forEach((r, i) => {
      app.appendInteger(i);
      app.appendVarchar(`r${i}`);
      for (const v of [r.postcode, r.town, ...[0, 1, 2].map((k) => r.parts?.[k])]) (typeof v === 'string' ? app.appendVarchar(v) : app.appendNull());
      app.endRow();
    });
    app.flushSync();
    app.closeSync();
    const kinds: KeyKind[] = ['sale', 'epc'];
    const sources: MatchSource[] = kinds.map((key) => ({ table: `m_${key}`, key, sql: 'SELECT * FROM recs ORDER BY n', id: 'rid', parts: ['a', 'b', 'c'] }));
    expect(await loadMatchIn(db, conn, sources, streetKeys)).toEqual([recs.length, recs.length]);

    const got = (await queryRows(conn, 'SELECT * FROM match_in ORDER BY rowid')).map((r) => ({ ...input(r as Row), outcode: r.outcode, street_town: r.street_town }));
    const want = kinds.flatMap((kind, src) => recs.map((r, i) => {
      const postcode = normalisePostcode(u(r.postcode));
      const town = normaliseText(u(r.town));
      const parts = [0, 1, 2].map((k) => u(r.parts?.[k]));
      const street = recordKey(kind, parts).street;
      return { src, id: `r${i}`, postcode, town, parts, outcode: postcode?.split(' ')[0] ?? null, street_town: streetKeys && street ? `${street}|${town}` : null };
    }));
    expect(got).toEqual(want);
    // The small tables of JS answers are gone.
    expect(await queryRows(conn, "SELECT table_name FROM duckdb_tables() WHERE table_name <> 'recs' AND table_name <> 'match_in'")).toEqual([]);
  } finally {
    conn.closeSync();
  }
}

/** Postcodes as sources mistype them: case, spacing, punctuation, non-ASCII letters (whose JS upper case is ASCII: ß → SS, ﬁ → FI, ǰ → J̌), wrong shapes. */
const AWKWARD_POSTCODES = [
  'BS1 4AA', 'bs1 4aa', 'BS14AA', ' bs1  4aa ', 'BS1-4AA', 'B.S.1 4-A-A', 'BS1 4AA.', 'BS1\t4AA', 'BS1 4AA\n', 'sw1a1aa', 'EC1A 1BB', 'ec1a 1bb',
  'W1A 0AX', 'M1 1AE', 'CR2 6XH', 'DN55 1PT', 'GIR 0AA', 'BS1 4A', 'BS1 4AAA', '1BS 4AA', 'BSS1 4AA', 'BS1 AAA', 'ZZ9 9ZZ', 'BS1',
  'BS1\u00a04AA', 'BS1 é4AA', 'BS1 4AÉ', 'bs1 4ß', 'BS1 4ﬁ', 'bs1 4aı', 'bs1 4aſ', 'BS1 4Aǰ', 'BS1 4A\u212a', 'ＢＳ１ ４ＡＡ', '😀BS1 4AA', 'BS1 4AA\u0301',
  'Flat 1b, 1 Abbeydale Road, S7 1FA', '', ' ', '-', 'null', 'undefined', null, undefined,
];
const AWKWARD_TOWNS = ['bristol', 'ST. ALBANS', "king's lynn", 'Newcastle-upon-Tyne', 'Llanfair\u00adpwll', 'Straße', 'Ynys Môn', 'ST', 'rd', '', '  ', null, undefined];
const AWKWARD_PARTS: Rec['parts'][] = [
  ['Flat 2', '32 a', 'High St'], [null, '12-14', 'st johns rd'], ['', '', ''], [null, null, null], undefined, ['FLAT 84 SHIRE HOUSE', '98 Napier Street', 'Straße'], ['Ground Floor Flat, 102 Reedley Road', null, null],
];

describe('loadMatchIn: match_in built in SQL reads as the JS normalisation', () => {
  const awkward: Rec[] = AWKWARD_POSTCODES.flatMap((postcode, i) => AWKWARD_TOWNS.map((town, k) => ({ postcode, town, parts: AWKWARD_PARTS[(i + k) % AWKWARD_PARTS.length] })));

  it('gives awkward postcodes, towns and parts as normalisePostcode and normaliseText do, in source order', async () => {
    // The test's own check on its cases: some take the JS path and come out valid.
    expect(normalisePostcode('bs1 4ß')).toBe('BS1 4SS');
    await expectSameAsJs(awkward, false);
  });

  it('derives the street keys as recordKey does when the street keys already exist', async () => {
    await expectSameAsJs(awkward, true);
  });

  it('loads an empty source', async () => {
    await expectSameAsJs([], true);
  });

  it('refuses an id or part column that is not a plain identifier (they are spliced into SQL)', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      const base = { table: 'm_sale', key: 'sale' as KeyKind, sql: 'SELECT 1 AS rid, NULL AS postcode, NULL AS town, NULL AS a' };
      await expect(loadMatchIn(db, conn, [{ ...base, id: 'rid; DROP TABLE x', parts: ['a'] }], false)).rejects.toThrow(/not a plain identifier: rid; DROP/);
      await expect(loadMatchIn(db, conn, [{ ...base, id: 'rid', parts: ['a', 'B"'] }], false)).rejects.toThrow(/not a plain identifier: B"/);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});

const PPD = 'ppd/pp-complete_head_1995/pp-complete_first10297rows.csv';
const LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';
const SHEFFIELD = 'hmo/sheffield_2025-10/hmo_licences_issued_to_2025-10-01.csv';
const CODEPOINT = ['postcodes/codepoint_open_2024-01/bs.csv', 'postcodes/codepoint_open_2024-01/ec.csv'];

describe.skipIf(![PPD, LINKED, SHEFFIELD, ...CODEPOINT].every(hasRaw))('loadMatchIn on the real samples\' postcodes', () => {
  it('gives every sample postcode, town and address as the JS normalisation does', async () => {
    const csv = (rel: string, columns: boolean) => parse(readFileSync(rawPath(rel)), { columns, relax_column_count: true }) as never[];
    const recs: Rec[] = [
      // Price Paid (headerless): postcode, town, then SAON, PAON, street.
      ...csv(PPD, false).map((r: string[]) => ({ postcode: r[3], town: r[11], parts: [r[8], r[7], r[9]] })),
      ...csv(LINKED, true).map((r: Record<string, string>) => ({ postcode: r.postcode, town: r.towncity, parts: [r.address1, r.address2, r.address3] })),
      // A licence's whole address line read as a postcode too: free text of every shape.
      ...csv(SHEFFIELD, true).flatMap((r: Record<string, string>) => [{ postcode: r.Postcode, parts: [r['Full Address']] }, { postcode: r['Full Address'] }]),
      ...CODEPOINT.flatMap((f) => csv(f, false).map((r: string[]) => ({ postcode: r[0] }))),
    ];
    expect(recs.length).toBeGreaterThan(40_000);
    await expectSameAsJs(recs, true);
  }, 120_000);
});
