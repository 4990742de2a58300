import { z } from 'zod';
import { LISTING_PROPERTY_TYPES } from '../sources/listings.ts';
import { Page, qInt, qNum } from './common.ts';
import { LocationEcho, locationQuery, type LocationOptions } from './location.ts';
import { listingTypeParam } from './property-type.ts';

export const LISTINGS_RADIUS = { default: 1_000, max: 5_000 } as const;
export const DEALS_RADIUS = { default: 2_000, max: 10_000 } as const;
/** Around a UPRN, postcode or point (radius_m), or everything placed in an outcode (no radius). */
const around = (radius: { default: number; max: number }): LocationOptions => ({
  forms: ['uprn', 'postcode', 'outcode', 'point'], radius: { ...radius, anyForm: true, pointsOnly: true },
});
export const LISTINGS_LOCATION = around(LISTINGS_RADIUS);
export const DEALS_LOCATION = around(DEALS_RADIUS);
const listingsLocation = locationQuery(LISTINGS_LOCATION);
const dealsLocation = locationQuery(DEALS_LOCATION);

const priceRange = {
  min_price: qInt((n) => n.min(0)).optional(),
  max_price: qInt((n) => n.min(0)).optional(),
};
const bedroomRange = {
  min_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
  max_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
};
function ordered(v: { min_price?: number; max_price?: number; min_bedrooms?: number; max_bedrooms?: number }, ctx: z.RefinementCtx): void {
  if (v.min_price !== undefined && v.max_price !== undefined && v.min_price > v.max_price) {
    ctx.addIssue({ code: 'custom', path: ['max_price'], message: 'max_price is below min_price' });
  }
  if (v.min_bedrooms !== undefined && v.max_bedrooms !== undefined && v.min_bedrooms > v.max_bedrooms) {
    ctx.addIssue({ code: 'custom', path: ['max_bedrooms'], message: 'max_bedrooms is below min_bedrooms' });
  }
}

export const ListingsQuerySchema = z
  .strictObject({
    ...listingsLocation.shape,
    type: z.enum(['sale', 'rent']).default('sale'),
    ...priceRange,
    ...bedroomRange,
    property_type: listingTypeParam().optional(),
    sort: z.enum(['newest', 'price_asc', 'price_desc', 'distance']).default('newest'),
    page: Page,
    per_page: qInt((n) => n.min(1).max(50)).default(25),
  })
  .superRefine(listingsLocation.refine)
  .superRefine(ordered)
  .superRefine((v, ctx) => {
    if (v.sort === 'distance' && v.outcode !== undefined) ctx.addIssue({ code: 'custom', path: ['sort'], message: 'sort=distance needs a point (uprn, postcode or lat+lng), not an outcode' });
  });

export const ListingSchema = z.object({
  listing_id: z.string(),
  uprn: z.number().int().nullable().meta({ description: 'The matched UPRN; null when the address allows no match.' }),
  address: z.string(),
  postcode: z.string(),
  price: z.number().meta({ description: 'GBP: the asking price, or the rent per calendar month.' }),
  price_qualifier: z.string().nullable(),
  bedrooms: z.number().int(),
  property_type: z.enum(LISTING_PROPERTY_TYPES),
  tenure: z.string().nullable(),
  listed_date: z.string().nullable(),
  distance_m: z.number().int().nullable().meta({ description: 'From the point; null when the location is an outcode.' }),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().meta({ description: 'Its map point (WGS84), null where it has no position.' }),
  agent_ref: z.string(),
  status: z.string(),
});

export const ListingsSchema = z.object({
  location: LocationEcho,
  type: z.enum(['sale', 'rent']),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  listings: z.array(ListingSchema),
  source: z.object({ name: z.string(), as_of: z.string().nullable() }),
});

export const DealsQuerySchema = z
  .strictObject({
    ...dealsLocation.shape,
    strategy: z.enum(['below_market', 'yield']).default('below_market'),
    min_discount_pct: qNum((n) => n.min(0).max(90)).optional().meta({ description: 'below_market: the least discount to the valuation; default 10.' }),
    min_yield_pct: qNum((n) => n.min(0).max(50)).optional().meta({ description: 'yield: the least gross yield; default: above the area\'s.' }),
    ...priceRange,
    ...bedroomRange,
    page: Page,
    per_page: qInt((n) => n.min(1).max(50)).default(20),
  })
  .superRefine(dealsLocation.refine)
  .superRefine(ordered)
  .superRefine((v, ctx) => {
    if (v.strategy === 'below_market' && v.min_yield_pct !== undefined) ctx.addIssue({ code: 'custom', path: ['min_yield_pct'], message: 'min_yield_pct applies to strategy=yield' });
    if (v.strategy === 'yield' && v.min_discount_pct !== undefined) ctx.addIssue({ code: 'custom', path: ['min_discount_pct'], message: 'min_discount_pct applies to strategy=below_market' });
  });

export const DealSchema = ListingSchema.omit({ status: true }).extend({
  score: z.number().meta({ description: 'Strength of the evidence (docs/sourcing.md): what ranks the deals.' }),
  valuation: z.object({ value: z.number(), confidence: z.enum(['High', 'Medium', 'Low']), method: z.string(), typical_error_pct: z.number() }),
  discount_pct: z.number().meta({ description: '(valuation − price) ÷ valuation × 100.' }),
  rent_estimate_pcm: z.number().nullable(),
  rent_evidence: z.object({ area: z.string(), source: z.string(), sample_size: z.number().int().nullable() }).nullable(),
  gross_yield_pct: z.number().nullable(),
  area_yield_pct: z.number().nullable(),
  area_yield_sample_size: z.number().int().nullable(),
});

export const DealsSchema = z.object({
  location: LocationEcho,
  strategy: z.enum(['below_market', 'yield']),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  considered: z.object({
    for_sale: z.number().int().meta({ description: 'Available for-sale listings at the location after the filters.' }),
    valued: z.number().int(),
    without_uprn: z.number().int().meta({ description: 'Not matched to a UPRN, so not valued.' }),
    without_valuation: z.number().int(),
  }),
  deals: z.array(DealSchema),
  source: z.object({ listings_as_of: z.string().nullable(), valuation_as_of: z.string() }),
});
