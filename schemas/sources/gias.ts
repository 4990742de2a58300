import { z } from 'zod';
import { isoDate, optPostcode, optStr, str } from './fields.ts';

/**
 * Get Information About Schools (GIAS) `edubasealldata*.csv`: every establishment in
 * England, about 140 columns, Windows-1252, CRLF, text quoted. These are the columns the
 * reader uses; the synthetic region writes the full header of the 2018 sample
 * (`GIAS_HEADER` in `etl/synth/schools.ts`).
 */
export const GIAS_REQUIRED = [
  'URN', 'EstablishmentName', 'TypeOfEstablishment (name)', 'EstablishmentStatus (name)',
  'PhaseOfEducation (name)', 'StatutoryLowAge', 'StatutoryHighAge', 'SchoolCapacity', 'NumberOfPupils',
  'Postcode', 'Easting', 'Northing',
] as const;

/** `EstablishmentStatus (name)` values. Only `Open` and `Open, but proposed to close` teach pupils today. */
export const GIAS_STATUSES = ['Open', 'Closed', 'Open, but proposed to close', 'Proposed to open'] as const;

/** `PhaseOfEducation (name)` values as GIAS writes them. */
export const GIAS_PHASES = [
  'Not applicable', 'Nursery', 'Primary', 'Middle deemed primary', 'Secondary', 'Middle deemed secondary',
  '16 plus', 'All-through',
] as const;

/** Ofsted overall effectiveness as the extract names it (`OfstedRating (name)`), where it carries one. */
export const OFSTED_RATINGS = ['Outstanding', 'Good', 'Requires improvement', 'Inadequate', 'Serious Weaknesses', 'Special Measures'] as const;

const count = () => z.number().int().nonnegative().optional();

/** One establishment. Position from its Easting/Northing (BNG) converted to WGS84; undefined when GIAS has none. */
export const GiasSchoolRow = z.object({
  urn: z.number().int().positive(),
  name: str(),
  type: str(),
  status: z.enum(GIAS_STATUSES),
  phase: z.enum(GIAS_PHASES),
  low_age: count(),
  high_age: count(),
  pupils: count(),
  capacity: count(),
  ofsted_rating: z.enum(OFSTED_RATINGS).optional(),
  ofsted_date: isoDate().optional(),
  open_date: isoDate().optional(),
  close_date: isoDate().optional(),
  street: optStr(),
  town: optStr(),
  postcode: optPostcode(),
  la_name: optStr(),
  district_code: z.string().regex(/^[EW]0\d{7}$/).optional(),
  uprn: z.number().int().positive().optional(),
  easting: z.number().min(0).max(700_000).optional(),
  northing: z.number().min(0).max(1_300_000).optional(),
  lat: z.number().optional(),
  lng: z.number().optional(),
});
export type GiasSchoolRow = z.infer<typeof GiasSchoolRow>;

/** The links extract (`links_edubasealldata*.csv`): predecessor and successor establishments. */
export const GIAS_LINKS_HEADER = ['URN', 'LinkURN', 'LinkName', 'LinkType', 'LinkEstablishedDate'] as const;

export const GiasLinkRow = z.object({
  urn: z.number().int().positive(),
  link_urn: z.number().int().positive(),
  link_name: str(),
  link_type: str(),
  established: isoDate().optional(),
});
export type GiasLinkRow = z.infer<typeof GiasLinkRow>;
