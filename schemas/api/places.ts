/** GET /postcodes/{postcode} and GET /areas/{code}: requests and responses. */
import { z } from 'zod';
import { DOC_EXAMPLE } from './examples.ts';
import { Postcode } from './common.ts';
import { SourceAsOfSchema } from './property-history.ts';

export const PostcodeParamsSchema = z.strictObject({ postcode: Postcode });

/** A sector written with its space, an outcode, or a local authority GSS code. */
export const AreaCodeParamsSchema = z.strictObject({
  code: z
    .string()
    .regex(
      /^[A-Za-z]{1,2}[0-9][A-Za-z0-9]?( [0-9])?$|^[EWSNewsn][0-9]{8}$/,
      'must be a postcode sector with its space (BS1 4), an outcode (BS1) or a local authority GSS code (E06000023)',
    )
    .meta({ example: DOC_EXAMPLE.sector }),
});

const Point = z.object({ lat: z.number(), lng: z.number() });

export const MixSchema = z
  .array(z.object({ value: z.string().meta({ description: '"unknown" where the record has none' }), count: z.number().int(), share: z.number() }))
  .meta({ id: 'Mix', description: 'addresses by value, most common first; share of all the addresses' });

export const ValueWithSample = z
  .object({ value: z.number().nullable(), sample_size: z.number().int() })
  .meta({ id: 'ValueWithSample', description: 'a statistic and the number of records behind it; value null when there are none' });

export const DesignationSharesSchema = z
  .object({
    located_addresses: z.number().int().meta({ description: 'addresses with coordinates and known flags (in England: the planning and flood layers cover England only), the denominator of the shares' }),
    flood_zone_2: z.number().nullable().meta({ description: 'share in flood zone 2 or 3 (zone 3 lies within the zone-2 extent)' }),
    flood_zone_3: z.number().nullable().meta({ description: 'share in flood zone 3' }),
    conservation_area: z.number().nullable(),
    article_4: z.number().nullable(),
  })
  .meta({ id: 'DesignationShares' });

export const PostcodeSchema = z
  .object({
    postcode: z.string().meta({ description: 'canonical form' }),
    location: Point.nullable(),
    country: z.string().nullable(),
    local_authority: z.object({ code: z.string().nullable(), name: z.string().nullable().meta({ description: 'null where no loaded source names it' }) }),
    ward: z.string().nullable(),
    sector: z.string(),
    outcode: z.string(),
    status: z.enum(['live', 'terminated']),
    date_terminated: z.iso.date().nullable(),
    addresses: z.number().int().meta({ description: 'address-base addresses now at the postcode' }),
    property_types: MixSchema,
    tenures: MixSchema,
    median_price_5y: ValueWithSample.meta({ description: 'median price of the matched sales of those homes in the 5 years to Price Paid\'s as_of_month (sources)' }),
    sales_12m: z.number().int().meta({ description: 'matched sales of those homes in the 12 months to Price Paid\'s as_of_month (sources)' }),
    designations: DesignationSharesSchema,
    as_of_date: z.iso.date().meta({ description: 'the latest as-of date of its sources (each source\'s windows end at its own as_of_month); the build date when none is dated' }),
    sources: z.array(SourceAsOfSchema),
  })
  .meta({ id: 'Postcode' });

const Growth = z.number().nullable().meta({ description: 'fraction; null where the index is shorter' });

export const AreaSchema = z
  .object({
    code: z.string(),
    level: z.enum(['sector', 'outcode', 'district']),
    name: z.string().nullable().meta({ description: 'a district: the local authority; a sector or outcode: the post town most of its addresses have' }),
    country: z.string().nullable(),
    centroid: Point.nullable().meta({ description: 'mean position of its located addresses' }),
    addresses: z.number().int(),
    property_types: MixSchema,
    tenures: MixSchema,
    construction_ages: MixSchema,
    epc_ratings: MixSchema,
    prices: z.object({
      median_price_12m: ValueWithSample.meta({ description: 'median price of the area\'s matched sales in the 12 months to the index month' }),
      price_per_sqft: ValueWithSample.meta({ description: 'median £ per sq ft of standard sales of the last 24 months with a floor area, brought to the build month' }),
      growth: z.object({ '1y': Growth, '5y': Growth, '10y': Growth }),
      index: z.object({
        level: z.string(),
        code: z.string(),
        as_of_month: z.string(),
        widened: z.boolean().meta({ description: 'true when the area had too few sales and the growth is a wider area\'s' }),
        enough_sales: z.boolean().meta({ description: 'whether the area used has enough sales itself (false: even the widest area is thin)' }),
        repeat_pairs: z.number().int(),
      }).nullable(),
    }),
    rents: z.array(z.object({
      bedrooms: z.number().int().meta({ description: '0 studio … 4 = four or more' }),
      median_pcm: z.number().nullable(),
      sample_size: z.number().int(),
      source: z.string().meta({ description: 'evidence, ons_district (the local authority\'s ONS figure) or evidence_thin' }),
      gross_yield_pct: z.number().nullable(),
      yield_sales: z.number().int().nullable().meta({ description: 'sales behind the yield\'s price' }),
    })),
    short_term_lets: z.object({
      scrape_date: z.string().nullable(),
      listings: z.number().int(),
      active_listings: z.number().int(),
      from_month: z.string().nullable(),
      to_month: z.string().nullable(),
      adr: z.number().nullable().meta({ description: 'GBP: revenue ÷ booked nights over the 12 months' }),
      occupancy: z.number().nullable().meta({ description: 'fraction: booked ÷ available nights over the 12 months' }),
      booked_nights: z.number().nullable().meta({ description: 'the sample behind adr and occupancy' }),
    }).nullable().meta({ description: 'null where no listing lies in the area' }),
    designations: DesignationSharesSchema,
    as_of_date: z.iso.date().meta({ description: 'the latest as-of date of its sources (each source\'s windows end at its own as_of_month); the build date when none is dated' }),
    sources: z.array(SourceAsOfSchema),
  })
  .meta({ id: 'Area' });
