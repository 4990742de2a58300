import { z } from 'zod';
import { optNum, optStr, POSTCODE_RE } from './fields.ts';

/**
 * ONSPD CSV header as in the sample (release circa 2025). Readers map columns by name,
 * not position: each ONSPD release adds and drops columns.
 */
export const ONSPD_HEADER = [
  'pcd7', 'pcd8', 'pcds', 'dointr', 'doterm', 'oscty', 'ced', 'oslaua', 'osward', 'parish',
  'usertype', 'oseast1m', 'osnrth1m', 'osgrdind', 'oshlthau', 'nhser', 'ctry', 'rgn', 'streg', 'pcon',
  'eer', 'teclec', 'ttwa', 'pct', 'itl', 'statsward', 'oa01', 'casward', 'npark', 'lsoa01',
  'msoa01', 'ur01ind', 'oac01', 'oa11', 'lsoa11', 'msoa11', 'wz11', 'sicbl', 'bua11', 'ru11ind',
  'oac11', 'lat', 'long', 'lep1', 'lep2', 'pfa', 'imd', 'calncv', 'icb', 'oa21',
  'lsoa21', 'msoa21',
] as const;

/** The columns the reader needs; a file missing any of them is not ONSPD. */
export const ONSPD_REQUIRED = [
  'pcd7', 'pcds', 'dointr', 'doterm', 'oseast1m', 'osnrth1m', 'osgrdind', 'lat', 'long', 'ctry',
  'oslaua', 'osward', 'rgn', 'pcon', 'lsoa21', 'msoa21', 'imd',
] as const;

/** ONSPD `ctry` GSS code to country name. */
export const ONSPD_COUNTRY = {
  E92000001: 'England',
  W92000004: 'Wales',
  S92000003: 'Scotland',
  N92000002: 'Northern Ireland',
  L93000001: 'Channel Islands',
  M83000003: 'Isle of Man',
} as const;
export type OnspdCountry = (typeof ONSPD_COUNTRY)[keyof typeof ONSPD_COUNTRY];

/** Canonical postcode: outward code, one space, inward code (e.g. `M1 1AD`, `SE1P 5ZZ`). */
export { POSTCODE_RE } from './fields.ts';
const yyyymm = z.string().regex(/^\d{4}(0[1-9]|1[0-2])$/, 'expected YYYYMM');

/** One ONSPD postcode. Pseudo codes (`S99999999`: "not applicable") arrive here as undefined. */
export const OnspdRow = z
  .object({
    pcd7: z.string().length(7),
    pcds: z.string().regex(POSTCODE_RE, 'expected a postcode like "M1 1AD"'),
    dointr: yyyymm,
    doterm: yyyymm.optional(),
    terminated: z.boolean(),
    // Great Britain on the British National Grid; Northern Ireland rows are on the Irish Grid.
    oseast1m: optNum().pipe(z.number().int().min(0).max(700_000).optional()),
    osnrth1m: optNum().pipe(z.number().int().min(0).max(1_300_000).optional()),
    osgrdind: optNum().pipe(z.number().int().min(1).max(9).optional()),
    lat: optNum().pipe(z.number().min(49).max(61).optional()),
    lng: optNum().pipe(z.number().min(-9).max(2.5).optional()),
    ctry: z.enum(Object.keys(ONSPD_COUNTRY) as [keyof typeof ONSPD_COUNTRY]),
    country: z.enum(Object.values(ONSPD_COUNTRY) as [OnspdCountry]),
    oslaua: optStr(),
    osward: optStr(),
    rgn: optStr(),
    pcon: optStr(),
    lsoa21: optStr(),
    msoa21: optStr(),
    imd: optNum().pipe(z.number().int().positive().optional()),
  })
  .refine((r) => (r.lat === undefined) === (r.lng === undefined), { path: ['lat'], message: 'lat and long must both be present or both missing' })
  .refine((r) => (r.oseast1m === undefined) === (r.osnrth1m === undefined), { path: ['oseast1m'], message: 'easting and northing must both be present or both missing' });
export type OnspdRow = z.infer<typeof OnspdRow>;
