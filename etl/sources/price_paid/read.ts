import { Transform, type Readable } from 'node:stream';
import { PPD_COLUMNS, PPD_REPORT_BUILDER_HEADER, PricePaidRow } from '../../../schemas/sources/price-paid.ts';
import { headerIndex, readCsvRecords } from '../csv.ts';
import type { RejectLog } from '../rejects.ts';
import { validateRow } from '../validate.ts';

export const GUID_CELL = /^\{?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?$/;
const REPORT_HEADER_TEXT = PPD_REPORT_BUILDER_HEADER.join(',');
/** Longest first line we buffer while looking for a glued header; real first lines are < 1 KB. */
const HEAD_LIMIT = 1 << 16;

/**
 * Streams HM Land Registry Price Paid Data in any published layout, detected from the
 * first record: the headerless 16-column bulk CSV (full or minimal quoting, `{GUID}` ids,
 * `YYYY-MM-DD 00:00` dates, monthly record status A/C/D) or the report-builder CSV
 * (header row, SAON before PAON, no record status: every row is 'A').
 */
export async function* readPricePaid(path: string, rejects: RejectLog): AsyncGenerator<PricePaidRow> {
  let layout: 'bulk' | 'report' | undefined;
  let col = new Map<string, number>();
  let width: number = PPD_COLUMNS.length;
  // relax_quotes: appd-test.csv has an unquoted field with doubled quotes (`KESWICK "" CLOSE`).
  const csv = readCsvRecords(path, rejects, { transform: repairGluedHeader, parser: { relax_quotes: true } });
  for await (const { fields: raw, line } of csv) {
    const fields = raw.map(undoubleQuotes);
    if (!layout) {
      const first = fields[0]?.trim() ?? '';
      if (first.toLowerCase() === 'unique_id') {
        layout = 'report';
        col = headerIndex(fields.map((f) => f.trim().toLowerCase())).index;
        for (const need of PPD_REPORT_BUILDER_HEADER.slice(0, 15)) {
          if (!col.has(need)) throw new Error(`${path}: Price Paid report-builder header has no ${need} column`);
        }
        width = fields.length;
        continue;
      }
      if (fields.length === PPD_COLUMNS.length && first.toLowerCase() === PPD_COLUMNS[0]) {
        layout = 'bulk'; // not published with a header, but tolerate one naming PPD_COLUMNS
        continue;
      }
      if (fields.length === PPD_COLUMNS.length && GUID_CELL.test(first)) layout = 'bulk';
      else throw new Error(`${path}: not a Price Paid file (first record is neither the report-builder header nor a 16-column bulk row)`);
    }
    if (fields.length !== width) {
      rejects.add('wrong_column_count', line, `${fields.length} fields, expected ${width}`);
      continue;
    }
    const candidate = layout === 'bulk' ? fromBulk(fields) : fromReport(fields, col);
    const row = validateRow(PricePaidRow, candidate, rejects, line);
    if (row) yield row;
  }
}

/**
 * A `""` left in a parsed cell came from an unquoted field whose writer still doubled the
 * quote; the fully quoted original means one `"`.
 */
function undoubleQuotes(cell: string): string {
  return cell.includes('""') ? cell.replace(/""/g, '"') : cell;
}

/** Bulk column order: see PPD_COLUMNS. */
function fromBulk(f: string[]): Record<string, string | undefined> {
  return {
    transaction_id: f[0], price: f[1], date: f[2], postcode: f[3], property_type: f[4]?.trim(),
    new_build: f[5]?.trim(), tenure: f[6]?.trim(), paon: f[7], saon: f[8], street: f[9], locality: f[10],
    town: f[11], district: f[12], county: f[13], category: f[14]?.trim(), record_status: f[15]?.trim(),
  };
}

/** Report-builder columns by name; it has no record status, so every row is an addition. */
function fromReport(f: string[], col: Map<string, number>): Record<string, string | undefined> {
  const get = (name: string) => f[col.get(name)!];
  return {
    transaction_id: get('unique_id'), price: get('price_paid'), date: get('deed_date'), postcode: get('postcode'),
    property_type: get('property_type')?.trim(), new_build: get('new_build')?.trim(), tenure: get('estate_type')?.trim(),
    paon: get('paon'), saon: get('saon'), street: get('street'), locality: get('locality'), town: get('town'),
    district: get('district'), county: get('county'), category: get('transaction_category')?.trim(), record_status: 'A',
  };
}

/**
 * Some published report-builder files have the header with no line break after it, so the
 * first record is glued on (`…,linked_data_uri"DBA933F9-…",…`) and a CSV parser refuses the
 * line. Buffer up to the first line break; if the text starts with the header and the next
 * byte is not a line break, insert the file's own line ending there. Anything else passes
 * through untouched.
 */
function repairGluedHeader(input: Readable): Readable {
  let head: Buffer | undefined = Buffer.alloc(0);
  const out = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      if (head === undefined) return cb(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.indexOf(0x0a) < 0 && head.length < HEAD_LIMIT) return cb();
      const fixed = unglue(head);
      head = undefined;
      cb(null, fixed);
    },
    flush(cb) {
      if (head !== undefined && head.length > 0) cb(null, unglue(head));
      else cb();
    },
  });
  input.on('error', (e) => out.destroy(e));
  return input.pipe(out);
}

function unglue(buf: Buffer): Buffer {
  const start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  const end = start + REPORT_HEADER_TEXT.length;
  if (buf.length <= end) return buf;
  if (buf.subarray(start, end).toString('latin1').toLowerCase() !== REPORT_HEADER_TEXT) return buf;
  const next = buf[end];
  if (next === 0x0a || next === 0x0d || next === 0x2c) return buf;
  const nl = buf.indexOf(0x0a);
  const eol = nl > 0 && buf[nl - 1] === 0x0d ? '\r\n' : '\n';
  return Buffer.concat([buf.subarray(0, end), Buffer.from(eol), buf.subarray(end)]);
}
