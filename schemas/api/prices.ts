/** GET /prices/trends and GET /prices/comparables: requests and responses. */
import { z } from 'zod';
import { Page, PageSize, qInt } from './common.ts';
import { locationQuery } from './location.ts';
import { homeTypeParam } from './property-type.ts';
import { SourceAsOfSchema } from './property-history.ts';
import { HOME_TYPES } from '../property-types.ts';

export const TRENDS_LOCATION = locationQuery({ forms: ['uprn', 'sector', 'postcode', 'outcode', 'local_authority'] });

export const TrendsQuerySchema = z
  .strictObject({
    ...TRENDS_LOCATION.shape,
    property_type: homeTypeParam().optional().meta({ description: 'medians and sales of this type only (the index is of all types)' }),
    months: qInt((n) => n.min(12).max(120)).default(120).meta({ description: 'months of the series, up to 10 years' }),
  })
  .superRefine(TRENDS_LOCATION.refine);

const AreaRef = z.object({ level: z.enum(['sector', 'outcode', 'district', 'country']), code: z.string() });

export const TrendsSchema = z
  .object({
    area: AreaRef.meta({ description: 'the area asked for (a full postcode or a UPRN answers for its sector)' }),
    property_type: z.enum(HOME_TYPES).nullable(),
    index_area: AreaRef.extend({
      widened: z.boolean().meta({ description: 'true when the asked area has too few sales and the index is this wider area\'s' }),
      enough_sales: z.boolean().meta({ description: 'whether this area has enough sales itself (false: even the widest known area is thin)' }),
      repeat_pairs: z.number().int().meta({ description: 'repeat-sale pairs behind this area\'s index' }),
      reason: z.string().nullable(),
    }),
    index_base: z.string(),
    as_of_month: z.string(),
    months: z.array(z.object({
      month: z.string().meta({ description: 'YYYY-MM' }),
      index: z.number().nullable().meta({ description: 'index_area\'s level' }),
      median_price: z.number().nullable().meta({ description: 'median price of the asked area\'s matched sales that month (of property_type when given); null with none' }),
      sales: z.number().int(),
    })).meta({ description: 'oldest first' }),
    growth: z.object({ '1y': z.number().nullable(), '3y': z.number().nullable(), '5y': z.number().nullable(), '10y': z.number().nullable() })
      .meta({ description: 'index growth to as_of_month as fractions; null where the index is shorter' }),
    sales_12m: z.number().int().meta({ description: 'the asked area\'s sales in the 12 months to as_of_month (of property_type when given)' }),
    sources: z.array(SourceAsOfSchema),
  })
  .meta({ id: 'PriceTrends' });

export const COMPARABLES_LOCATION = locationQuery({ forms: ['uprn', 'postcode', 'point'], radius: { default: 500, max: 2000, anyForm: true } });

export const ComparablesQuerySchema = z
  .strictObject({
    ...COMPARABLES_LOCATION.shape,
    property_type: homeTypeParam().optional(),
    bedrooms: qInt((n) => n.min(0).max(20)).optional(),
    min_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
    max_bedrooms: qInt((n) => n.min(0).max(20)).optional(),
    min_date: z.iso.date().optional(),
    max_date: z.iso.date().optional(),
    sort: z.enum(['distance', 'date', 'similarity']).default('distance').meta({ description: 'similarity needs a uprn (the home compared with)' }),
    page: Page,
    per_page: PageSize(20, 50),
  })
  .superRefine((v, ctx) => {
    COMPARABLES_LOCATION.refine(v, ctx);
    if (v.bedrooms !== undefined && (v.min_bedrooms !== undefined || v.max_bedrooms !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['bedrooms'], message: 'give bedrooms or min_bedrooms/max_bedrooms, not both' });
    }
    if (v.min_bedrooms !== undefined && v.max_bedrooms !== undefined && v.min_bedrooms > v.max_bedrooms) {
      ctx.addIssue({ code: 'custom', path: ['min_bedrooms'], message: 'min_bedrooms is more than max_bedrooms' });
    }
    if (v.min_date !== undefined && v.max_date !== undefined && v.min_date > v.max_date) {
      ctx.addIssue({ code: 'custom', path: ['min_date'], message: 'min_date is after max_date' });
    }
    if (v.sort === 'similarity' && v.uprn === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sort'], message: 'sort=similarity needs uprn (the home to compare with)' });
    }
  });

export const ComparableSchema = z.object({
  uprn: z.number().int(),
  address: z.string(),
  postcode: z.string().nullable(),
  price: z.number().int(),
  date: z.iso.date(),
  property_type: z.string().nullable().meta({ description: 'the home\'s type on its record' }),
  bedrooms: z.number().int().nullable(),
  floor_area_sqft: z.number().nullable(),
  price_per_sqft: z.number().nullable(),
  price_today: z.number().int().nullable().meta({ description: 'the price brought to the index month by the local index' }),
  distance_m: z.number(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable().meta({ description: 'Its map point (WGS84), null where it has no position.' }),
  similarity: z.number().nullable().meta({ description: '0–1 against the uprn given (docs/api.md); null without one' }),
});

export const ComparablesSchema = z
  .object({
    location: z.object({ label: z.string(), lat: z.number(), lng: z.number(), radius_m: z.number() }),
    filters: z.object({
      property_type: z.string().nullable(), min_bedrooms: z.number().int().nullable(), max_bedrooms: z.number().int().nullable(),
      min_date: z.string().nullable(), max_date: z.string().nullable(),
    }),
    sort: z.enum(['distance', 'date', 'similarity']),
    total: z.number().int().meta({ description: 'homes matching, each once with its latest sale in the date range' }),
    page: z.number().int(),
    per_page: z.number().int(),
    total_pages: z.number().int(),
    comparables: z.array(ComparableSchema),
    price_today_month: z.string().nullable(),
    source: SourceAsOfSchema,
  })
  .meta({ id: 'SoldComparables' });
