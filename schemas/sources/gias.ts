import { z } from 'zod';
import { isoDate, optPostcode, optStr, str } from './fields.ts';

/**
 * Get Information About Schools (GIAS) `edubasealldata*.csv`: every establishment in
 * England, about 140 columns, Windows-1252, CRLF, text quoted. These are the columns the
 * reader uses; the synthetic region writes the full header of the 2018 sample
 * (`GIAS_HEADER` below).
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

/** The full 133-column header of the 2018 extract sample (the synthetic region writes every column). */
export const GIAS_HEADER = [
  'URN', 'LA (code)', 'LA (name)', 'EstablishmentNumber', 'EstablishmentName', 'TypeOfEstablishment (code)',
  'TypeOfEstablishment (name)', 'EstablishmentTypeGroup (code)', 'EstablishmentTypeGroup (name)',
  'EstablishmentStatus (code)', 'EstablishmentStatus (name)', 'ReasonEstablishmentOpened (code)',
  'ReasonEstablishmentOpened (name)', 'OpenDate', 'ReasonEstablishmentClosed (code)',
  'ReasonEstablishmentClosed (name)', 'CloseDate', 'PhaseOfEducation (code)', 'PhaseOfEducation (name)',
  'StatutoryLowAge', 'StatutoryHighAge', 'Boarders (code)', 'Boarders (name)', 'NurseryProvision (name)',
  'OfficialSixthForm (code)', 'OfficialSixthForm (name)', 'Gender (code)', 'Gender (name)',
  'ReligiousCharacter (code)', 'ReligiousCharacter (name)', 'ReligiousEthos (name)', 'Diocese (code)',
  'Diocese (name)', 'AdmissionsPolicy (code)', 'AdmissionsPolicy (name)', 'SchoolCapacity', 'SpecialClasses (code)',
  'SpecialClasses (name)', 'CensusDate', 'NumberOfPupils', 'NumberOfBoys', 'NumberOfGirls', 'PercentageFSM',
  'TrustSchoolFlag (code)', 'TrustSchoolFlag (name)', 'Trusts (code)', 'Trusts (name)', 'SchoolSponsorFlag (name)',
  'SchoolSponsors (name)', 'FederationFlag (name)', 'Federations (code)', 'Federations (name)', 'UKPRN',
  'FEHEIdentifier', 'FurtherEducationType (name)', 'OfstedLastInsp', 'OfstedSpecialMeasures (code)',
  'OfstedSpecialMeasures (name)', 'LastChangedDate', 'Street', 'Locality', 'Address3', 'Town', 'County (name)',
  'Postcode', 'SchoolWebsite', 'TelephoneNum', 'HeadTitle (name)', 'HeadFirstName', 'HeadLastName',
  'HeadPreferredJobTitle', 'InspectorateName (name)', 'InspectorateReport', 'DateOfLastInspectionVisit',
  'NextInspectionVisit', 'TeenMoth (name)', 'TeenMothPlaces', 'CCF (name)', 'SENPRU (name)', 'EBD (name)', 'PlacesPRU',
  'FTProv (name)', 'EdByOther (name)', 'Section41Approved (name)', 'SEN1 (name)', 'SEN2 (name)', 'SEN3 (name)',
  'SEN4 (name)', 'SEN5 (name)', 'SEN6 (name)', 'SEN7 (name)', 'SEN8 (name)', 'SEN9 (name)', 'SEN10 (name)',
  'SEN11 (name)', 'SEN12 (name)', 'SEN13 (name)', 'TypeOfResourcedProvision (name)', 'ResourcedProvisionOnRoll',
  'ResourcedProvisionCapacity', 'SenUnitOnRoll', 'SenUnitCapacity', 'GOR (code)', 'GOR (name)',
  'DistrictAdministrative (code)', 'DistrictAdministrative (name)', 'AdministrativeWard (code)',
  'AdministrativeWard (name)', 'ParliamentaryConstituency (code)', 'ParliamentaryConstituency (name)',
  'UrbanRural (code)', 'UrbanRural (name)', 'GSSLACode (name)', 'Easting', 'Northing',
  'CensusAreaStatisticWard (name)', 'MSOA (name)', 'LSOA (name)', 'Inspectorate (name)', 'SENStat', 'SENNoStat',
  'BoardingEstablishment (name)', 'PropsName', 'PreviousLA (code)', 'PreviousLA (name)', 'PreviousEstablishmentNumber',
  'OfstedRating (name)', 'RSCRegion (name)', 'Country (name)', 'UPRN', 'SiteName', 'MSOA (code)', 'LSOA (code)',
] as const;
