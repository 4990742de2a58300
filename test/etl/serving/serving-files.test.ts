import { DuckDBInstance } from '@duckdb/node-api';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { stageSql } from '../../../etl/pipeline/sql.ts';
import { buildSearchIndex } from '../../../etl/stages/30-serving/10-search-index/build.ts';
import { DocWordsCache } from '../../../etl/stages/30-serving/10-search-index/doc-words.ts';
import { streamColumns } from '../../../etl/stages/30-serving/stream-columns.ts';
import { docWords } from '../../../schemas/address-normalise.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFileWriter } from '../../../lib/files/record-file-format.ts';
import { SEARCH_INDEX_FILE, writeSearchIndex } from '../../../lib/files/search-index-format.ts';
import { stagedContext } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir();
afterAll(tmp.cleanup);
const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

let ctx: BuildContext;
beforeAll(async () => {
  ctx = await stagedContext(2000, 11); // every stage run, the serving files written
}, 180_000);

describe('serving files: the same bytes as from JSON rows', () => {
  it('property-records.bin equals the file written from each row as JSON, in uprn order', async () => {
    const cols = ['uprn', ...PROPERTY_RECORD_COLUMNS.map((c) => c.name)].join(', ');
    const rows = (await ctx.conn.runAndReadAll(`SELECT ${cols} FROM properties ORDER BY uprn`)).getRowObjectsJson();
    expect(rows.length).toBeGreaterThan(1500);
    const writer = new RecordFileWriter(PROPERTY_RECORD_COLUMNS, rows.length);
    for (const r of rows) writer.add(r);
    const want = join(tmp.dir, 'records.bin');
    writer.finish(want);
    expect(digest(join(ctx.buildDir, PROPERTY_RECORDS_FILE))).toBe(digest(want));
  });

  it('search-index.bin equals the index built from each row as JSON', async () => {
    const rows = (await ctx.conn.runAndReadAll(stageSql('30-serving/10-search-index').text('search_index_rows'))).getRowObjectsJson()
      .map((r) => ({ uprn: Number(r.uprn), address: String(r.address), postcode: String(r.postcode), lat: Number(r.lat), lng: Number(r.lng) }));
    const want = join(tmp.dir, 'search.bin');
    writeSearchIndex(want, await buildSearchIndex(rows, rows.length));
    expect(digest(join(ctx.buildDir, SEARCH_INDEX_FILE))).toBe(digest(want));
  });

  it('DocWordsCache gives docWords\' words for every address of the region and for awkward ones, bounded or not', async () => {
    const rows = (await ctx.conn.runAndReadAll('SELECT address, coalesce(postcode, \'\') AS postcode FROM addresses')).getRowObjectsJson();
    const awkward: Array<[string, string]> = [
      ['', ''], [',,', 'BS1 1AA'], ['12 ST JOHNS RD, ST, HIGH ST, BS1 1AA', 'BS1 1AA'], ['FLAT 1, , 3 A HIGH ST', 'bs1 1aa'],
      ['1ST FLR FLAT, 12-14 ST. MARY\'S ROAD, BRISTOL BS1 1AA', 'BS1 1AA'], ['BS1 1AA', 'BS1 1AA'], ['12 HIGH STREET', ''], ['A, B', 'A, B'],
    ];
    // A cache that keeps every part, and one that starts over every 5 parts.
    for (const cache of [new DocWordsCache(), new DocWordsCache(5)]) {
      // Twice over: the second pass reads every part from the cache.
      for (const pass of [1, 2]) {
        for (const [address, postcode] of [...rows.map((r) => [String(r.address), String(r.postcode)] as [string, string]), ...awkward]) {
          expect(cache.words(address, postcode), `pass ${pass}: ${address} | ${postcode}`).toEqual(docWords(address, postcode));
        }
      }
    }
  });
});

describe('streamColumns', () => {
  it('gives every row in order across many chunks, as columns of plain values', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const got: unknown[][] = [];
    let chunks = 0;
    for await (const { rows, columns } of streamColumns(db, 'SELECT i, i::VARCHAR AS s, CASE WHEN i % 7 = 0 THEN NULL ELSE i / 2 END AS d FROM range(10000) t(i) ORDER BY i')) {
      chunks++;
      for (let i = 0; i < rows; i++) got.push(columns.map((c) => c[i]));
    }
    expect(chunks).toBeGreaterThan(2);
    expect(got.length).toBe(10000);
    expect(got[0]).toEqual([0n, '0', null]);
    expect(got[9999]).toEqual([9999n, '9999', 4999.5]);
    expect(got.every((r, i) => r[0] === BigInt(i))).toBe(true);
  });

  it('can be left early without harm', async () => {
    const db = await DuckDBInstance.create(':memory:');
    for await (const { rows } of streamColumns(db, 'SELECT i FROM range(100000) t(i)')) {
      expect(rows).toBeGreaterThan(0);
      break;
    }
    const conn = await db.connect();
    expect((await conn.runAndReadAll('SELECT 42 AS x')).getRowObjectsJson()).toEqual([{ x: 42 }]);
  });
});
