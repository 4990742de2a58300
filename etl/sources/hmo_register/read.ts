import { HMO_STOREYS_COLUMN, HmoRegisterRow } from '../../../schemas/sources/hmo-register.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

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

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `dd-Mon-yy` (Sheffield's `17-Nov-23`) → `YYYY-MM-DD` in 2000–2099 (licences run five years,
 * so a two-digit year is this century); blank → undefined; anything else unchanged for the
 * schema to reject.
 */
export function ukShortDate(raw: string): string | undefined {
  if (raw === '') return undefined;
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{2})$/.exec(raw);
  const mo = m ? MONTHS.indexOf(m[2]![0]!.toUpperCase() + m[2]!.slice(1).toLowerCase()) + 1 : 0;
  if (!m || mo === 0) return raw;
  return ukDate(`${m[1]}/${mo}/20${m[3]}`);
}

/** How one council lays its register out: which header it has and how a record reads. */
interface Layout {
  /** Whether a header row is this layout's. */
  matches(header: readonly string[]): boolean;
  /** Columns that must be present (by name), for the error on a file that is not a register. */
  required(header: readonly string[]): string[];
  row(get: (name: string) => string, at: (i: number) => string): Record<string, unknown>;
}

/**
 * Oxford City Council (`hmo-simplified-register.csv`, with `Location`; its temporary-exemptions
 * register has `Address`): free-text address ending in a postcode, dates `dd/mm/yyyy`; a
 * `Number of Storeys` column is read where a register adds one. Columns are read by name, so
 * any other column (a licence holder's or manager's name) is never read.
 */
const OXFORD: Layout = {
  matches: () => true,
  required: (h) => ['Case Number', h.includes('Location') ? 'Location' : 'Address', 'Total Number Occupants', 'Total Number Units', 'Licence Commenced', 'Licence Expires'],
  row(get) {
    const address = (get('Location') || get('Address')).replace(/\s+/g, ' ');
    return {
      case_number: get('Case Number'),
      address,
      postcode: trailingPostcode(address),
      occupants: get('Total Number Occupants'),
      units: get('Total Number Units'),
      storeys: get(HMO_STOREYS_COLUMN) || undefined,
      licence_start: ukDate(get('Licence Commenced')),
      licence_end: ukDate(get('Licence Expires')),
    };
  },
};

/**
 * Sheffield City Council's public register: `,Full Address,,Postcode,Permitted Occupants,…`
 * with two unnamed columns, so read by position: sub-address (space-padded to 32, often
 * blank), house number, street, postcode, occupants, issue and expiry dates `dd-Mon-yy`,
 * licence number. No unit count.
 */
const SHEFFIELD: Layout = {
  matches: (h) => h[1] === 'Full Address' && h[7] === 'Licence number',
  required: () => [],
  row(_get, at) {
    const building = [at(1), at(2)].filter(Boolean).join(' ');
    const postcode = normalisedPostcode(at(3));
    return {
      case_number: at(7),
      address: [at(0), building, at(3)].filter(Boolean).join(', ').replace(/\s+/g, ' '),
      postcode,
      // 7 licences of 2025-10 say 0 permitted occupants: not recorded, not a licence for nobody.
      occupants: at(4) === '0' ? undefined : at(4),
      licence_start: ukShortDate(at(5)),
      licence_end: ukShortDate(at(6)),
    };
  },
};

/** A postcode column's value as `OUT IN`; a malformed one is passed on for the schema to reject. */
function normalisedPostcode(raw: string): string | undefined {
  if (raw === '') return undefined;
  return trailingPostcode(raw) ?? raw;
}

/**
 * Streams a council HMO licence register in any layout above (chosen by its header). Line
 * endings may be CR only (Oxford); csv-parse detects that. Fields are trimmed (Sheffield pads).
 */
export async function* readHmoRegister(path: string, rejects: RejectLog): AsyncGenerator<HmoRegisterRow> {
  let col: Map<string, number> | undefined;
  let layout: Layout = OXFORD;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      const header = fields.map((f) => f.trim());
      col = headerIndex(header).index;
      layout = [SHEFFIELD, OXFORD].find((l) => l.matches(header))!;
      for (const need of layout.required(header)) {
        if (!col.has(need)) throw new Error(`${path}: not an HMO licence register (no ${need} column)`);
      }
      continue;
    }
    const at = (i: number) => fields[i]?.trim() ?? '';
    const get = (name: string) => (col!.has(name) ? at(col!.get(name)!) : '');
    const row = validateRow(HmoRegisterRow, layout.row(get, at), rejects, line);
    if (row) yield row;
  }
}
