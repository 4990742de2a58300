import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { propertyRecordsStage } from '../../../etl/stages/30-serving/20-property-records/stage.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFile, RecordFileWriter } from '../../../lib/files/record-file-format.ts';
import { BlockCache } from '../../../lib/files/block-file.ts';
import { PagedRecordFile, PROPERTY_RECORDS_PAGED_FILE } from '../../../lib/files/paged-record-file.ts';
import { quietLog, stagedContext } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

describe('property-records stage', () => {
  it('writes every properties row, every served column equal to the table, found by uprn', async () => {
    const ctx = await stagedContext(2000, 11); // runs every stage, this one included
    expect(ctx.artifacts.property_records?.file).toBe(PROPERTY_RECORDS_FILE);
    const path = join(ctx.buildDir, PROPERTY_RECORDS_FILE);
    const file = new RecordFile(readFileSync(path), path);
    expect(ctx.artifacts.property_records_paged?.file).toBe(PROPERTY_RECORDS_PAGED_FILE);
    // Through a cache of 8 pages: most lookups read their page from the file.
    const cache = new BlockCache(8 * 4096);
    const paged = PagedRecordFile.open(join(ctx.buildDir, PROPERTY_RECORDS_PAGED_FILE), cache);
    onTestFinished(() => paged.close());
    expect(paged.columns).toEqual(PROPERTY_RECORD_COLUMNS);
    const cols = PROPERTY_RECORD_COLUMNS.map((c) => c.name);
    const rows = (await ctx.conn.runAndReadAll(`SELECT uprn, ${cols.join(', ')} FROM properties ORDER BY uprn`)).getRowObjectsJson();
    expect(rows.length).toBeGreaterThan(1500);
    expect(file.n).toBe(rows.length);
    expect(paged.n).toBe(rows.length);
    let withNulls = 0;
    for (const r of rows) {
      const got = file.get(Number(r.uprn));
      const want: Record<string, unknown> = { uprn: Number(r.uprn) };
      for (const c of PROPERTY_RECORD_COLUMNS) want[c.name] = r[c.name] === null ? null : c.kind === 'num' || c.kind === 'small' ? Number(r[c.name]) : r[c.name];
      expect(got).toEqual(want);
      expect(paged.get(Number(r.uprn))).toEqual(want);
      if (Object.values(want).includes(null)) withNulls++;
    }
    expect(withNulls).toBeGreaterThan(0); // nulls were exercised, not only full rows
    expect(cache.stats.misses).toBeGreaterThan(paged.n / 100);
    // A UPRN between two, and past either end, has no record.
    expect(paged.get(Number(rows[0]!.uprn) - 1)).toBeUndefined();
    expect(paged.get(Number(rows[rows.length - 1]!.uprn) + 1)).toBeUndefined();
    expect(paged.get(Number(rows[0]!.uprn) + 0.5)).toBeUndefined();
    // The scan gives the same rows in UPRN order.
    expect([...paged.scan()].map((r) => r.uprn)).toEqual(rows.map((r) => Number(r.uprn)));
  });

  it('reads the table\'s own SQL types as the row-wise writer reads their values: the same bytes', async () => {
    // The stage casts in SQL (numbers to DOUBLE with NaN for null, dates to text) and copies
    // whole vectors; the reference is the row-wise writer fed these rows' values by hand.
    const rows = [
      { uprn: 900_000_000_001, address: 'FLAT 1, ÉCOLE HOUSE, 東京 😀', postcode: 'AB1 2CD', lat: 51.5, lng: -0.125, country: 'England', property_type: 'Flat', built_form: null, floor_area_sqft: 538, habitable_rooms: 3, bedrooms: 2, tenure: 'Leasehold', construction_age: '1900-1929', epc_current_rating: 'D', epc_potential_rating: 'B', plot_size: null, last_sold_price: 9_007_199_254_740_991n, last_sold_date: '1999-01-31', flood_zone_2: true, flood_zone_3: false, conservation_area: null, flood_zone: 2, article_4: false, listed_building: true },
      { uprn: 5, address: '', postcode: null, lat: null, lng: null, country: null, property_type: null, built_form: 'Detached', floor_area_sqft: null, habitable_rooms: null, bedrooms: null, tenure: null, construction_age: null, epc_current_rating: null, epc_potential_rating: null, plot_size: 0.1, last_sold_price: null, last_sold_date: null, flood_zone_2: null, flood_zone_3: null, conservation_area: false, flood_zone: null, article_4: null, listed_building: null },
      { uprn: 17, address: null, postcode: 'AB1 2CD', lat: -0, lng: 1e-300, country: 'Wales', property_type: 'Flat', built_form: 'Detached', floor_area_sqft: 1e9, habitable_rooms: 40, bedrooms: 38, tenure: 'Freehold', construction_age: 'before 1900', epc_current_rating: 'D', epc_potential_rating: 'D', plot_size: 12.5, last_sold_price: 1n, last_sold_date: '2024-02-29', flood_zone_2: false, flood_zone_3: true, conservation_area: true, flood_zone: 3, article_4: true, listed_building: false },
    ];
    const types: Record<string, string> = { lat: 'DOUBLE', lng: 'DOUBLE', floor_area_sqft: 'DOUBLE', plot_size: 'DOUBLE', habitable_rooms: 'INTEGER', bedrooms: 'INTEGER', flood_zone: 'INTEGER', last_sold_price: 'BIGINT', last_sold_date: 'DATE' };
    const typeOf = (c: { name: string; kind: string }) => types[c.name] ?? (c.kind === 'bool' ? 'BOOLEAN' : 'VARCHAR');
    const literal = (v: unknown) => (v === null ? 'NULL' : Object.is(v, -0) ? "'-0.0'" : typeof v === 'string' ? `'${v.replaceAll("'", "''")}'` : String(v));
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    onTestFinished(() => conn.closeSync());
    await conn.run(`CREATE TABLE properties (uprn BIGINT, ${PROPERTY_RECORD_COLUMNS.map((c) => `${c.name} ${typeOf(c)}`).join(', ')})`);
    for (const r of rows) {
      await conn.run(`INSERT INTO properties VALUES (${r.uprn}, ${PROPERTY_RECORD_COLUMNS.map((c) => `${literal((r as Record<string, unknown>)[c.name])}::${typeOf(c)}`).join(', ')})`);
    }
    const { dir, cleanup } = tempDir('pi-records-');
    onTestFinished(cleanup);
    const ctx = { db, conn, buildDir: dir, artifacts: {}, log: quietLog } as unknown as BuildContext;
    await propertyRecordsStage.run(ctx);

    const ref = new RecordFileWriter(PROPERTY_RECORD_COLUMNS, rows.length);
    for (const r of [...rows].sort((a, b) => a.uprn - b.uprn)) ref.add(r);
    ref.finish(join(dir, 'ref.bin'));
    const file = new RecordFile(readFileSync(join(dir, PROPERTY_RECORDS_FILE)), 'records');
    const want = new RecordFile(readFileSync(join(dir, 'ref.bin')), 'ref');
    for (const { uprn } of rows) expect(file.get(uprn)).toEqual(want.get(uprn)); // a readable diff first
    expect(readFileSync(join(dir, PROPERTY_RECORDS_FILE)).equals(readFileSync(join(dir, 'ref.bin')))).toBe(true);
    expect(Object.is(file.get(17)?.lat, -0)).toBe(true);
    const paged = PagedRecordFile.open(join(dir, PROPERTY_RECORDS_PAGED_FILE), new BlockCache(1 << 16));
    onTestFinished(() => paged.close());
    for (const { uprn } of rows) expect(paged.get(uprn)).toEqual(want.get(uprn));
    expect(Object.is(paged.get(17)?.lat, -0)).toBe(true);
    expect(file.get(17)).toMatchObject({ last_sold_date: '2024-02-29', last_sold_price: 1, address: null, bedrooms: 38, flood_zone_3: true });
  });
});
