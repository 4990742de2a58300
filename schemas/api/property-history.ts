/** Responses of GET /properties/{uprn}/sales and GET /properties/{uprn}/epc. */
import { z } from 'zod';
import { EPC_RATINGS } from './risks.ts';
import { PPD_TYPE_NAMES } from '../property-types.ts';

export const SourceAsOfSchema = z
  .object({
    name: z.string().meta({ description: 'the source as the build manifest names it, e.g. price_paid, epc, onspd' }),
    as_of: z.string().nullable().meta({ description: 'the latest date its loaded files cover (YYYY-MM-DD); null when the files do not say' }),
    as_of_month: z.string().nullable().meta({ description: 'YYYY-MM: its latest complete month, where every window over it ("12 months", "24 months") ends, never the build date (docs/api.md, Windows and as-of); null when the files do not say' }),
  })
  .meta({ id: 'SourceAsOf' });

export const PropertySaleSchema = z.object({
  transaction_id: z.string(),
  date: z.iso.date(),
  price: z.number().int().meta({ description: 'GBP, as recorded (a corrected record in its latest form)' }),
  price_today: z.number().int().nullable().meta({ description: 'the price brought to price_today_month by the local repeat-sales index; null where there is no index (Scotland)' }),
  property_type: z.enum(Object.values(PPD_TYPE_NAMES)).meta({ description: 'as recorded at the sale' }),
  new_build: z.boolean(),
  tenure: z.enum(['Freehold', 'Leasehold', 'Unknown']),
  category: z.enum(['A', 'B']).meta({ description: 'A standard price paid; B additional (repossessions, buy-to-let, transfers to companies)' }),
});

export const PropertySalesSchema = z
  .object({
    uprn: z.number().int(),
    address: z.string(),
    postcode: z.string().nullable(),
    count: z.number().int().meta({ description: 'number of recorded sales (deleted records absent)' }),
    sales: z.array(PropertySaleSchema).meta({ description: 'newest first' }),
    price_today_month: z.string().nullable().meta({ description: 'YYYY-MM: the index month prices are brought to' }),
    price_today_method: z.string(),
    source: SourceAsOfSchema,
  })
  .meta({ id: 'PropertySales' });

const Rating = z.enum(EPC_RATINGS).nullable();

export const CertificateSchema = z.object({
  certificate_id: z.string(),
  lodged: z.iso.date().nullable(),
  expires: z.iso.date().nullable().meta({ description: 'lodgement date + 10 years' }),
  expired: z.boolean().nullable().meta({ description: 'expired at the build date; null without a lodgement date' }),
  current_rating: Rating,
  potential_rating: Rating,
  current_efficiency: z.number().int().nullable().meta({ description: 'SAP points' }),
  potential_efficiency: z.number().int().nullable().meta({ description: 'SAP points' }),
  floor_area_sqft: z.number().nullable(),
  floor_area_m2: z.number().nullable(),
  habitable_rooms: z.number().int().nullable(),
  property_type: z.string().nullable().meta({ description: 'as on the certificate: House, Flat, Bungalow, Maisonette, Park home' }),
  build_form: z.string().nullable().meta({ description: 'the certificate\'s built form (Mid-Terrace, Detached …), named as the property record names it' }),
  construction_age: z.string().nullable(),
  main_fuel: z.string().nullable().meta({ description: 'where the certificate export has it' }),
  occupancy: z.string().nullable().meta({ description: 'the certificate\'s TENURE field: owner-occupied, rental (private or social) as recorded, not legal tenure' }),
});

export const PropertyEpcSchema = z
  .object({
    uprn: z.number().int(),
    address: z.string(),
    postcode: z.string().nullable(),
    count: z.number().int(),
    certificates: z.array(CertificateSchema).meta({ description: 'newest lodgement first' }),
    as_of_date: z.iso.date().meta({ description: 'the certificates\' as-of date (their latest lodgement; the build date when none is dated), against which `expired` is judged' }),
    source: SourceAsOfSchema,
  })
  .meta({ id: 'PropertyEpc' });
