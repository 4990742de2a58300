import { HmoRegisterRow } from '../../schemas/sources/hmo-register.ts';
import { headerIndex, readCsvRecords } from './csv.ts';
import type { RejectLog } from './rejects.ts';
import { validateRow } from './validate.ts';

/** A UK postcode at the very end of a free-text address, space optional, any case. */
const TRAILING_POSTCODE = /(?:^|[\s,])([A-Z]{1,2}\d[A-Z\d]?)\s*(\d[A-Z]{2})[\s.,]*$/i;

/** The postcode an address ends with, normalised to upper case `OUT IN`; undefined if none. */
export function trailingPostcode(address: string): string | undefined {
  const m = TRAILING_POSTCODE.exec(address);
  return m ? `${m[1]!.toUpperCase()} ${m[2]!.toUpperCase()}` : undefined;
}

/**
 * `dd/mm/yyyy` → `YYYY-MM-DD` when it is a real calendar date; blank → undefined; anything
 * else is returned unchanged so the schema rejects it (`invalid:licence_start` and so on).
 * Plausibility (a year 3017, an end before the start: both in Oxford's register) is not
 * judged here: the row is kept as published and the marts decide what is current.
 */
export function ukDate(raw: string): string | undefined {
  if (raw === '') return undefined;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  if (!m) return raw;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return raw;
  return `${m[3]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * Streams a council HMO licence register (Oxford's `hmo-simplified-register.csv`, with
 * `Location`) or its temporary-exemptions register (same columns, `Address`). Line endings
 * may be CR only; csv-parse detects that.
 */
export async function* readHmoRegister(path: string, rejects: RejectLog): AsyncGenerator<HmoRegisterRow> {
  let col: Map<string, number> | undefined;
  let addressCol = 'Location';
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields).index;
      addressCol = col.has('Location') ? 'Location' : 'Address';
      for (const need of ['Case Number', addressCol, 'Total Number Occupants', 'Total Number Units', 'Licence Commenced', 'Licence Expires']) {
        if (!col.has(need)) throw new Error(`${path}: not an HMO licence register (no ${need} column)`);
      }
      continue;
    }
    const get = (name: string) => fields[col!.get(name)!]?.trim() ?? '';
    const address = get(addressCol).replace(/\s+/g, ' ');
    const row = validateRow(
      HmoRegisterRow,
      {
        case_number: get('Case Number'),
        address,
        postcode: trailingPostcode(address),
        occupants: get('Total Number Occupants'),
        units: get('Total Number Units'),
        licence_start: ukDate(get('Licence Commenced')),
        licence_end: ukDate(get('Licence Expires')),
      },
      rejects,
      line,
    );
    if (row) yield row;
  }
}
