import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HmoLicencesSchema } from '../../schemas/api/hmo-licences.ts';
import { havSql, serveSynthBuild, type BuildServer } from './build-server.ts';

/**
 * GET /hmo/licences on a real published build of the synthetic region (its register is
 * written in Oxford's layout). Expected answers are computed here in SQL straight from the
 * published Parquet (haversine written out again), never from the service's code. The build
 * date is 2025-10-01.
 */
const ADDRESSES = 6000;
const SEED = 11;
let b: BuildServer;
const rows = (q: string) => b.rows(q);
const get = (path: string) => b.get(path);
const HAV = havSql;
/** A licence as the answer shows it, from the published row. */
const LICENCE = (p: { lat: number; lng: number } | null) => `
  licence_reference, address, postcode, uprn::DOUBLE AS uprn, max_occupants, households, storeys,
  strftime(valid_from, '%Y-%m-%d') AS valid_from, strftime(valid_to, '%Y-%m-%d') AS valid_to, status,
  ${p ? `round(${HAV('lat', 'lng', p.lat, p.lng)})::INTEGER` : 'NULL'} AS distance_m, position_source AS position,
  CASE WHEN lat IS NULL OR lng IS NULL THEN NULL ELSE {'lat': round(lat, 7), 'lng': round(lng, 7)} END AS location`;


beforeAll(async () => {
  b = await serveSynthBuild({ addresses: ADDRESSES, seed: SEED });
}, 300_000);

afterAll(async () => {
  await b?.stop();
});

describe('GET /v1/hmo/licences', () => {
  it('current licences within 1,000 m of a licensed HMO\'s UPRN, nearest first, with the counts and the register, for 2 credits', async () => {
    // The first matched current licence, at its property's position.
    const [h] = await rows(`SELECT h.uprn::VARCHAR AS uprn, p.lat, p.lng FROM hmo_licences h JOIN properties p ON p.uprn = h.uprn
      WHERE h.status = 'current' ORDER BY h.licence_reference LIMIT 1`);
    const pt = { lat: Number(h!.lat), lng: Number(h!.lng) };
    const r = await get(`/v1/hmo/licences?uprn=${h!.uprn}&per_page=50`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('2');
    expect(HmoLicencesSchema.parse(r.json)).toEqual(r.json);
    const within = `${HAV('lat', 'lng', pt.lat, pt.lng)} <= 1000`;
    const want = await rows(`SELECT ${LICENCE(pt)} FROM hmo_licences WHERE status = 'current' AND ${within} ORDER BY ${HAV('lat', 'lng', pt.lat, pt.lng)}, register, licence_reference`);
    expect(want.length).toBeGreaterThan(0);
    expect(r.json.licences).toEqual(want);
    expect(r.json.licences[0]).toMatchObject({ uprn: Number(h!.uprn), distance_m: 0, position: 'uprn' });
    const [c] = await rows(`SELECT count(*) FILTER (WHERE status = 'current')::INTEGER AS current, count(*) FILTER (WHERE status = 'pending')::INTEGER AS pending,
      count(*) FILTER (WHERE status = 'expired')::INTEGER AS expired, count(*) FILTER (WHERE status = 'current' AND uprn IS NOT NULL)::INTEGER AS matched,
      min(register) AS register, max(register_as_of) AS as_of FROM hmo_licences WHERE ${within}`);
    expect(r.json).toMatchObject({
      status: 'current', total: want.length, page: 1, per_page: 50, matched: c!.matched, matched_share: c!.matched / want.length,
      by_status: { current: c!.current, pending: c!.pending, expired: c!.expired },
      source: { name: 'Council HMO licence registers', registers: [{ register: c!.register, as_of: c!.as_of }], as_of: c!.as_of },
    });
    expect(c!.as_of <= '2025-10-01').toBe(true);
    expect(r.json.location).toMatchObject({ kind: 'uprn', radius_m: 1000, lat: pt.lat, lng: pt.lng });
    // No names of licence holders or managers anywhere in the answer.
    expect(Object.keys(r.json.licences[0]).sort()).toEqual(['address', 'distance_m', 'households', 'licence_reference', 'location', 'max_occupants', 'position', 'postcode',
      'status', 'storeys', 'uprn', 'valid_from', 'valid_to']);
  });

  it('every status near a point with radius_m, expired ones and the unmatched licences (uprn null, placed at their postcode) included', async () => {
    const [u] = await rows(`SELECT lat, lng FROM hmo_licences WHERE uprn IS NULL ORDER BY licence_reference LIMIT 1`);
    const pt = { lat: Number(u!.lat) + 0.001, lng: Number(u!.lng) };
    const r = await get(`/v1/hmo/licences?lat=${pt.lat}&lng=${pt.lng}&radius_m=5000&status=all&per_page=50`);
    expect(r.status).toBe(200);
    const want = await rows(`SELECT ${LICENCE(pt)} FROM hmo_licences WHERE ${HAV('lat', 'lng', pt.lat, pt.lng)} <= 5000
      ORDER BY ${HAV('lat', 'lng', pt.lat, pt.lng)}, register, licence_reference`);
    expect(r.json.total).toBe(want.length);
    expect(r.json.licences).toEqual(want.slice(0, 50));
    const unmatched = r.json.licences.filter((l: any) => l.uprn === null);
    expect(unmatched.length).toBeGreaterThan(0);
    expect(unmatched.every((l: any) => l.position === 'postcode')).toBe(true);
    expect(r.json.licences.some((l: any) => l.status === 'expired')).toBe(true);
    expect(r.json.matched_share).toBeCloseTo(want.filter((w) => w.uprn !== null).length / want.length, 12);
    const expired = await get(`/v1/hmo/licences?lat=${pt.lat}&lng=${pt.lng}&radius_m=5000&status=expired&per_page=50`);
    expect(expired.json.licences.map((l: any) => l.licence_reference)).toEqual(want.filter((w) => w.status === 'expired').slice(0, 50).map((w) => w.licence_reference));
    expect(expired.json.by_status).toEqual(r.json.by_status);
  });

  it('an outcode: every licence with a postcode in it, by postcode then reference, paged, no distances', async () => {
    const [o] = await rows(`SELECT outcode, count(*)::INTEGER AS n FROM hmo_licences GROUP BY ALL ORDER BY n DESC, outcode LIMIT 1`);
    const want = await rows(`SELECT ${LICENCE(null)} FROM hmo_licences WHERE outcode = '${o!.outcode}' ORDER BY postcode, register, licence_reference`);
    expect(want.length).toBeGreaterThan(3);
    const r = await get(`/v1/hmo/licences?outcode=${o!.outcode}&status=all&per_page=3&page=2`);
    expect(r.status).toBe(200);
    expect(HmoLicencesSchema.parse(r.json)).toEqual(r.json);
    expect(r.json).toMatchObject({ total: o!.n, page: 2, per_page: 3, location: { kind: 'outcode', label: o!.outcode, radius_m: null } });
    expect(r.json.licences).toEqual(want.slice(3, 6));
    const past = await get(`/v1/hmo/licences?outcode=${o!.outcode}&status=all&per_page=50&page=9`);
    expect(past.json.licences).toEqual([]);
  });

  it('an answer with no licences says so: total 0, matched_share null', async () => {
    // A point in the sea off Bristol, with the smallest radius.
    const r = await get('/v1/hmo/licences?lat=51.2&lng=-3.5&radius_m=10');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ total: 0, matched: 0, matched_share: null, licences: [], by_status: { current: 0, pending: 0, expired: 0 }, source: { registers: [], as_of: null } });
  });

  it('400 problem+json naming the bad parameter, free', async () => {
    const cases: [string, RegExp][] = [
      ['', /give the location in exactly one way: uprn, postcode, outcode or lat\+lng"/],
      ['?postcode=BS1%204DJ&lat=51.45&lng=-2.59', /got postcode and lat\+lng/],
      ['?lat=51.45', /lat and lng must be given together/],
      ['?postcode=BS1%204DJ&radius_m=5001', /5000|5,000|less than or equal/],
      ['?postcode=BS1%204DJ&radius_m=0', /greater than 0|too small/i],
      ['?outcode=BS1&radius_m=500', /radius_m applies to a point/],
      ['?postcode=BS1%204', /full UK postcode/],
      ['?outcode=BS1&status=revoked', /current|expired/],
      ['?outcode=BS1&per_page=51', /50/],
      ['?outcode=BS1&page=0', /page/],
      ['?outcode=BS1&page_size=10', /page_size/],
    ];
    for (const [qs, msg] of cases) {
      const r = await get(`/v1/hmo/licences${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.headers['content-type'], qs).toMatch(/problem\+json/);
      expect(r.headers['x-credits-cost'], qs).toBe('0');
      expect(r.json.code, qs).toBe('invalid_request');
      expect(JSON.stringify(r.json.errors), qs).toMatch(msg);
    }
  });

  it('404 for an unknown postcode or UPRN, free', async () => {
    for (const qs of ['postcode=ZZ9%209ZZ', 'uprn=999999999999']) {
      const r = await get(`/v1/hmo/licences?${qs}`);
      expect(r.status, qs).toBe(404);
      expect(r.json.code).toBe('not_found');
      expect(r.headers['x-credits-cost']).toBe('0');
    }
  });
});
