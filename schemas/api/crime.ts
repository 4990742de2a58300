import { z } from 'zod';
import { CRIME_TYPES } from '../sources/police-crime.ts';
import { LocationEcho, locationQuery, type LocationOptions } from './location.ts';

export const CRIME_RADIUS = { default: 800, max: 1_600 } as const;
export const CRIME_LOCATION: LocationOptions = { forms: ['uprn', 'postcode', 'point'], radius: { ...CRIME_RADIUS, anyForm: true } };
const crimeLocation = locationQuery(CRIME_LOCATION);

export const CrimeQuerySchema = z.strictObject({ ...crimeLocation.shape }).superRefine(crimeLocation.refine);

const Rate = z.object({
  crimes: z.number().int(),
  addresses: z.number().int(),
  per_1000_addresses: z.number().nullable().meta({ description: 'Crimes over the months per 1,000 addresses; null with no addresses.' }),
});

export const CrimeSchema = z.object({
  location: LocationEcho,
  months: z.array(z.string()).meta({ description: 'The months counted (YYYY-MM), oldest first: the last 12 police.uk has published.' }),
  total: z.number().int(),
  by_category: z.array(z.object({ category: z.enum(CRIME_TYPES), count: z.number().int() })),
  by_month: z.array(z.object({ month: z.string(), total: z.number().int(), by_category: z.record(z.string(), z.number().int()) })),
  rate: Rate.meta({ description: 'Within the radius: addresses are those whose postcode point is inside it.' }),
  local_authority: Rate.extend({ la_code: z.string(), months: z.number().int() }).nullable()
    .meta({ description: 'The rate of the local authority the location is in, over the same months; null when unknown.' }),
  positions: z.string().meta({ description: 'What the points are: police.uk anonymised snap points.' }),
  unplaced_in_local_authority: z.number().int().meta({ description: 'Crimes of the authority police.uk published without a position (in its rate, in no radius).' }),
  source: z.object({ name: z.string(), as_of: z.string(), latest_release: z.string() }),
});
