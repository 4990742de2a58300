import {
  ONS_RENTS_CATEGORIES,
  ONS_RENTS_HEADER,
  ONS_SUPPRESSED_MARKERS,
  OnsRentsRow,
  type OnsRentsCategoryLabel,
} from '../../../schemas/sources/rents.ts';
import { readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

/** Title rows a spreadsheet export may carry above the header before we give up looking. */
const MAX_PREAMBLE_ROWS = 20;

const SUPPRESSED = new Set<string>(ONS_SUPPRESSED_MARKERS);

/** A published cell as a plain number string: suppression markers → '', thousands commas and £ dropped. */
export function onsNumber(raw: string): string {
  const t = raw.trim();
  if (SUPPRESSED.has(t.toLowerCase())) return '';
  return /^£?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t) ? t.replace(/[£,]/g, '') : t.replace(/^£/, '');
}

/**
 * Streams ONS private rental market statistics in our CSV layout (ONS_RENTS_HEADER: the
 * published sheets stacked, with their bedroom category as a column; docs/sources/rents.md).
 * Title rows above the header are skipped; footnote rows below the table are rejected as
 * `not_data`; a row whose median is suppressed is rejected as `suppressed`.
 */
export async function* readOnsRents(path: string, rejects: RejectLog): AsyncGenerator<OnsRentsRow> {
  let col: Map<string, number> | undefined;
  let seen = 0;
  for await (const { fields, line } of readCsvRecords(path, rejects)) {
    const cells = fields.map((f) => f.trim());
    if (!col) {
      if (ONS_RENTS_HEADER.every((h) => cells.includes(h))) {
        col = new Map(ONS_RENTS_HEADER.map((h) => [h, cells.indexOf(h)]));
      } else if (++seen >= MAX_PREAMBLE_ROWS) {
        break;
      }
      continue;
    }
    if (cells.every((c) => c === '')) continue;
    if (cells.slice(1).every((c) => c === '')) {
      rejects.add('not_data', line, cells[0]);
      continue;
    }
    const get = (name: string) => cells[col!.get(name)!] ?? '';
    const label = get('Bedroom Category');
    const cat = Object.hasOwn(ONS_RENTS_CATEGORIES, label) ? ONS_RENTS_CATEGORIES[label as OnsRentsCategoryLabel] : undefined;
    if (!cat) {
      rejects.add('invalid:category', line, label);
      continue;
    }
    const median = get('Median');
    if (median === '' || SUPPRESSED.has(median.toLowerCase())) {
      rejects.add('suppressed', line, `${get('Area Code1')} ${label}`);
      continue;
    }
    const row = validateRow(
      OnsRentsRow,
      {
        la_code: get('LA Code1'),
        area_code: get('Area Code1'),
        area_name: get('Area'),
        category: cat.category,
        bedrooms: cat.bedrooms,
        count: onsNumber(get('Count of rents')),
        mean: onsNumber(get('Mean')),
        lower_quartile: onsNumber(get('Lower quartile')),
        median: onsNumber(median),
        upper_quartile: onsNumber(get('Upper quartile')),
      },
      rejects,
      line,
    );
    if (!row) continue;
    if ((row.lower_quartile ?? -Infinity) > row.median || (row.upper_quartile ?? Infinity) < row.median) {
      rejects.add('quartiles_out_of_order', line, `${row.area_code} ${label}`);
      continue;
    }
    yield row;
  }
  if (!col) throw new Error(`${path}: not an ONS private rents CSV (no ${ONS_RENTS_HEADER.join(',')} header in the first ${MAX_PREAMBLE_ROWS} rows)`);
}
