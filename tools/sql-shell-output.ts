/**
 * How `npm run sql` (tools/sql-shell.ts) prints a result: an aligned table (capped, cells
 * cut), CSV or a JSON array (never capped), streamed chunk by chunk with back-pressure so a
 * huge result is never held whole.
 */
import type { Writable } from 'node:stream';
import {
  DuckDBArrayValue, DuckDBDecimalValue, DuckDBListValue, DuckDBMapValue, DuckDBStructValue,
  DuckDBTypeId, DuckDBUnionValue,
} from '@duckdb/node-api';
import type { DuckDBResult, DuckDBValue } from '@duckdb/node-api';

/** Table mode prints at most this many rows: a terminal is no place for a million. */
export const TABLE_ROW_CAP = 1000;
/** Longest cell shown in table mode; CSV and JSON print values whole. */
const TABLE_CELL_MAX = 80;

/** Writes respecting back-pressure, so streaming a huge result never buffers it all. */
export async function write(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await new Promise<void>((res) => out.once('drain', res));
}

// ---- value rendering ----

/** JSON-safe value: integers beyond 2^53 and wide decimals as strings, nested types as JSON. */
function jsonValue(v: DuckDBValue): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (v instanceof DuckDBListValue || v instanceof DuckDBArrayValue) return v.items.map(jsonValue);
  if (v instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, jsonValue(x)]));
  }
  if (v instanceof DuckDBMapValue) return v.entries.map((e) => ({ key: jsonValue(e.key), value: jsonValue(e.value) }));
  if (v instanceof DuckDBUnionValue) return jsonValue(v.value);
  // Up to 15 digits a double holds a decimal exactly (as text); wider ones stay strings.
  if (v instanceof DuckDBDecimalValue) return v.width <= 15 ? Number(v.toString()) : v.toString();
  return v.toString(); // dates, times, intervals, UUIDs, blobs: DuckDB's own text form
}

/** Text of a cell for table and CSV output (DuckDB's text form; null handled by callers). */
function cellText(v: DuckDBValue): string {
  return typeof v === 'string' ? v : String(v);
}

const NUMERIC = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT, DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT, DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.DECIMAL,
]);

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

// ---- printing results ----

/**
 * Rows of a streamed result, one chunk (about 2,048 rows) at a time. Reading each chunk by
 * column is about twice as fast as the row API, which matters for large CSV exports.
 */
async function* chunkRows(result: DuckDBResult): AsyncGenerator<DuckDBValue[][]> {
  for await (const chunk of result) {
    const cols = chunk.getColumns();
    const rows: DuckDBValue[][] = new Array(chunk.rowCount);
    for (let r = 0; r < chunk.rowCount; r++) rows[r] = cols.map((c) => c[r] as DuckDBValue);
    yield rows;
  }
}

export async function printTable(result: DuckDBResult, out: Writable): Promise<void> {
  const names = result.deduplicatedColumnNames();
  const right = names.map((_, i) => NUMERIC.has(result.columnTypeId(i)));
  const rows: string[][] = [];
  let more = false;
  outer: for await (const chunk of chunkRows(result)) {
    for (const row of chunk) {
      if (rows.length === TABLE_ROW_CAP) {
        more = true; // stop reading: the rest of the stream is never fetched
        break outer;
      }
      rows.push(row.map((v) => {
        const s = v === null ? 'NULL' : cellText(v).replace(/\r?\n/g, '\\n');
        return s.length > TABLE_CELL_MAX ? s.slice(0, TABLE_CELL_MAX - 1) + '…' : s;
      }));
    }
  }
  const widths = names.map((n, i) => Math.max(n.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: readonly string[], alignRight: boolean) =>
    cells.map((c, i) => (alignRight && right[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join(' | ').trimEnd() + '\n';
  let text = line(names, false) + widths.map((w) => '-'.repeat(w)).join('-+-') + '\n';
  for (const r of rows) text += line(r, true);
  text += more
    ? `(first ${TABLE_ROW_CAP.toLocaleString('en-GB')} rows shown; add a LIMIT, or use --csv or --json (.mode csv) for every row)\n`
    : `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})\n`;
  await write(out, text);
}

export async function printCsv(result: DuckDBResult, out: Writable): Promise<void> {
  await write(out, result.columnNames().map(csvField).join(',') + '\n');
  for await (const chunk of chunkRows(result)) {
    let text = '';
    for (const row of chunk) text += row.map((v) => (v === null ? '' : csvField(cellText(v)))).join(',') + '\n';
    await write(out, text);
  }
}

export async function printJson(result: DuckDBResult, out: Writable): Promise<void> {
  // Keys are encoded once; each row is joined by hand (faster than building an object).
  const keys = result.deduplicatedColumnNames().map((n) => JSON.stringify(n) + ':');
  let first = true;
  await write(out, '[');
  for await (const chunk of chunkRows(result)) {
    let text = '';
    for (const row of chunk) {
      const fields = row.map((v, i) => keys[i] + (JSON.stringify(jsonValue(v)) ?? 'null'));
      text += (first ? '\n{' : ',\n{') + fields.join(',') + '}';
      first = false;
    }
    await write(out, text);
  }
  await write(out, first ? ']\n' : '\n]\n');
}
