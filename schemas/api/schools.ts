import { z } from 'zod';
import { GIAS_PHASES, GIAS_STATUSES, OFSTED_RATINGS } from '../sources/gias.ts';
import { qBool, qInt, qNum } from './common.ts';
import { LocationEcho, locationQuery, type LocationOptions } from './location.ts';

/** The `phase` filter and the GIAS phases each takes (an all-through school is both primary and secondary). */
export const SCHOOL_PHASE_FILTER = {
  all: GIAS_PHASES,
  primary: ['Primary', 'Middle deemed primary', 'All-through'],
  secondary: ['Secondary', 'Middle deemed secondary', 'All-through'],
  nursery: ['Nursery'],
  sixteen_plus: ['16 plus'],
} as const satisfies Record<string, readonly (typeof GIAS_PHASES)[number][]>;

/** A point only: the search distance is `max_distance_m`. */
export const SCHOOLS_LOCATION: LocationOptions = { forms: ['uprn', 'postcode', 'point'] };
const schoolsLocation = locationQuery(SCHOOLS_LOCATION);

export const SchoolsQuerySchema = z
  .strictObject({
    ...schoolsLocation.shape,
    phase: z.enum(Object.keys(SCHOOL_PHASE_FILTER) as [keyof typeof SCHOOL_PHASE_FILTER, ...(keyof typeof SCHOOL_PHASE_FILTER)[]]).default('all')
      .meta({ description: 'primary and secondary include all-through and middle schools.' }),
    max_distance_m: qNum((n) => n.positive().max(20_000)).default(5_000).meta({ description: 'Default 5,000, at most 20,000.' }),
    limit: qInt((n) => n.min(1).max(50)).default(10),
    include_closed: qBool(false).meta({ description: 'Open establishments only unless true.' }),
  })
  .superRefine(schoolsLocation.refine);

export const SchoolSchema = z.object({
  urn: z.number().int(),
  name: z.string(),
  phase: z.enum(GIAS_PHASES),
  type: z.string(),
  distance_m: z.number().int(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().meta({ description: 'Its map point (WGS84), null where it has no position.' }),
  pupils: z.number().int().nullable(),
  capacity: z.number().int().nullable(),
  ofsted_rating: z.enum(OFSTED_RATINGS).nullable(),
  ofsted_date: z.string().nullable(),
  status: z.enum(GIAS_STATUSES),
  age_range: z.string().nullable().meta({ description: 'Statutory ages, e.g. "4-11".' }),
  postcode: z.string().nullable(),
});

export const SchoolsSchema = z.object({
  location: LocationEcho,
  count: z.number().int(),
  schools: z.array(SchoolSchema),
  source: z.object({ name: z.string(), as_of: z.string().nullable() }),
});
