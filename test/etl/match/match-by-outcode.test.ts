import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { queryRows, stageSql } from '../../../etl/pipeline/sql.ts';
import { addressBaseKey, recordKey, type KeyKind } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { matchByOutcode, type MatchSource } from '../../../etl/stages/20-merged/20-match-addresses/match-by-outcode.ts';
import { AddressMatcher, type MatchResult } from '../../../etl/stages/20-merged/20-match-addresses/matcher.ts';
import { normalisePostcode, normaliseText } from '../../../schemas/address-normalise.ts';
import { hasRaw, rawPath } from '../../support/raw.ts';
import { stagedContext } from '../../support/region.ts';

type Row = { id: string; uprn: string | null; method: string | null; score: number | null; reason: string | null };
/** A record as the matcher must read it: postcode and town normalised by the reference functions. */
type MatchInput = { id: string; postcode: string | undefined; town: string; parts: (string | undefined)[] };
const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

/** The records a source's query selects, normalised in JS as the matcher did before match_in was built in SQL. */
async function jsInputs(conn: DuckDBConnection, source: Pick<MatchSource, 'sql' | 'id' | 'parts'>): Promise<MatchInput[]> {
  return (await queryRows(conn, source.sql)).map((r) => ({
    id: String(r[source.id]), postcode: normalisePostcode(s(r.postcode)), town: normaliseText(s(r.town)), parts: source.parts.map((p) => s(r[p])),
  }));
}

/** The reference: every address in one AddressMatcher (the matcher as it ran before streaming). */
async function wholeMap(conn: DuckDBConnection): Promise<AddressMatcher> {
  const m = new AddressMatcher();
  for (const a of await queryRows(conn, 'SELECT uprn, postcode, post_town, sub_building, building_name, building_number, street_name FROM addresses')) {
    m.add({ uprn: Number(a.uprn), postcode: String(a.postcode), town: normaliseText(s(a.post_town)), key: addressBaseKey(a as never) });
  }
  return m;
}

function row(id: string, r: MatchResult): Row {
  return r.uprn === null
    ? { id, uprn: null, method: null, score: null, reason: r.reason }
    : { id, uprn: String(r.uprn), method: r.method, score: r.score, reason: null };
}

const byId = (a: Row, b: Row) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const table = async (conn: DuckDBConnection, t: string) =>
  (await queryRows(conn, `SELECT id, uprn::VARCHAR AS uprn, method, score, reason FROM ${t}`) as Row[]).sort(byId);

/** The whole map's answers for the inputs, and how many of them had no address in their postcode but named a street (the cross-outcode pass). */
async function reference(conn: DuckDBConnection, inputs: MatchInput[], kind: KeyKind) {
  const m = await wholeMap(conn);
  let crossOutcode = 0;
  const rows = inputs.map((i) => {
    const key = recordKey(kind, i.parts);
    if (!(i.postcode && m.hasPostcode(i.postcode)) && key.street) crossOutcode++;
    return row(i.id, m.match(i.postcode, i.town, key));
  });
  return { rows: rows.sort(byId), crossOutcode };
}

describe('matchByOutcode on a synthetic region (8,000 addresses, seed 11)', () => {
  let ctx: BuildContext;
  beforeAll(async () => {
    ctx = await stagedContext(8000, 11);
  }, 600_000);

  const cases: MatchSource[] = [
    { table: 'sale_matches', sql: stageSql('20-merged/20-match-addresses').text('match_sales_to_match'), id: 'transaction_id', parts: ['saon', 'paon', 'street'], key: 'sale' },
    { table: 'epc_matches', sql: stageSql('20-merged/20-match-addresses').text('match_epc_to_match'), id: 'certificate_id', parts: ['address1', 'address2', 'address3'], key: 'epc' },
    { table: 'listing_matches', sql: 'SELECT listing_id, postcode, town, address_1, address_2, address_3 FROM listings_current', id: 'listing_id', parts: ['address_1', 'address_2', 'address_3'], key: 'epc' },
    { table: 'hmo_matches', sql: stageSql('40-marts/90-hmo').text('hmo_to_match'), id: 'id', parts: ['address', 'town'], key: 'register' },
  ];
  for (const { table: name, key: kind, ...source } of cases) {
    it(`writes the same ${name} rows as the whole-map matcher`, async () => {
      const inputs = await jsInputs(ctx.conn, source);
      const want = await reference(ctx.conn, inputs, kind);
      expect(inputs.length).toBeGreaterThan(0);
      // The build wrote the table through the streamed path.
      expect(await table(ctx.conn, name)).toEqual(want.rows);
      if (name === 'sale_matches') {
        // The region's mistyped and missing postcodes take the second, street-by-street pass.
        expect(want.crossOutcode).toBeGreaterThan(20);
        expect(want.rows.filter((r) => r.method === 'street').length).toBeGreaterThan(0);
      }
    }, 120_000);
  }
});

describe('matchByOutcode on worker threads (synthetic region, 8,000 addresses, seed 11)', () => {
  let ctx: BuildContext;
  beforeAll(async () => {
    ctx = await stagedContext(8000, 11);
  }, 600_000);

  /** Every row of a table in the order it was written. */
  const written = (t: string) => queryRows(ctx.conn, `SELECT * FROM ${t}`);
  const sources = (suffix: string, saleKind: KeyKind = 'sale'): MatchSource[] => [
    { table: `sale_${suffix}`, key: saleKind, sql: stageSql('20-merged/20-match-addresses').text('match_sales_to_match'), id: 'transaction_id', parts: ['saon', 'paon', 'street'] },
    { table: `epc_${suffix}`, key: 'epc', sql: stageSql('20-merged/20-match-addresses').text('match_epc_to_match'), id: 'certificate_id', parts: ['address1', 'address2', 'address3'] },
  ];

  it('writes the same rows in the same order on one thread as on two or three workers, in many small jobs, street keys included', async () => {
    const { conn, db } = ctx;
    const built = await written('match_street_keys');
    // Without street keys every address is read and keyed; with them, only the records' outcodes.
    await conn.run('ALTER TABLE match_street_keys RENAME TO match_street_keys_built');
    for (const threads of [1, 2, 3]) {
      await matchByOutcode(db, conn, sources(`fresh${threads}`), { threads, jobRows: 700 });
      expect(await written('match_street_keys'), `street keys, ${threads} threads`).toEqual(built);
      if (threads < 3) await conn.run('DROP TABLE match_street_keys');
    }
    for (const threads of [1, 2]) await matchByOutcode(db, conn, sources(`keyed${threads}`), { threads, jobRows: 700 });
    const want = { sale: await written('sale_fresh1'), epc: await written('epc_fresh1') };
    expect(want.sale.length).toBeGreaterThan(5000);
    expect(want.sale.filter((r) => r.method === 'street').length).toBeGreaterThan(0); // the street pass ran
    for (const run of ['fresh2', 'fresh3']) {
      expect(await written(`sale_${run}`), run).toEqual(want.sale);
      expect(await written(`epc_${run}`), run).toEqual(want.epc);
    }
    // With the street keys known, the records their postcode decides are written first, then
    // those that needed their outcode's streets: the same rows in another order, the same
    // order on one thread as on two.
    for (const kind of ['sale', 'epc']) {
      expect(await written(`${kind}_keyed2`), kind).toEqual(await written(`${kind}_keyed1`));
      expect(await table(conn, `${kind}_keyed1`), kind).toEqual(await table(conn, `${kind}_fresh1`));
    }
    // Some sale in a postcode with addresses was matched on its street: the second, street-reading outcode pass ran.
    const [local] = await queryRows(conn, `SELECT count(*)::INTEGER AS n FROM sale_keyed1 m JOIN ppd_current p ON p.transaction_id = m.id
      WHERE m.method = 'street' AND upper(trim(p.postcode)) IN (SELECT postcode FROM addresses)`);
    expect(Number(local?.n)).toBeGreaterThan(0);
    // And as the build wrote them (two workers).
    expect(await table(conn, 'sale_fresh1')).toEqual(await table(conn, 'sale_matches'));
  }, 300_000);

  it('fails with the error a worker threw, never waiting on it; one thread fails the same way', async () => {
    const bad = 'no such kind' as KeyKind;
    // Without street keys only the workers key the records: the unknown kind throws there.
    await ctx.conn.run('ALTER TABLE match_street_keys RENAME TO match_street_keys_aside');
    await expect(matchByOutcode(ctx.db, ctx.conn, sources('bad2', bad), { threads: 2 }))
      .rejects.toThrow(/address matching worker [12] of 2 failed: Error: unknown record key kind: no such kind/);
    await expect(matchByOutcode(ctx.db, ctx.conn, sources('bad1', bad), { threads: 1 })).rejects.toThrow(/^unknown record key kind: no such kind$/);
    await ctx.conn.run('DROP TABLE IF EXISTS match_street_keys');
    await ctx.conn.run('ALTER TABLE match_street_keys_aside RENAME TO match_street_keys');
    // The database is still usable and the next matching runs.
    await matchByOutcode(ctx.db, ctx.conn, sources('after'), { threads: 2 });
    expect(await table(ctx.conn, 'sale_after')).toEqual(await table(ctx.conn, 'sale_matches'));
  }, 300_000);
});

const LINKED = '_derived_not_original/linked_ppd_epc_full_first_1000.csv';

describe.skipIf(!hasRaw(LINKED))('matchByOutcode on real addresses (the linked PPD/EPC sample)', () => {
  it('matches the certificates as the whole-map matcher does, with correct, mistyped and missing postcodes', async () => {
    const rows = parse(readFileSync(rawPath(LINKED)), { columns: true }) as Record<string, string>[];
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    // The homes' Price Paid addresses as the address base (PAON as the building name keys the same numbers and words).
    await conn.run(`CREATE TABLE addresses (uprn BIGINT, postcode VARCHAR, outcode VARCHAR, post_town VARCHAR,
      sub_building VARCHAR, building_name VARCHAR, building_number VARCHAR, street_name VARCHAR)`);
    await conn.run('CREATE TABLE certs (id VARCHAR, postcode VARCHAR, town VARCHAR, address1 VARCHAR, address2 VARCHAR, address3 VARCHAR)');
    const seen = new Set<string>();
    const app = await conn.createAppender('addresses');
    const certs = await conn.createAppender('certs');
    rows.forEach((r, i) => {
      const pc = normalisePostcode(r.postcode);
      if (!seen.has(r.uprn!) && pc) {
        seen.add(r.uprn!);
        app.appendBigInt(BigInt(r.uprn!));
        app.appendVarchar(pc);
        app.appendVarchar(pc.split(' ')[0]!);
        for (const v of [r.towncity, r.saon, r.paon, undefined, r.street]) (v ? app.appendVarchar(v) : app.appendNull());
        app.endRow();
      }
      // Every fifth certificate's postcode mistyped (a postcode no home has), every seventh missing.
      // The certificate's own postcode as written (the matcher makes it canonical), else the mistyped one.
      const postcode = i % 7 === 0 ? undefined : i % 5 === 0 ? 'ZZ9 9ZZ' : r.postcode;
      for (const v of [`c${i}`, postcode, r.towncity, r.address1, r.address2, r.address3]) (v ? certs.appendVarchar(v) : certs.appendNull());
      certs.endRow();
    });
    for (const a of [app, certs]) {
      a.flushSync();
      a.closeSync();
    }
    const source: MatchSource = { table: 'cert_matches', key: 'epc', sql: 'SELECT * FROM certs', id: 'id', parts: ['address1', 'address2', 'address3'] };
    const inputs = await jsInputs(conn, source);
    const want = await reference(conn, inputs, 'epc');
    // Two worker threads, then one (the street keys written once, by the first run).
    await matchByOutcode(db, conn, [source], { threads: 2 });
    expect(await table(conn, 'cert_matches')).toEqual(want.rows);
    await matchByOutcode(db, conn, [source], { threads: 1 });
    expect(await table(conn, 'cert_matches')).toEqual(want.rows);
    expect(want.crossOutcode).toBeGreaterThan(100);
    expect(want.rows.filter((r) => r.uprn !== null).length).toBeGreaterThan(inputs.length * 0.8);
    conn.closeSync();
  }, 120_000);
});
