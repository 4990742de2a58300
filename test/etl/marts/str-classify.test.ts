import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, stageSql } from '../../../etl/pipeline/sql.ts';
import { loadAmenityRules } from '../../../etl/stages/40-marts/70-str/stage.ts';
import { PROPERTY_CLASS_PATTERNS, matchAmenities, propertyClass, tierBand, tierOf } from '../../../etl/stages/40-marts/70-str/classify.ts';
import { AMENITY_RULES } from '../../../schemas/tables/str-amenities.ts';

// Amenity strings as Inside Airbnb publishes them (Bristol 2025 scrape), with the keys each must give.
const AMENITY_CASES: [string, string[]][] = [
  ['Wifi', ['wifi']],
  ['Fast wifi – 512 Mbps', ['wifi']],
  ['Pocket wifi', ['wifi']],
  ['Ethernet connection', []],
  ['Kitchen', ['kitchen']],
  ['Kitchenette', ['kitchen']],
  ['Washer', ['washing_machine']],
  ['Free washer – In unit', ['washing_machine']],
  ['Paid washer – In building', ['washing_machine']],
  ['Dishwasher', ['dishwasher']],
  ['Dryer', ['dryer']],
  ['Free dryer – In unit', ['dryer']],
  ['Hair dryer', []],
  ['Free street parking', ['free_parking', 'parking']],
  ['Free parking on premises', ['free_parking', 'parking']],
  ['Free driveway parking on premises – 1 space', ['free_parking', 'parking']],
  ['Paid parking off premises', ['parking']],
  ['Free residential garage on premises – 1 space', ['free_parking', 'parking']],
  ['Garden view', []],
  ['Private backyard – Fully fenced', ['outdoor_space']],
  ['Private patio or balcony', ['outdoor_space']],
  ['Garden', ['outdoor_space']],
  ['Pool table', []],
  ['Private outdoor pool - available all year, heated', ['pool']],
  ['Pool', ['pool']],
  ['HDTV with Netflix', ['tv']],
  ['55 inch HDTV', ['tv']],
  ['TV', ['tv']],
  ['Central heating', ['heating']],
  ['Portable air conditioning', ['air_conditioning']],
  ['Hot tub', ['hot_tub']],
  ['EV charger - level 2', ['ev_charger']],
  ['Indoor fireplace: wood-burning', ['fireplace']],
  ['Fireplace guards', []],
  ['Self check-in', ['self_check_in']],
  ['Pets allowed', ['pets_allowed']],
  ['Dedicated workspace', ['workspace']],
  ['Long term stays allowed', ['long_term_stays']],
  ['Smoke alarm', ['smoke_alarm']],
  ['Carbon monoxide alarm', []],
];

describe('amenity matching', () => {
  it.each(AMENITY_CASES)('%s', (text, keys) => {
    expect(matchAmenities([text])).toEqual(keys);
  });

  it('unions the keys of a listing\'s amenities, case-insensitively, once each', () => {
    expect(matchAmenities(['WIFI', 'Wifi', 'Kitchen', 'Hair dryer'])).toEqual(['kitchen', 'wifi']);
    expect(matchAmenities([])).toEqual([]);
  });

  it('covers the keys the market analysis must report', () => {
    const keys = AMENITY_RULES.map((r) => r.key);
    for (const k of ['wifi', 'kitchen', 'washing_machine', 'parking']) expect(keys).toContain(k);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('property class and tiers', () => {
  it.each([
    ['Entire rental unit', 'apartment'], ['Entire condo', 'apartment'], ['Entire serviced apartment', 'apartment'],
    ['Private room in rental unit', 'apartment'], ['Entire loft', 'apartment'], ['Room in aparthotel', 'apartment'],
    ['Entire home', 'house'], ['Entire townhouse', 'house'], ['Private room in home', 'house'], ['Tiny home', 'house'],
    ['Entire cottage', 'house'], ['Private room in bed and breakfast', 'house'], ['Entire guest suite', 'house'], ['Private room in bungalow', 'house'],
    ['Room in hotel', undefined], ['Houseboat', undefined], ['Camper/RV', undefined], ['Private room', undefined], ['Yurt', undefined],
  ])('%s → %s', (text, cls) => {
    expect(propertyClass(text)).toBe(cls);
  });

  it('gives no class without a property type', () => {
    expect(propertyClass(undefined)).toBeUndefined();
  });

  it('bands whole homes by bedrooms (studios as one) and rooms together', () => {
    expect(tierBand('entire_home', 0)).toBe('entire_1');
    expect(tierBand('entire_home', undefined)).toBe('entire_1');
    expect(tierBand('entire_home', 3)).toBe('entire_3');
    expect(tierBand('entire_home', 7)).toBe('entire_4plus');
    expect(tierBand('private_room', 2)).toBe('room');
    expect(tierBand('hotel_room', 1)).toBe('room');
  });

  it('puts a price equal to a bound in the tier above', () => {
    const bounds = [50, 80, 110, 160] as const;
    expect(tierOf(10, bounds)).toBe('Budget');
    expect(tierOf(50, bounds)).toBe('Economy');
    expect(tierOf(79.99, bounds)).toBe('Economy');
    expect(tierOf(110, bounds)).toBe('Upscale');
    expect(tierOf(159, bounds)).toBe('Upscale');
    expect(tierOf(160, bounds)).toBe('Luxury');
    expect(tierOf(5000, bounds)).toBe('Luxury');
  });
});

describe('the SQL matches as the TypeScript does', () => {
  let conn: DuckDBConnection;
  beforeAll(async () => {
    conn = await (await DuckDBInstance.create(':memory:')).connect();
    await loadAmenityRules(conn);
  });
  afterAll(() => conn.closeSync());

  it('amenity keys from str_amenity_rules with DuckDB regexps equal matchAmenities', async () => {
    for (const [text] of AMENITY_CASES) {
      const rows = await queryRows(conn, 'SELECT key FROM str_amenity_rules WHERE regexp_matches(lower($t), pattern) ORDER BY key', { t: text });
      expect(rows.map((r) => r.key), text).toEqual(matchAmenities([text]));
    }
  });

  it('property class with DuckDB regexps equals propertyClass', async () => {
    for (const text of ['Entire rental unit', 'Private room in home', 'Room in hotel', 'Houseboat', 'Entire condo', 'Tiny home']) {
      const [row] = await queryRows(conn, `SELECT CASE WHEN regexp_matches(lower($t), $n) THEN NULL
        WHEN regexp_matches(lower($t), $a) THEN 'apartment' WHEN regexp_matches(lower($t), $h) THEN 'house' END AS cls`,
      { t: text, n: PROPERTY_CLASS_PATTERNS.neither, a: PROPERTY_CLASS_PATTERNS.apartment, h: PROPERTY_CLASS_PATTERNS.house });
      expect(row?.cls ?? undefined, text).toBe(propertyClass(text));
    }
  });

  /** The price guard (its own SQL, tested in the STR mart tests) flagging nothing, so the bounds are the quintiles alone. */
  const noOutliers = () => conn.run('CREATE OR REPLACE TABLE str_price_guard AS SELECT id, false AS price_outlier FROM str_listing_base');

  it('tier bounds: quintiles per LA and band with 25+ priced listings, else the band build-wide, else all', async () => {
    await conn.run(`CREATE OR REPLACE TABLE str_listing_base AS SELECT row_number() OVER () AS id, * FROM (
      SELECT 'E06000023' AS la_code, 'entire_2' AS tier_band, CAST(i * 10 AS DOUBLE) AS price_gbp FROM range(1, 31) t(i)
      UNION ALL SELECT 'W06000015', 'entire_2', CAST(i * 10 AS DOUBLE) FROM range(1, 11) t(i)
      UNION ALL SELECT 'E06000023', 'room', CAST(40 + i AS DOUBLE) FROM range(1, 6) t(i)
      UNION ALL SELECT 'E06000023', 'room', NULL FROM range(1, 50) t(i))`);
    await noOutliers();
    await stageSql('40-marts/70-str').run(conn, 'str_price_tiers', { tier_min_listings: 25 });
    const rows = await queryRows(conn, 'SELECT level, la_code, tier_band, listings, tier, min_price_gbp, max_price_gbp FROM str_price_tiers ORDER BY level, la_code, tier_band, tier_rank');
    const group = (level: string, la: string | null, band: string | null) => rows.filter((r) => r.level === level && r.la_code === la && r.tier_band === band);
    // Bristol's 30 two-bed homes at £10…£300: quintiles by linear interpolation.
    const bristol = group('la_band', 'E06000023', 'entire_2');
    expect(bristol.map((r) => [r.tier, r.min_price_gbp, r.max_price_gbp])).toEqual([
      ['Budget', null, 68], ['Economy', 68, 126], ['Midscale', 126, 184], ['Upscale', 184, 242], ['Luxury', 242, null],
    ]);
    expect(Number(bristol[0]?.listings)).toBe(30);
    // Cardiff's 10 and the 5 priced rooms are too few for a group of their own.
    expect(group('la_band', 'W06000015', 'entire_2')).toEqual([]);
    expect(group('la_band', 'E06000023', 'room')).toEqual([]);
    expect(group('band', null, 'entire_2')).toHaveLength(5);
    expect(Number(group('band', null, 'entire_2')[0]?.listings)).toBe(40);
    expect(group('band', null, 'room')).toEqual([]);
    const all = group('all', null, null);
    expect(all).toHaveLength(5);
    expect(Number(all[0]?.listings)).toBe(45);
  });

  it('an empty build still has the five tiers of level all, without bounds', async () => {
    await conn.run('CREATE OR REPLACE TABLE str_listing_base (id BIGINT, la_code VARCHAR, tier_band VARCHAR, price_gbp DOUBLE)');
    await noOutliers();
    await stageSql('40-marts/70-str').run(conn, 'str_price_tiers', { tier_min_listings: 25 });
    const rows = await queryRows(conn, 'SELECT level, tier, min_price_gbp, max_price_gbp, listings FROM str_price_tiers ORDER BY tier_rank');
    expect(rows).toEqual(['Budget', 'Economy', 'Midscale', 'Upscale', 'Luxury'].map((tier) => ({ level: 'all', tier, min_price_gbp: null, max_price_gbp: null, listings: '0' })));
  });
});
