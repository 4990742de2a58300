import { z } from 'zod';
import { num, optNum, str } from './fields.ts';

/**
 * UK HPI full file (`UK-HPI-full-file-YYYY-MM.csv`) header, in published order: 54 columns.
 * Date is `DD/MM/YYYY` (always the 1st of the month); many cells are blank (series that
 * start late, e.g. Cash/Mortgage/FTB/FOO from 2005 or later, and the seasonally adjusted
 * columns that exist only for country and region rows).
 */
export const UKHPI_FULL_HEADER = [
  'Date', 'RegionName', 'AreaCode', 'AveragePrice', 'Index', 'IndexSA', '1m%Change', '12m%Change',
  'AveragePriceSA', 'SalesVolume',
  'DetachedPrice', 'DetachedIndex', 'Detached1m%Change', 'Detached12m%Change',
  'SemiDetachedPrice', 'SemiDetachedIndex', 'SemiDetached1m%Change', 'SemiDetached12m%Change',
  'TerracedPrice', 'TerracedIndex', 'Terraced1m%Change', 'Terraced12m%Change',
  'FlatPrice', 'FlatIndex', 'Flat1m%Change', 'Flat12m%Change',
  'CashPrice', 'CashIndex', 'Cash1m%Change', 'Cash12m%Change', 'CashSalesVolume',
  'MortgagePrice', 'MortgageIndex', 'Mortgage1m%Change', 'Mortgage12m%Change', 'MortgageSalesVolume',
  'FTBPrice', 'FTBIndex', 'FTB1m%Change', 'FTB12m%Change',
  'FOOPrice', 'FOOIndex', 'FOO1m%Change', 'FOO12m%Change',
  'NewPrice', 'NewIndex', 'New1m%Change', 'New12m%Change', 'NewSalesVolume',
  'OldPrice', 'OldIndex', 'Old1m%Change', 'Old12m%Change', 'OldSalesVolume',
] as const;

/**
 * UKHPI app download (`landregistry.data.gov.uk/app/ukhpi`, CSV): 27 columns, every header
 * quoted, Period `YYYY-MM`, percentage columns blank where the series has no prior month/year.
 */
export const UKHPI_APP_HEADER = [
  'Name', 'URI', 'Region GSS code', 'Period', 'Sales volume', 'Reporting period',
  'House price index All property types', 'Average price All property types',
  'Percentage change (monthly) All property types', 'Percentage change (yearly) All property types',
  'House price index Detached houses', 'Average price Detached houses',
  'Percentage change (monthly) Detached houses', 'Percentage change (yearly) Detached houses',
  'House price index Semi-detached houses', 'Average price Semi-detached houses',
  'Percentage change (monthly) Semi-detached houses', 'Percentage change (yearly) Semi-detached houses',
  'House price index Terraced houses', 'Average price Terraced houses',
  'Percentage change (monthly) Terraced houses', 'Percentage change (yearly) Terraced houses',
  'House price index Flats and maisonettes', 'Average price Flats and maisonettes',
  'Percentage change (monthly) Flats and maisonettes', 'Percentage change (yearly) Flats and maisonettes',
  'Pivotable date',
] as const;

const price = () => optNum().pipe(z.number().positive().optional());
const index = () => optNum().pipe(z.number().positive().optional());

/**
 * One month of the index for one area, from either layout. Property-type prices and
 * indexes are flat columns (Parquet-friendly) and undefined where the source is blank.
 */
export const UkHpiRow = z.object({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'expected YYYY-MM'),
  region_name: str(),
  area_code: z.string().regex(/^[EKNSW]\d{8}$/, 'expected a GSS code'),
  average_price: num().pipe(z.number().positive()),
  index: num().pipe(z.number().positive()),
  change_1m_pct: optNum(),
  change_12m_pct: optNum(),
  sales_volume: optNum().pipe(z.number().int().nonnegative().optional()),
  detached_price: price(),
  detached_index: index(),
  semi_detached_price: price(),
  semi_detached_index: index(),
  terraced_price: price(),
  terraced_index: index(),
  flat_price: price(),
  flat_index: index(),
});
export type UkHpiRow = z.infer<typeof UkHpiRow>;
