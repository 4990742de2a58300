import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_FIELDS } from '../../schemas/api/property.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
let row: Record<string, unknown>;

beforeAll(async () => {
  const ctx = await stagedContext(2000, 11);
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
  await publishFromContext(ctx, s.dataDir, '20251001T000000Z-cccccc');
  // A property with an EPC and a sale, so every kind of field has a value.
  const rows = (await ctx.conn.runAndReadAll(
    `SELECT * FROM properties WHERE epc_current_rating IS NOT NULL AND last_sold_price IS NOT NULL ORDER BY uprn LIMIT 1`,
  )).getRowObjectsJson() as Record<string, unknown>[];
  if (!rows[0]) throw new Error('the region has no property with an EPC and a sale');
  row = rows[0];
});
afterAll(async () => {
  await s.stop();
});

const get = (path: string) => call(s.base, 'GET', `/v1/properties/${path}`, { key });

describe('GET /v1/properties/{uprn}', () => {
  it('returns every field of the spec record, typed as the spec sample, for 1 credit', async () => {
    const r = await get(String(row.uprn));
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('1');
    expect(Object.keys(r.json).sort()).toEqual([...PROPERTY_FIELDS].sort());
    expect(r.json).toMatchObject({
      uprn: Number(row.uprn),
      address: row.address,
      postcode: row.postcode,
      location: { lat: row.lat, lng: row.lng },
      country: row.country,
      property_type: row.property_type,
      build_form: row.built_form,
      floor_area_sqft: row.floor_area_sqft,
      habitable_rooms: row.habitable_rooms,
      bedrooms: row.bedrooms,
      tenure: row.tenure,
      construction_age: row.construction_age,
      epc: { current_rating: row.epc_current_rating, potential_rating: row.epc_potential_rating },
      service_estimate: null,
      service_sqft: null,
      plot_size: null,
      last_sold_price: Number(row.last_sold_price),
      last_sold_date: row.last_sold_date,
      flood_zone_2: row.flood_zone_2,
      flood_zone_3: row.flood_zone_3,
      conservation_area: row.conservation_area,
    });
    expect(typeof r.json.uprn).toBe('number');
    expect(typeof r.json.last_sold_price).toBe('number');
    expect(r.json.last_sold_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('fields restricts the response to the named fields', async () => {
    const r = await get(`${row.uprn}?fields=uprn,epc,last_sold_price`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['epc', 'last_sold_price', 'uprn']);
    expect(r.json.uprn).toBe(Number(row.uprn));
  });

  it('unknown field names are a 400 naming them, charged nothing', async () => {
    const r = await get(`${row.uprn}?fields=uprn,colour,size`);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('invalid_request');
    expect(r.json.errors[0].path).toBe('query.fields');
    expect(r.json.errors[0].message).toContain('colour, size');
    expect(r.headers['x-credits-cost']).toBe('0');
  });

  it('a malformed UPRN is a 400', async () => {
    for (const bad of ['abc', '12x', '1234567890123', '-5']) {
      const r = await get(bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.errors[0].path).toBe('params.uprn');
    }
  });

  it('an unknown UPRN is a 404, charged nothing', async () => {
    const r = await get('999999999999');
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
    expect(r.json.detail).toContain('999999999999');
    expect(r.headers['x-credits-cost']).toBe('0');
  });
});
