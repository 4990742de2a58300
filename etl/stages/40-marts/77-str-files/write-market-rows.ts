import { join } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import type { BuildContext } from '../../../pipeline/context.ts';
import { queryRows, streamSorted } from '../../../pipeline/sql.ts';
import { KeyedRowsWriter, type Value } from '../../../../lib/files/keyed-rows-file.ts';
import { lookupSql } from '../../../../lib/files/lookup-tables-format.ts';
import { STR_HISTORY_MONTHS, STR_MARKET_ROWS_FILE, type StrMarketRowsExtra } from '../../../../lib/files/str-market-file.ts';

const M = STR_HISTORY_MONTHS;

/**
 * Writes the market set's rows file (lib/files/str-market-file.ts) from str_market_file_rows:
 * each listing's fields as the query gives them, merged by listing row with its months
 * (str_market_months) and prior year (str_market_prior), the queries the in-heap set loads, each query read in rn
 * order by way of a table (`streamSorted`: a streamed sort does not always spill); its months laid out as the in-heap set lays
 * them (service/str/market-set.ts: right-aligned on its last month, the prior year's slot k
 * being month end − 35 + k, a missing value 0). Amenity columns are the build's own (`has_*`),
 * so they are kept as one text column and their keys in the meta.
 */
export async function writeStrMarketRows(ctx: BuildContext): Promise<{ rows: number; bytes: number }> {
  const t0 = performance.now();
  const spec = STR_MARKET_ROWS_FILE;
  const path = join(ctx.buildDir, spec.file);
  const cols = spec.columns.map((c) => c.name);
  const at = (name: string) => cols.indexOf(name);
  const [mAt, pAt, endAt, amenAt] = [at('m0'), at('p0'), at('end_month'), at('amenities')];
  const plain = cols.slice(0, amenAt);
  // The meta (amenity keys, unplaced count, countries) is fixed when the writer opens.
  const chunks = streamSorted(ctx.db, ctx.conn, `sorted_${spec.query}`, lookupSql(spec.query));
  const first = await chunks.next();
  const names = first.done ? [] : first.value.names;
  const amenityKeys = names.filter((n) => n.startsWith('has_')).map((n) => n.slice(4)).sort();
  const bad = amenityKeys.find((k) => k.includes(','));
  if (bad !== undefined) throw new Error(`str_market_file_rows: amenity ${bad} has a comma (the rows file joins them with commas)`);
  const [meta] = await queryRows(ctx.conn, lookupSql('str_market_meta'));
  const extra: StrMarketRowsExtra = { amenityKeys, unplaced: Number(meta!.unplaced), countries: (meta!.countries as string[]).map(String) };
  const writer = new KeyedRowsWriter(path, { key: spec.key, columns: [...spec.columns], unique: true, extra: { ...extra } });
  let done: { rows: number; bytes: number };
  try {
    if (!first.done) {
      const need = ['rn', ...plain];
      const missing = need.filter((n) => !names.includes(n));
      if (missing.length) throw new Error(`str_market_file_rows: no column ${missing.join(', ')}`);
      const idx = (n: string) => names.indexOf(n);
      const plainIdx = plain.map(idx);
      const amenIdx = amenityKeys.map((k) => idx(`has_${k}`));
      const rnI = idx('rn');
      const months = new RowsByRn(ctx, 'str_market_months', ['rn', 'mi', 'live', 'available', 'booked', 'revenue']);
      const prior = new RowsByRn(ctx, 'str_market_prior', ['rn', 'mi', 'live', 'revenue']);
      const values: Value[] = new Array<Value>(cols.length);
      const write = async (chunk: { getColumns(): (readonly DuckDBValue[])[]; rowCount: number }) => {
        const c = chunk.getColumns();
        for (let i = 0; i < chunk.rowCount; i++) {
          const rn = c[rnI]![i] as number;
          for (let k = 0; k < plain.length; k++) values[k] = c[plainIdx[k]!]![i] as Value;
          values[amenAt] = amenityKeys.filter((_, a) => c[amenIdx[a]!]![i] === true).join(',');
          // Its months, in month order: [rn, mi, live, available, booked, revenue].
          const ms = await months.of(rn);
          const end = ms.length > 0 ? (ms[ms.length - 1]![1] as number) : -1;
          values[endAt] = end;
          for (let q = 0; q < M * 4 + 24; q++) values[mAt + q] = 0;
          // Backwards, as the in-heap set reads them: of two rows of one month, the first wins.
          for (let r = ms.length - 1; r >= 0; r--) {
            const [, mi, live, av, bk, rv] = ms[r]!;
            const j = M - 1 - (end - (mi as number));
            if (j < 0) continue;
            values[mAt + j * 4] = live ? 1 : 0;
            values[mAt + j * 4 + 1] = (av as number | null) || 0;
            values[mAt + j * 4 + 2] = (bk as number | null) || 0;
            values[mAt + j * 4 + 3] = (rv as number | null) || 0;
          }
          const ps = await prior.of(rn);
          for (let r = 0; end >= 0 && r < ps.length; r++) {
            const [, mi, live, rv] = ps[r]!;
            const k = (mi as number) - (end - M - 11);
            if (k < 0 || k >= 12) continue;
            values[pAt + k * 2] = live ? 1 : 0;
            values[pAt + k * 2 + 1] = (rv as number | null) || 0;
          }
          writer.add(rn, values);
        }
      };
      try {
        await write(first.value.chunk);
        for await (const { chunk } of chunks) await write(chunk);
        await months.expectDone();
        await prior.expectDone();
      } finally {
        await months.close();
        await prior.close();
      }
    }
    done = writer.finish();
  } catch (e) {
    writer.discard();
    await chunks.return(undefined);
    throw e;
  }
  ctx.artifacts[spec.artifact] = { file: spec.file, description: 'the STR market set by listing row, months laid out (format: lib/files/keyed-rows-file.ts; columns: lib/files/str-market-file.ts)' };
  ctx.log.info({ stage: 'str-files', file: spec.file, rows: done.rows, bytes: done.bytes, ms: Math.round(performance.now() - t0) }, 'STR market rows written');
  return done;
}

/** A DuckDB list's items (none for a null list: a listing without months). */
/**
 * A query's rows ordered by listing row (its first column, `rn`), read as the listings are:
 * `of(rn)` gives rn's rows (none when it has none) and passes over the rows of lower rns, which
 * no listing asked for (a month of a listing not in the set cannot be: the query joins them).
 */
class RowsByRn {
  private readonly chunks: ReturnType<typeof streamSorted>;
  private cols: (readonly DuckDBValue[])[] = [];
  private n = 0;
  private i = 0;
  private ended = false;

  constructor(ctx: BuildContext, private readonly query: string, private readonly want: readonly string[]) {
    // Its table is made on the build's connection at the first read (the listings' is made by then).
    this.chunks = streamSorted(ctx.db, ctx.conn, `sorted_${query}`, lookupSql(query));
  }

  async of(rn: number): Promise<DuckDBValue[][]> {
    const out: DuckDBValue[][] = [];
    for (;;) {
      if (this.i >= this.n && !(await this.next())) return out;
      const at = this.cols[0]![this.i] as number;
      if (at > rn) return out;
      if (at === rn) out.push(this.cols.map((c) => c[this.i]!));
      this.i++;
    }
  }

  /** Every row was some listing's: a row past the last listing is an error, not a loss. */
  async expectDone(): Promise<void> {
    if (this.i < this.n || (await this.next())) throw new Error(`${this.query}: a row of listing row ${String(this.cols[0]![this.i])} past the last listing`);
  }

  async close(): Promise<void> {
    await this.chunks.return(undefined);
  }

  private async next(): Promise<boolean> {
    if (this.ended) return false;
    const r = await this.chunks.next();
    if (r.done) {
      this.ended = true;
      return false;
    }
    if (r.value.names.join() !== this.want.join()) throw new Error(`${this.query}: columns ${r.value.names.join(', ')}, not ${this.want.join(', ')}`);
    this.cols = r.value.chunk.getColumns();
    [this.n, this.i] = [r.value.chunk.rowCount, 0];
    return this.n > 0 || this.next();
  }
}
