import { join } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import type { BuildContext } from '../../pipeline/context.ts';
import { windowEnd } from '../../pipeline/source-as-of.ts';
import { streamSorted } from '../../pipeline/sql.ts';
import { KeyedRowsWriter, type Value, type ValueKind } from '../../../lib/files/keyed-rows-file.ts';
import { isAsciiKey, lookupSql, type LookupFileSpec } from '../../../lib/files/lookup-tables-format.ts';
import { cellKeyOf } from '../../../lib/geo/grid-cells.ts';

/**
 * Writes one of the lookup tables as its keyed-rows file (lib/files/lookup-tables-format.ts):
 * runs the statements that make the tables its query reads, streams the query (sorted by key
 * in SQL, by way of a table: `streamSorted`) a chunk at a time into the writer, which holds one
 * page, then runs the statements that drop them. A row without a key is left out, as the service's in-heap table leaves it.
 * `extra` is kept in the file's meta beside the rows (a build-wide figure the reader needs).
 */
export async function writeLookupFile(ctx: BuildContext, spec: LookupFileSpec, extra: Record<string, unknown> = {}): Promise<{ rows: number; bytes: number }> {
  const t0 = performance.now();
  const path = join(ctx.buildDir, spec.file);
  // The area counts' window ends where the service's fallback ends it (windowEndDate): one date for both.
  const bind = spec.windowEnd ? [windowEnd(ctx.sources, spec.windowEnd, ctx.today).date] : undefined;
  for (const s of spec.before) await ctx.conn.run(lookupSql(s), bind);
  const summary = spec.summary ? await summaryOf(ctx, spec.summary) : undefined;
  const meta = { ...extra, ...(spec.cell ? { cell: spec.cell } : {}), ...(summary ? { summary } : {}) };
  const writer = new KeyedRowsWriter(path, { key: spec.key, columns: [...spec.columns], unique: spec.unique, ...(Object.keys(meta).length > 0 ? { extra: meta } : {}) });
  const cellCheck = spec.cell ? cellChecker(spec) : null;
  let done: { rows: number; bytes: number };
  let skipped = 0;
  try {
    const want = [spec.key.name, ...spec.columns.map((c) => c.name)];
    const kinds = spec.columns.map((c) => c.kind);
    const values: Value[] = new Array<Value>(kinds.length);
    for await (const { chunk, names } of streamSorted(ctx.db, ctx.conn, `sorted_${spec.artifact}`, lookupSql(spec.query))) {
      if (names.join() !== want.join()) throw new Error(`${spec.query}: columns ${names.join(', ')}, not ${want.join(', ')} (lib/files/lookup-tables-format.ts)`);
      const cols = chunk.getColumns();
      for (let i = 0; i < chunk.rowCount; i++) {
        const key = keyOf(spec, cols[0]![i]!);
        if (key === null) {
          skipped++;
          continue;
        }
        for (let c = 0; c < kinds.length; c++) values[c] = valueOf(spec, c, kinds[c]!, cols[c + 1]![i]!);
        cellCheck?.(key as number, values);
        writer.add(key, values);
      }
    }
    done = writer.finish();
  } catch (e) {
    writer.discard();
    throw e;
  }
  for (const s of spec.after) await ctx.conn.run(lookupSql(s));
  ctx.artifacts[spec.artifact] = { file: spec.file, description: `${spec.query} by ${spec.key.name} (format: lib/files/keyed-rows-file.ts; columns: lib/files/lookup-tables-format.ts)` };
  ctx.log.info({ stage: 'lookup-tables', file: spec.file, rows: done.rows, skipped_without_key: skipped, bytes: done.bytes, ms: Math.round(performance.now() - t0) }, 'lookup file written');
  return { rows: done.rows, bytes: done.bytes };
}

/** The one row of a summary query, its values as JSON holds them (a bigint as a number). */
async function summaryOf(ctx: BuildContext, query: string): Promise<Record<string, unknown>> {
  const rows = (await ctx.conn.runAndReadAll(lookupSql(query))).getRowObjectsJS();
  if (rows.length !== 1) throw new Error(`${query}: ${rows.length} rows, not one`);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}

/**
 * For a file keyed by grid cell: a check that a row's key is the cell JavaScript puts its point
 * in (DuckDB sorted by its own reckoning; the reader computes cells in JavaScript).
 */
function cellChecker(spec: LookupFileSpec): (key: number, values: readonly Value[]) => void {
  const { m, lat, lng } = spec.cell!;
  const [li, gi] = [lat, lng].map((n) => spec.columns.findIndex((c) => c.name === n));
  if (li! < 0 || gi! < 0) throw new Error(`${spec.query}: its cell columns ${lat}, ${lng} are not among its columns`);
  return (key, values) => {
    const [a, b] = [values[li!], values[gi!]];
    if (typeof a !== 'number' || typeof b !== 'number' || cellKeyOf(a, b, m) !== key) {
      throw new Error(`${spec.query}: DuckDB put (${String(a)}, ${String(b)}) in cell ${key}, JavaScript in ${typeof a === 'number' && typeof b === 'number' ? cellKeyOf(a, b, m) : 'none'}`);
    }
  };
}

/** A row's key, or null where it has none; a text key outside ASCII is an error (DuckDB's order would not be JavaScript's). */
function keyOf(spec: LookupFileSpec, v: DuckDBValue): number | string | null {
  if (v === null) return null;
  if (spec.key.kind === 'num') {
    const n = typeof v === 'bigint' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`${spec.query}: key ${spec.key.name} ${String(v)} is not a number`);
    return n;
  }
  if (typeof v !== 'string') throw new Error(`${spec.query}: key ${spec.key.name} ${String(v)} is not text`);
  if (!isAsciiKey(v)) throw new Error(`${spec.query}: key ${spec.key.name} ${JSON.stringify(v)} is not ASCII: the keyed-rows file needs DuckDB's sort order to be JavaScript's, which holds for ASCII keys only`);
  return v;
}

/** A value as the file stores it (`kind`), from DuckDB's JS value; anything else is an error naming the column. */
function valueOf(spec: LookupFileSpec, c: number, kind: ValueKind, v: DuckDBValue): Value {
  if (v === null) return null;
  const ok = kind === 'num' || kind === 'small' ? typeof v === 'number' || (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER))
    : kind === 'bool' ? typeof v === 'boolean' : typeof v === 'string';
  if (!ok) throw new Error(`${spec.query}: column ${spec.columns[c]!.name} has ${typeof v} ${String(v)}, not ${kind}`);
  return typeof v === 'bigint' ? Number(v) : (v as Value);
}
