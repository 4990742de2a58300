import { z } from 'zod';
import { optStr, str } from './fields.ts';

/**
 * police.uk street-level crime, one `YYYY-MM-<force>-street.csv` per force and month
 * (data.police.uk downloads). The synthetic region writes the same header.
 */
export const POLICE_STREET_HEADER = [
  'Crime ID', 'Month', 'Reported by', 'Falls within', 'Longitude', 'Latitude', 'Location',
  'LSOA code', 'LSOA name', 'Crime type', 'Last outcome category', 'Context',
] as const;

/** The 14 categories police.uk publishes (since May 2013), as written in `Crime type`. */
export const CRIME_TYPES = [
  'Anti-social behaviour', 'Bicycle theft', 'Burglary', 'Criminal damage and arson', 'Drugs',
  'Other crime', 'Other theft', 'Possession of weapons', 'Public order', 'Robbery', 'Shoplifting',
  'Theft from the person', 'Vehicle crime', 'Violence and sexual offences',
] as const;

const month = () => z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM');

/**
 * One street-level crime. `release` (the police.uk archive month the file came from) and
 * `force` (the file name's force slug) are the file's identity: a later release of the same
 * month and force replaces the earlier one wholesale. Anti-social behaviour has no Crime ID;
 * a row with no position keeps lat/lng undefined (it counts in the force's totals, but no
 * radius finds it). `location` is the snap point's street name with `On or near ` removed.
 */
export const PoliceCrimeRow = z.object({
  crime_id: z.string().regex(/^[0-9a-f]{64}$/, 'expected a 64-hex Crime ID').optional(),
  month: month(),
  release: month(),
  force: str(),
  reported_by: str(),
  falls_within: str(),
  lat: z.number().min(49).max(61).optional(),
  lng: z.number().min(-9).max(2.5).optional(),
  location: optStr(),
  lsoa_code: z.string().regex(/^[EW]01\d{6}$/, 'expected an LSOA code').optional(),
  lsoa_name: optStr(),
  crime_type: z.enum(CRIME_TYPES),
  last_outcome: optStr(),
}).refine((r) => (r.lat === undefined) === (r.lng === undefined), { path: ['lat'], message: 'latitude without longitude or the reverse' });
export type PoliceCrimeRow = z.infer<typeof PoliceCrimeRow>;
