import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { PagedRecordFile, pagedRecordWriter, PROPERTY_RECORDS_PAGED_FILE } from '../../lib/files/paged-record-file.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE } from '../../lib/files/record-file-format.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// Its own file (own process): a build served from its paged record file alone (the columnar
// .bin removed, so nothing can answer from the heap), and that file renamed over while open.
let s: TestServer;
let key: string;
let dir: string;
let rows: Record<string, unknown>[];

beforeAll(async () => {
  const ctx = await stagedContext(2000, 11);
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  dir = await publishFromContext(ctx, s.dataDir, '20251001T000000Z-fafafa', (d) => rmSync(join(d, PROPERTY_RECORDS_FILE)));
  rows = (await ctx.conn.runAndReadAll('SELECT * FROM properties ORDER BY uprn')).getRowObjectsJson() as Record<string, unknown>[];
});
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => call(s.base, 'GET', path, { key });

/** The record endpoint's fields that come from the record file, as the properties table has them. */
function expected(r: Record<string, unknown>) {
  const num = (v: unknown) => (v === null ? null : Number(v));
  return {
    uprn: Number(r.uprn), address: r.address, postcode: r.postcode, location: { lat: r.lat, lng: r.lng }, country: r.country,
    property_type: r.property_type, build_form: r.built_form, floor_area_sqft: r.floor_area_sqft, habitable_rooms: num(r.habitable_rooms),
    bedrooms: num(r.bedrooms), tenure: r.tenure, construction_age: r.construction_age,
    epc: r.epc_current_rating === null && r.epc_potential_rating === null ? null : { current_rating: r.epc_current_rating, potential_rating: r.epc_potential_rating },
    plot_size: r.plot_size, last_sold_price: num(r.last_sold_price), last_sold_date: r.last_sold_date,
    flood_zone_2: r.flood_zone_2, flood_zone_3: r.flood_zone_3, conservation_area: r.conservation_area,
  };
}

describe('a build served from its paged record file (property-records.rows, no .bin)', () => {
  it('answers the first record, then keeps answering from the opened file when another is renamed over it', async () => {
    const first = await get(`/v1/properties/${String(rows[0]!.uprn)}`);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject(expected(rows[0]!));
    // A file of the same rows with every address changed, renamed over the open one: the
    // service must answer on from the file it opened (this build's), not mix the two.
    const path = join(dir, PROPERTY_RECORDS_PAGED_FILE);
    const open = PagedRecordFile.open(path, new BlockCache(1 << 20));
    const other = `${path}.other`;
    const w = pagedRecordWriter(other, PROPERTY_RECORD_COLUMNS);
    for (const r of open.scan()) w.add(r.uprn as number, PROPERTY_RECORD_COLUMNS.map((c) => (c.name === 'address' ? 'SWAPPED' : r[c.name]!)));
    w.finish();
    open.close();
    renameSync(other, path);
  });

  it('answers every UPRN with the record the properties table holds', async () => {
    for (const r of rows) {
      const got = await get(`/v1/properties/${String(r.uprn)}`);
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject(expected(r));
    }
    expect((await get(`/v1/properties/${Number(rows[rows.length - 1]!.uprn) + 1}`)).status).toBe(404);
  });
});
