import { UkHpiRow } from '../../../schemas/sources/ukhpi.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Source column for each row field, per layout. Both layouts map into the same row. */
const FULL = {
  month: 'Date', region_name: 'RegionName', area_code: 'AreaCode',
  average_price: 'AveragePrice', index: 'Index',
  change_1m_pct: '1m%Change', change_12m_pct: '12m%Change', sales_volume: 'SalesVolume',
  detached_price: 'DetachedPrice', detached_index: 'DetachedIndex',
  semi_detached_price: 'SemiDetachedPrice', semi_detached_index: 'SemiDetachedIndex',
  terraced_price: 'TerracedPrice', terraced_index: 'TerracedIndex',
  flat_price: 'FlatPrice', flat_index: 'FlatIndex',
} as const;

const APP = {
  month: 'Period', region_name: 'Name', area_code: 'Region GSS code',
  average_price: 'Average price All property types', index: 'House price index All property types',
  change_1m_pct: 'Percentage change (monthly) All property types',
  change_12m_pct: 'Percentage change (yearly) All property types',
  sales_volume: 'Sales volume',
  detached_price: 'Average price Detached houses', detached_index: 'House price index Detached houses',
  semi_detached_price: 'Average price Semi-detached houses',
  semi_detached_index: 'House price index Semi-detached houses',
  terraced_price: 'Average price Terraced houses', terraced_index: 'House price index Terraced houses',
  flat_price: 'Average price Flats and maisonettes', flat_index: 'House price index Flats and maisonettes',
} as const;

type Layout = Record<keyof typeof FULL, string>;

/**
 * `DD/MM/YYYY` (full file) or `YYYY-MM-DD` / `YYYY-MM` (app download) → `YYYY-MM`.
 * Anything else is returned unchanged so the schema rejects it as `invalid:month`.
 */
export function hpiMonth(raw: string): string {
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(raw);
  if (dmy) return `${dmy[3]}-${dmy[2]!.padStart(2, '0')}`;
  const iso = /^(\d{4})-(\d{2})(?:-\d{2})?$/.exec(raw);
  return iso ? `${iso[1]}-${iso[2]}` : raw;
}

/**
 * Streams the UK HPI full file (`UK-HPI-full-file-YYYY-MM.csv`, 54 columns) or a UKHPI app
 * download (27 columns, quoted header); the layout is recognised from the header.
 */
export async function* readUkHpi(path: string, rejects: RejectLog): AsyncGenerator<UkHpiRow> {
  let col: Map<string, number> | undefined;
  let layout: Layout | undefined;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    if (!col) {
      col = headerIndex(fields).index;
      layout = [FULL, APP].find((l) => Object.values(l).every((name) => col!.has(name)));
      if (!layout) {
        throw new Error(`${path}: not a UK HPI full file or UKHPI app download (header: ${fields.slice(0, 5).join(',')}…)`);
      }
      continue;
    }
    const candidate: Record<string, string> = {};
    for (const [field, name] of Object.entries(layout!)) {
      candidate[field] = fields[col.get(name)!]?.trim() ?? '';
    }
    candidate.month = hpiMonth(candidate.month ?? '');
    const row = validateRow(UkHpiRow, candidate, rejects, line);
    if (row) yield row;
  }
}
