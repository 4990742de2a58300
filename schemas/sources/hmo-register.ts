import { z } from 'zod';
import { isoDate, optNum, str } from './fields.ts';

/**
 * Council HMO licence register CSV header, as Oxford City Council publishes it
 * (`hmo-simplified-register.csv`): dates `dd/mm/yyyy`, Location is free text ending in a postcode.
 */
export const HMO_REGISTER_HEADER = [
  'Case Number', 'Location', 'Total Number Occupants', 'Total Number Units',
  'Licence Commenced', 'Licence Expires',
] as const;

/** The temporary-exemptions register: the same columns with `Address` for `Location`. */
export const HMO_EXEMPTIONS_HEADER = [
  'Case Number', 'Address', 'Total Number Occupants', 'Total Number Units',
  'Licence Commenced', 'Licence Expires',
] as const;

/**
 * The storeys column some councils add to the same layout (Oxford's register has none; the
 * synthetic region's register carries it). Read by name, so its position does not matter.
 */
export const HMO_STOREYS_COLUMN = 'Number of Storeys';

/**
 * One licence (or exemption). Postcode is extracted from the end of the address, normalised.
 * `units` is the register's unit count, i.e. the households the licence allows. No column
 * naming a licence holder or manager is read (personal data): a register that has one keeps
 * it in the file.
 */
export const HmoRegisterRow = z.object({
  case_number: str(),
  address: str(),
  postcode: z.string().regex(/^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/).optional(),
  occupants: optNum().pipe(z.number().int().positive().optional()),
  units: optNum().pipe(z.number().int().positive().optional()),
  storeys: optNum().pipe(z.number().int().positive().max(20).optional()),
  licence_start: isoDate().optional(),
  licence_end: isoDate().optional(),
});
export type HmoRegisterRow = z.infer<typeof HmoRegisterRow>;
