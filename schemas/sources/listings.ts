import { z } from 'zod';
import { optStr, POSTCODE_RE, str } from './fields.ts';

/**
 * Property listings from agents' feeds to Rightmove: the BLM bulk file (v3) and the Real
 * Time Datafeed JSON (send and remove property requests). Both readers yield `ListingRow`
 * so the ETL treats a listing the same whichever way the agent sent it. Codes are
 * Rightmove's, from the BLM v3 specification and the RTDF schema in the samples
 * (`SendPropertyDetailsRequestSchema.json`); the two number some lists differently.
 */

/** Transaction status, Rightmove's names in order: BLM STATUS_ID 0–5, RTDF status 1–6. */
export const LISTING_STATUSES = ['available', 'sstc', 'sstcm', 'under_offer', 'reserved', 'let_agreed'] as const;

/** RTDF `price_qualifier` (BLM v3 `PRICE_QUALIFIER` uses the same numbers); 0 Default is no qualifier. */
export const PRICE_QUALIFIERS: Record<number, string> = {
  1: 'POA', 2: 'Guide Price', 3: 'Fixed Price', 4: 'Offers in excess of', 5: 'OIRO', 6: 'Sale by Tender', 7: 'From',
  9: 'Shared Ownership', 10: 'Offers over', 11: 'Part Buy, Part Rent', 12: 'Shared Equity', 16: 'Coming Soon',
};

/** RTDF `tenure_type` and BLM `TENURE_TYPE_ID`. */
export const TENURES: Record<number, string> = { 1: 'Freehold', 2: 'Leasehold', 3: 'Feudal', 4: 'Commonhold', 5: 'Share of Freehold' };

/** How a rent is quoted; `price` is always converted to a calendar month (×52/12 a week, /3 a quarter, /12 a year, ×365/12 a day). */
export const RENT_FREQUENCIES = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type RentFrequency = (typeof RENT_FREQUENCIES)[number];
export const PER_MONTH: Record<RentFrequency, number> = { daily: 365 / 12, weekly: 52 / 12, monthly: 1, quarterly: 1 / 3, yearly: 1 / 12 };

/**
 * The API's property types, coarse enough to filter on, from Rightmove's property type
 * codes (PROP_SUB_ID / property_type). Codes not listed (land, parking, commercial) are `other`.
 */
export const LISTING_PROPERTY_TYPES = ['detached', 'semi-detached', 'terraced', 'flat', 'bungalow', 'other'] as const;
export type ListingPropertyType = (typeof LISTING_PROPERTY_TYPES)[number];
const TYPE_CODES: Record<ListingPropertyType, number[]> = {
  detached: [4, 21, 131, 113, 120],
  'semi-detached': [3, 128],
  terraced: [1, 2, 5, 22, 23],
  flat: [7, 8, 9, 10, 11, 28, 29, 44, 56, 59],
  bungalow: [12, 13, 14, 15],
  other: [],
};
export function listingPropertyType(code: number): ListingPropertyType {
  for (const [kind, codes] of Object.entries(TYPE_CODES)) if (codes.includes(code)) return kind as ListingPropertyType;
  return 'other';
}

const isoDateTime = () => z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'expected a date and time');
const postcode = () => z.string().regex(POSTCODE_RE, 'expected a UK postcode');

const common = {
  feed: z.enum(['blm', 'rtdf']),
  branch_id: str(),
  agent_ref: str(),
  /** `<branch_id>:<agent_ref>`: Rightmove identifies a listing by branch and agent reference. */
  listing_id: str(),
  /** When the agent's system last changed it (BLM UPDATE_DATE, RTDF update_date or transaction_date); the latest wins. */
  updated_at: isoDateTime(),
};

/** A listing as the agent sent it (a BLM record or an RTDF send property request). */
export const ListingSendRow = z.object({
  ...common,
  event: z.literal('send'),
  channel: z.enum(['sale', 'rent']),
  status: z.enum(LISTING_STATUSES),
  published: z.boolean(),
  created_at: isoDateTime().optional(),
  address_1: optStr(),
  address_2: optStr(),
  address_3: optStr(),
  address_4: optStr(),
  town: optStr(),
  postcode: postcode(),
  display_address: optStr(),
  lat: z.number().min(49).max(61).optional(),
  lng: z.number().min(-9).max(2.5).optional(),
  /** GBP: the asking price, or the rent per calendar month. */
  price: z.number().positive(),
  /** The rent as advertised, and how often: rents only. */
  advertised_rent: z.number().positive().optional(),
  rent_frequency: z.enum(RENT_FREQUENCIES).optional(),
  price_qualifier: optStr(),
  tenure: optStr(),
  bedrooms: z.number().int().min(0).max(50),
  property_type: z.enum(LISTING_PROPERTY_TYPES),
  rightmove_type: z.number().int().nonnegative(),
  new_home: z.boolean().optional(),
});
export type ListingSendRow = z.infer<typeof ListingSendRow>;

/** A listing taken off (RTDF remove property request). */
export const ListingRemoveRow = z.object({
  ...common,
  event: z.literal('remove'),
  removal_reason: z.number().int().optional(),
});
export type ListingRemoveRow = z.infer<typeof ListingRemoveRow>;

export const ListingRow = z.discriminatedUnion('event', [ListingSendRow, ListingRemoveRow]);
export type ListingRow = z.infer<typeof ListingRow>;

/** BLM columns without which a file cannot be read as listings. */
export const BLM_REQUIRED = [
  'AGENT_REF', 'BRANCH_ID', 'STATUS_ID', 'BEDROOMS', 'PRICE', 'PROP_SUB_ID', 'TRANS_TYPE_ID', 'POSTCODE1', 'POSTCODE2',
  'PUBLISHED_FLAG', 'UPDATE_DATE',
] as const;

/** The 45 BLM v3 fields of the shared sample, in its order; the synthetic region writes these plus PRICE_QUALIFIER, TENURE_TYPE_ID, LATITUDE, LONGITUDE. */
export const BLM_SAMPLE_FIELDS = [
  'AGENT_REF', 'ADDRESS_1', 'ADDRESS_2', 'ADDRESS_3', 'ADDRESS_4', 'TOWN', 'POSTCODE1', 'POSTCODE2', 'FEATURE1', 'FEATURE2',
  'FEATURE3', 'FEATURE4', 'FEATURE5', 'SUMMARY', 'DESCRIPTION', 'BRANCH_ID', 'STATUS_ID', 'BEDROOMS', 'PRICE', 'NEW_HOME_FLAG',
  'PROP_SUB_ID', 'CREATE_DATE', 'UPDATE_DATE', 'DISPLAY_ADDRESS', 'PUBLISHED_FLAG', 'LET_DATE_AVAILABLE', 'LET_BOND',
  'LET_TYPE_ID', 'LET_FURN_ID', 'LET_RENT_FREQUENCY', 'TRANS_TYPE_ID', 'MEDIA_IMAGE_00', 'MEDIA_IMAGE_01', 'MEDIA_IMAGE_02',
  'MEDIA_IMAGE_03', 'MEDIA_IMAGE_04', 'MEDIA_IMAGE_05', 'MEDIA_IMAGE_06', 'MEDIA_IMAGE_07', 'MEDIA_IMAGE_08', 'MEDIA_IMAGE_09',
  'MEDIA_FLOOR_PLAN_00', 'MEDIA_FLOOR_PLAN_01', 'MEDIA_FLOOR_PLAN_02', 'MEDIA_VIRTUAL_TOUR_00',
] as const;
