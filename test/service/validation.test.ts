/**
 * What validation hands a handler: typed values with the spec's defaults applied, for
 * the endpoints whose parameters the spec defines. The stand-in handlers echo their input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { routesAnswering200 } from './requests.ts';
import { call, postJson, startTestServer, type TestServer } from './support.ts';

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({ routes: routesAnswering200(V1_ROUTES) });
  s.clock.tickMs = 2_000;
  key = (await s.account('premium')).key;
});
afterAll(() => s.stop());

const input = async (path: string) => {
  const r = await call(s.base, 'GET', path, { key });
  expect(r.status, r.text).toBe(200);
  return r.json.input;
};

describe('validated input', () => {
  it('address search: q trimmed, limit defaults to 10 and is a number', async () => {
    expect((await input('/v1/addresses/search?q=%20high%20st%20')).query).toEqual({ q: 'high st', limit: 10 });
    expect((await input('/v1/addresses/search?q=ab&limit=50')).query).toEqual({ q: 'ab', limit: 50 });
    expect((await input('/v1/addresses/search?q=ab&limit=')).query).toEqual({ q: 'ab', limit: 10 });
  });

  it('HMO valuation: the spec defaults, booleans parsed, the UPRN a number', async () => {
    const got = await input('/v1/valuations/100023336956/hmo');
    expect(got).toMatchObject({ params: { uprn: 100023336956 }, query: { finish_quality: 'average', living_room: true, parking: true, outside_space: true } });
    expect((await input('/v1/valuations/1/hmo?living_room=false&finish_quality=very_high')).query).toEqual({ finish_quality: 'very_high', living_room: false, parking: true, outside_space: true });
  });

  it('property fields selector: a list of known names', async () => {
    expect((await input('/v1/properties/42?fields=address,%20bedrooms')).query).toEqual({ fields: ['address', 'bedrooms'] });
  });

  it('STR market: one location, repeatable price_tier as an array', async () => {
    expect((await input('/v1/str/market?outcode=BS1&price_tier=Budget')).query).toEqual({ outcode: 'BS1', price_tier: ['Budget'] });
    expect((await input('/v1/str/market?polygon=-2.6,51.4%20-2.5,51.4%20-2.5,51.5&price_tier=Budget&price_tier=Luxury&bedrooms=2')).query).toEqual({
      polygon: '-2.6,51.4 -2.5,51.4 -2.5,51.5',
      price_tier: ['Budget', 'Luxury'],
      bedrooms: 2,
    });
    const bad = await call(s.base, 'GET', '/v1/str/market?outcode=BS1&price_tier=Cheap&include=summary,weather&min_bedrooms=3&max_bedrooms=1', { key });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(['query.include', 'query.price_tier.0']);
  });

  it('postcode or sector: a sector needs its space, since BS14 is a district, not the sector BS1 4', async () => {
    expect((await input('/v1/str/market?postcode=BS1%204')).query).toMatchObject({ postcode: 'BS1 4' });
    expect((await input('/v1/str/market?postcode=bs14dj')).query).toMatchObject({ postcode: 'bs14dj' });
    expect((await input('/v1/rents/long-term?postcode=BS1%204DJ')).query).toMatchObject({ postcode: 'BS1 4DJ' });
    for (const path of ['/v1/str/market?postcode=BS14', '/v1/rents/long-term?postcode=BS14', '/v1/yields?postcode=SW1A1']) {
      const r = await call(s.base, 'GET', path, { key });
      expect(r.status, path).toBe(400);
      expect(r.json.errors).toEqual([{ path: 'query.postcode', message: 'must be a full UK postcode, or a postcode sector with its space (BS1 4); for a district such as BS14 use outcode' }]);
    }
  });

  it('STR estimate body: defaults applied, one location required', async () => {
    const r = await postJson(s.base, '/v1/valuations/str-estimate', key, { lat: 51.45, lng: -2.59, bedrooms: 3 });
    expect(r.json.input.body).toEqual({ lat: 51.45, lng: -2.59, bedrooms: 3, finish_quality: 'average', include_comparables: false });
    const charset = await call(s.base, 'POST', '/v1/valuations/str-estimate', { key, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"uprn":"1","bedrooms":1}' });
    expect(charset.status).toBe(200);
    const both = await postJson(s.base, '/v1/valuations/str-estimate', key, { uprn: '1', postcode: 'BS1 4DJ', bedrooms: 2 });
    expect(both.status).toBe(400);
    expect(both.json.errors).toEqual([{ path: 'body.location', message: 'give the location in exactly one way: uprn, postcode or lat+lng' }]);
    // bedrooms is required, except with uprn (the property record's count is the default).
    const missing = await postJson(s.base, '/v1/valuations/str-estimate', key, { postcode: 'BS1 4DJ' });
    expect(missing.json.errors.map((e: { path: string }) => e.path)).toEqual(['body.bedrooms']);
    expect((await postJson(s.base, '/v1/valuations/str-estimate', key, { uprn: '1' })).status).toBe(200);
    const notObject = await postJson(s.base, '/v1/valuations/str-estimate', key, [1, 2]);
    expect(notObject.status).toBe(400);
  });

  it('path parameters: postcode decoded, UPRN digits only', async () => {
    expect((await input('/v1/postcodes/BS1%204DJ')).params).toEqual({ postcode: 'BS1 4DJ' });
    const bad = await call(s.base, 'GET', '/v1/risks/1e5', { key });
    expect(bad.json.errors).toEqual([{ path: 'params.uprn', message: 'must be a UPRN: 1 to 12 digits' }]);
  });
});
