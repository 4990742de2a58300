import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HmoRentsSchema, YieldsSchema } from '../../schemas/api/rents.ts';
import { serveSynthBuild, type BuildServer } from './build-server.ts';

/**
 * GET /yields and GET /rents/hmo on a real published build of the synthetic region. The
 * expected figures are read here with SQL from the published yields_area and rents_rooms
 * Parquet, and the widening rule (sector → outcode → local authority, the first with enough
 * evidence) is written out again in the test, never taken from the service's code.
 */
const ADDRESSES = 6000;
const SEED = 11;
let b: BuildServer;
const rows = (q: string) => b.rows(q);
const get = (path: string) => b.get(path);
const enc = encodeURIComponent;
/** Money as the API writes it: to the penny (docs/api.md, "One vocabulary"). */
const pence = (v: number) => Math.round(v * 100) / 100;

beforeAll(async () => {
  b = await serveSynthBuild({ addresses: ADDRESSES, seed: SEED });
}, 300_000);

afterAll(async () => {
  await b?.stop();
});

const ENOUGH_RENT = `rent_source IN ('evidence', 'shrunk', 'ons_district')`;

describe('GET /v1/yields', () => {
  it('an outcode\'s yields by bedrooms with both sample sizes and periods, for 2 credits', async () => {
    const [o] = await rows(`SELECT area_code FROM yields_area WHERE area_level = 'outcode' AND rent_source = 'evidence' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`);
    const want = await rows(`SELECT * FROM yields_area WHERE area_level = 'outcode' AND area_code = '${o!.area_code}' AND ${ENOUGH_RENT} ORDER BY bedrooms`);
    const r = await get(`/v1/yields?outcode=${o!.area_code}`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('2');
    expect(YieldsSchema.parse(r.json)).toEqual(r.json);
    expect(r.json.area).toEqual({ level: 'outcode', code: o!.area_code });
    const own = r.json.by_bedrooms.filter((b: any) => !b.area.widened);
    expect(own.map((b: any) => b.bedrooms)).toEqual(want.map((w) => w.bedrooms));
    for (const [i, w] of want.entries()) {
      const b = own[i];
      expect(b).toMatchObject({
        median_rent_pcm: pence(w.median_rent_pcm), rent_sample_size: w.rent_sample_size, rent_source: w.rent_source,
        median_price: w.median_price, sales_count: w.sales_count, area: { level: 'outcode', code: o!.area_code, widened: false },
        thin: w.rent_source !== 'evidence',
      });
      expect(b.gross_yield_pct).toBeCloseTo((100 * w.median_rent_pcm * 12) / w.median_price, 1);
    }
    const [g] = await rows(`SELECT max(as_of_month) AS m FROM price_growth`);
    expect(r.json.sales_period.to).toBe(g!.m);
    const [y, m] = String(g!.m).split('-').map(Number);
    const fromNo = y! * 12 + m! - 1 - 23;
    expect(r.json.sales_period.from).toBe(`${Math.floor(fromNo / 12)}-${String((fromNo % 12) + 1).padStart(2, '0')}`);
    expect(r.json.rents_period.to > r.json.rents_period.from).toBe(true);
  });

  it('a sector without a yield of its own for some bedrooms answers with its outcode\'s and says so; a shrunk rent is thin and names its wider area', async () => {
    // A postcode whose sector lacks a yield for a bedroom count some wider area has. The rule,
    // written out: the first of sector, outcode and the postcode's authority with an enough rent.
    const [c] = await rows(`
      SELECT p.postcode, left(p.postcode, length(p.postcode) - 2) AS sector, split_part(p.postcode, ' ', 1) AS outcode, p.la_code, w.bedrooms
      FROM postcodes p JOIN yields_area w ON w.area_level = 'district' AND w.area_code = p.la_code AND w.${ENOUGH_RENT}
      WHERE p.address_count > 0 AND NOT EXISTS (SELECT 1 FROM yields_area x WHERE x.area_level = 'sector' AND x.${ENOUGH_RENT}
        AND x.area_code = left(p.postcode, length(p.postcode) - 2) AND x.bedrooms = w.bedrooms)
      ORDER BY p.postcode, w.bedrooms LIMIT 1`);
    expect(c, 'the synthetic region has a sector thinner than its authority').toBeDefined();
    const at = async (level: string, code: string) =>
      (await rows(`SELECT * FROM yields_area WHERE area_level = '${level}' AND area_code = '${code}' AND bedrooms = ${c!.bedrooms} AND ${ENOUGH_RENT}`))[0];
    const [level, code, w] = (await at('outcode', c!.outcode)) ? ['outcode', c!.outcode, await at('outcode', c!.outcode)] : ['district', c!.la_code, await at('district', c!.la_code)];
    const r = await get(`/v1/yields?postcode=${enc(c!.postcode)}&bedrooms=${c!.bedrooms}`);
    expect(r.status).toBe(200);
    expect(r.json.area).toEqual({ level: 'sector', code: c!.sector });
    expect(r.json.by_bedrooms).toHaveLength(1);
    expect(r.json.by_bedrooms[0]).toMatchObject({
      bedrooms: c!.bedrooms, area: { level, code, widened: true }, median_price: w!.median_price, sales_count: w!.sales_count, median_rent_pcm: pence(w!.median_rent_pcm),
    });
    expect(r.json.by_bedrooms[0].note).toContain(`these are the ${level} ${code}'s`);

    const [t] = await rows(`SELECT * FROM yields_area WHERE area_level = 'sector' AND rent_source = 'shrunk' ORDER BY rent_sample_size, area_code, bedrooms LIMIT 1`);
    expect(t, 'the synthetic region has a sector with a shrunk rent').toBeDefined();
    const thin = await get(`/v1/yields?postcode=${enc(t!.area_code)}&bedrooms=${t!.bedrooms}`);
    expect(thin.json.by_bedrooms[0]).toMatchObject({
      area: { level: 'sector', code: t!.area_code, widened: false }, thin: true, rent_source: 'shrunk',
      rent_sample_size: t!.rent_sample_size, rent_prior_level: t!.rent_prior_level, median_rent_pcm: pence(t!.median_rent_pcm),
    });
    expect(thin.json.by_bedrooms[0].note).toContain(`${t!.rent_sample_size} lets`);
  });

  it('a full postcode and a UPRN answer for their sector; 5 bedrooms is the 4+ group', async () => {
    const [p] = await rows(`SELECT p.postcode, min(pr.uprn) AS uprn FROM postcodes p JOIN properties pr USING (postcode)
      WHERE left(p.postcode, length(p.postcode) - 2) IN (SELECT area_code FROM yields_area WHERE area_level = 'sector') GROUP BY 1 ORDER BY 1 LIMIT 1`);
    const sector = String(p!.postcode).slice(0, -2);
    const bySector = await get(`/v1/yields?postcode=${enc(sector)}`);
    const byPostcode = await get(`/v1/yields?postcode=${enc(p!.postcode)}`);
    const byUprn = await get(`/v1/yields?uprn=${p!.uprn}`);
    expect(bySector.status).toBe(200);
    expect(byPostcode.json).toEqual(bySector.json);
    expect(byUprn.json).toEqual(bySector.json);
    const four = await get(`/v1/yields?postcode=${enc(sector)}&bedrooms=4`);
    const five = await get(`/v1/yields?postcode=${enc(sector)}&bedrooms=5`);
    expect(five.json).toEqual(four.json);
  });

  it('400 for a malformed location or filter, 404 for a place the build does not know or an area with no yield anywhere, all free', async () => {
    const bad: [string, RegExp][] = [
      ['', /give the location in exactly one way/],
      ['?outcode=BS1&postcode=BS1%204', /got postcode and outcode/],
      ['?outcode=BS1&bedrooms=-1', /bedrooms/],
      ['?outcode=BS1&bedrooms=two', /bedrooms/],
      ['?outcode=BS1&radius_m=500', /radius_m/],
      ['?local_authority=Bristol', /GSS/],
    ];
    for (const [qs, msg] of bad) {
      const r = await get(`/v1/yields${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.headers['content-type'], qs).toMatch(/problem\+json/);
      expect(r.headers['x-credits-cost'], qs).toBe('0');
      expect(JSON.stringify(r.json), qs).toMatch(msg);
    }
    for (const qs of ['?postcode=ZZ9%209ZZ', '?uprn=999999999999', '?outcode=ZZ9', '?local_authority=E06999999']) {
      const r = await get(`/v1/yields${qs}`);
      expect(r.status, qs).toBe(404);
      expect(r.headers['x-credits-cost'], qs).toBe('0');
    }
  });
});

describe('GET /v1/rents/hmo', () => {
  it('a local authority\'s room rents from its own room lets, with quartiles and sample size, room types and bills null', async () => {
    const [d] = await rows(`SELECT * FROM rents_rooms WHERE area_level = 'district' AND source = 'evidence' ORDER BY sample_size DESC, area_code LIMIT 1`);
    expect(d, 'the synthetic region has a district with room lets').toBeDefined();
    const r = await get(`/v1/rents/hmo?local_authority=${d!.area_code}`);
    expect(r.status).toBe(200);
    expect(r.headers['x-credits-cost']).toBe('2');
    expect(HmoRentsSchema.parse(r.json)).toEqual(r.json);
    expect(r.json).toMatchObject({
      area: { level: 'district', code: d!.area_code },
      room: { median_pcm: d!.median_pcm, mean_pcm: d!.mean_pcm, p25_pcm: d!.p25_pcm, p75_pcm: d!.p75_pcm, sample_size: d!.sample_size, source: 'evidence' },
      from_area: { level: 'district', code: d!.area_code, widened: false }, thin: false, note: null, by_room_type: null, bills_included_share: null,
    });
  });

  it('a sector with too few room lets answers with the nearest wider area that has enough, or the ONS figure, and says which', async () => {
    const [c] = await rows(`SELECT area_code, la_code FROM rents_rooms WHERE area_level = 'sector' AND source <> 'evidence' ORDER BY area_code LIMIT 1`);
    expect(c, 'the synthetic region has a sector with few room lets').toBeDefined();
    const sector = String(c!.area_code);
    const outcode = sector.split(' ')[0];
    // The rule, written out: the first of outcode and authority with ≥ 10 own lets; else the most local ONS figure; else the thinnest evidence.
    const [o] = await rows(`SELECT * FROM rents_rooms WHERE area_level = 'outcode' AND area_code = '${outcode}'`);
    const [la] = await rows(`SELECT * FROM rents_rooms WHERE area_level = 'district' AND area_code = '${c!.la_code}'`);
    const [own] = await rows(`SELECT * FROM rents_rooms WHERE area_level = 'sector' AND area_code = '${sector}'`);
    const chain = [['sector', sector, own], ['outcode', outcode, o], ['district', c!.la_code, la]] as const;
    const want = chain.find(([, , r]) => r?.source === 'evidence') ?? chain.find(([, , r]) => r?.source === 'ons_district') ?? chain.find(([, , r]) => r);
    const r = await get(`/v1/rents/hmo?postcode=${enc(sector)}`);
    expect(r.status).toBe(200);
    expect(r.json.from_area).toEqual({ level: want![0], code: want![1], widened: want![0] !== 'sector' });
    expect(r.json.room.median_pcm).toBe(want![2]!.median_pcm);
    expect(r.json.room.source).toBe(want![2]!.source);
    expect(r.json.note).not.toBeNull();
    expect(r.json.thin).toBe(want![2]!.source !== 'evidence');
  });

  it('400 for a malformed location or a filter it does not take, 404 for an unknown place, all free', async () => {
    for (const qs of ['', '?outcode=BS1&local_authority=E06000023', '?outcode=BS1&bedrooms=2', '?lat=51.4&lng=-2.6']) {
      const r = await get(`/v1/rents/hmo${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.headers['x-credits-cost'], qs).toBe('0');
    }
    for (const qs of ['?postcode=ZZ9%209ZZ', '?outcode=ZZ9']) {
      const r = await get(`/v1/rents/hmo${qs}`);
      expect(r.status, qs).toBe(404);
      expect(r.headers['x-credits-cost'], qs).toBe('0');
      expect(r.json.detail, qs).toMatch(/postcode directory|No room lets/);
    }
  });
});
