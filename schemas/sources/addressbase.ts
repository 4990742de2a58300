import { z } from 'zod';
import { blank, optStr, postcode } from './fields.ts';

/** AddressBase Core CSV header as published by Ordnance Survey (upper case, this order). */
export const ADDRESSBASE_CORE_HEADER = [
  'UPRN',
  'PARENT_UPRN',
  'UDPRN',
  'USRN',
  'TOID',
  'CLASSIFICATION_CODE',
  'EASTING',
  'NORTHING',
  'LATITUDE',
  'LONGITUDE',
  'RPC',
  'LAST_UPDATE_DATE',
  'SINGLE_LINE_ADDRESS',
  'PO_BOX',
  'ORGANISATION',
  'SUB_BUILDING',
  'BUILDING_NAME',
  'BUILDING_NUMBER',
  'STREET_NAME',
  'LOCALITY',
  'TOWN_NAME',
  'POST_TOWN',
  'ISLAND',
  'POSTCODE',
  'DELIVERY_POINT_SUFFIX',
  'GSS_CODE',
  'CHANGE_CODE',
] as const;

/** A required number from a CSV cell; blank fails instead of becoming 0. */
const cellNum = () => z.preprocess((v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v), z.number());
const uprn = () => z.number().int().positive().max(999_999_999_999);

/** One AddressBase Core record: the canonical address and location of a UPRN. */
export const AddressBaseRow = z.object({
  uprn: cellNum().pipe(uprn()),
  parent_uprn: z.preprocess(
    (v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    uprn().optional(),
  ),
  classification_code: z.string().trim().min(1),
  easting: cellNum().pipe(z.number().min(0).max(700_000)),
  northing: cellNum().pipe(z.number().min(0).max(1_300_000)),
  lat: cellNum().pipe(z.number().min(49).max(61)),
  lng: cellNum().pipe(z.number().min(-9).max(2.5)),
  single_line_address: z.string().trim().min(1),
  organisation: optStr(),
  sub_building: optStr(),
  building_name: optStr(),
  building_number: optStr(),
  street_name: optStr(),
  locality: optStr(),
  town_name: optStr(),
  post_town: optStr(),
  postcode: postcode(),
  gss_code: optStr(),
  /** I insert, U update, D delete (change-only supplies); blank in a full supply. */
  change_code: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(['I', 'U', 'D']).optional()),
});
export type AddressBaseRow = z.infer<typeof AddressBaseRow>;
