import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, listValue } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type IndexRow } from '../../../etl/stages/30-serving/10-search-index/build.ts';
import { STREET_STEMS, STREET_TYPES } from '../../../etl/synth/names.ts';
import { SearchIndex } from '../../../service/search/engine.ts';
import { relevanceQueries } from '../../support/search-relevance.ts';

const sql = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', '..', 'bench', 'sql', `${name}.sql`), 'utf8');

/**
 * The postcode named in a query, read from its text alone (not by the engine's parser): a
 * full postcode with or without its space, or a district, as the last word(s) of the query.
 */
function postcodeNamed(q: string): string | undefined {
  const m = /(?:^|\s)([a-z]{1,2}\d[a-z\d]?)\s?(\d[a-z]{2})?$/.exec(q);
  if (!m) return undefined;
  return m[2] ? `${m[1]} ${m[2]}`.toUpperCase() : `${m[1]!.toUpperCase()} `;
}

describe('a postcode or district in the query ranks its addresses first (issue 24)', () => {
  it('holds for every query of the bench query set that names one, on 100,000 national addresses', async () => {
    // The search bench's national data (etl/search/sql/bench_addresses.sql: repeated street
    // and town names, calibrated to Price Paid) at 100,000 addresses, and its typed query set.
    const db = await DuckDBInstance.create(':memory:', { threads: '2' });
    const conn = await db.connect();
    const syllables = ['ASH', 'BRAD', 'CAR', 'DAL', 'ELM', 'FAR', 'GLEN', 'HAL', 'IVY', 'KEN', 'LAN', 'MAR', 'NEW', 'OAK', 'PEN', 'RAD', 'SAL', 'THORN', 'UP', 'WAL', 'WEST', 'YAR', 'BUR', 'CROM', 'DUN', 'FEN', 'HOL', 'LYN', 'MOS', 'STAN'];
    await conn.run(sql('bench_addresses'), {
      n: 100_000, stems: listValue(STREET_STEMS), types: listValue(STREET_TYPES.map(([long]) => long)), syllables: listValue(syllables), calibrated: true, names: 10_000,
    });
    const rows = (await conn.runAndReadAll('SELECT uprn, address, postcode, lat, lng FROM addresses ORDER BY postcode, address, uprn')).getRowObjectsJson()
      .map((r) => ({ uprn: Number(r.uprn), address: String(r.address), postcode: String(r.postcode), lat: Number(r.lat), lng: Number(r.lng) }) as IndexRow);
    const truth = (await conn.runAndReadAll(sql('bench_truth_sample'), { k: 20_000, seed: 42 })).getRowObjectsJson().map((r) => ({ ...(r as never as Parameters<typeof relevanceQueries>[0][number]), uprn: Number(r.uprn) }));
    conn.closeSync();
    const index = new SearchIndex(await buildSearchIndex(rows, rows.length));
    const postcodes = rows.map((r) => r.postcode);

    const set = relevanceQueries(truth, 5_000, 8);
    let named = 0;
    const broken: string[] = [];
    for (const { q } of set) {
      const pc = postcodeNamed(q);
      if (!pc || !postcodes.some((p) => p.startsWith(pc))) continue;
      named++;
      const got = index.search(q, 10).map((m) => m.postcode.startsWith(pc));
      // First is in it, and no address outside it ranks above one inside it.
      if (!got[0] || got.indexOf(false) >= 0 && got.lastIndexOf(true) > got.indexOf(false)) broken.push(`${q} -> ${index.search(q, 3).map((m) => m.postcode).join(', ')}`);
    }
    expect(named).toBeGreaterThan(1_500);
    expect(broken).toEqual([]);
  }, 180_000);
});
