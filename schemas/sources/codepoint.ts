import { z } from 'zod';
import { optNum, optStr, POSTCODE_RE } from './fields.ts';

/** Column names from Code-Point Open `Doc/Code-Point_Open_Column_Headers.csv`; the data files are headerless. */
export const CODEPOINT_COLUMNS = [
  'Postcode', 'Positional_quality_indicator', 'Eastings', 'Northings', 'Country_code',
  'NHS_regional_HA_code', 'NHS_HA_code', 'Admin_county_code', 'Admin_district_code', 'Admin_ward_code',
] as const;

/**
 * Positional quality indicator: 10 within a matched address's building, 20 same but
 * approximate, 30 approximate to 50 m, 40 postcode unit mean, 50 estimated from
 * neighbouring units, 60 postcode sector mean, 90 no coordinates.
 */
export const CODEPOINT_QUALITY = [10, 20, 30, 40, 50, 60, 90] as const;

/** One Code-Point Open postcode. Coordinates are undefined (has_location false) when OS has none. */
export const CodePointRow = z.object({
  postcode: z.string().regex(POSTCODE_RE, 'expected a postcode like "BS1 1AA"'),
  positional_quality: z.coerce.number().pipe(z.number().refine((n) => (CODEPOINT_QUALITY as readonly number[]).includes(n), 'unknown quality indicator')),
  has_location: z.boolean(),
  easting: optNum().pipe(z.number().min(0).max(700_000).optional()),
  northing: optNum().pipe(z.number().min(0).max(1_300_000).optional()),
  lat: z.number().min(49).max(61).optional(),
  lng: z.number().min(-9).max(2.5).optional(),
  country_code: optStr(),
  nhs_regional_ha_code: optStr(),
  nhs_ha_code: optStr(),
  admin_county_code: optStr(),
  admin_district_code: optStr(),
  admin_ward_code: optStr(),
}).refine((r) => !r.has_location || (r.easting !== undefined && r.northing !== undefined && r.lat !== undefined && r.lng !== undefined), {
  path: ['easting'],
  message: 'a located postcode needs both eastings and northings',
});
export type CodePointRow = z.infer<typeof CodePointRow>;
