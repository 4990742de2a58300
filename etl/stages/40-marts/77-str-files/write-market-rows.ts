import { join } from 'node:path';
import { DuckDBListValue, type DuckDBValue } from '@duckdb/node-api';
import type { BuildContext } from '../../../pipeline/context.ts';
import { queryRows, streamChunks } from '../../../pipeline/sql.ts';
import { KeyedRowsWriter, type Value } from '../../../../lib/files/keyed-rows-file.ts';
import { lookupSql } from '../../../../lib/files/lookup-tables-format.ts';
import { STR_HISTORY_MONTHS, STR_MARKET_ROWS_FILE, type StrMarketRowsExtra } from '../../../../lib/files/str-market-file.ts';

const M = STR_HISTORY_MONTHS;

/**
 * Writes the market set's rows file (lib/files/str-market-file.ts) from str_market_file_rows:
 * each listing's fields as the query gives them, its months laid out as the in-heap set lays
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
  const chunks = streamChunks(ctx.db, lookupSql(spec.query));
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
      const need = ['rn', ...plain, 'm_mi', 'm_live', 'm_available', 'm_booked', 'm_revenue', 'p_mi', 'p_live', 'p_revenue'];
      const missing = need.filter((n) => !names.includes(n));
      if (missing.length) throw new Error(`str_market_file_rows: no column ${missing.join(', ')}`);
      const idx = (n: string) => names.indexOf(n);
      const plainIdx = plain.map(idx);
      const amenIdx = amenityKeys.map((k) => idx(`has_${k}`));
      const [rnI, mMi, mLive, mAv, mBk, mRv, pMi, pLive, pRv] = ['rn', 'm_mi', 'm_live', 'm_available', 'm_booked', 'm_revenue', 'p_mi', 'p_live', 'p_revenue'].map(idx) as [number, number, number, number, number, number, number, number, number];
      const values: Value[] = new Array<Value>(cols.length);
      const write = (chunk: { getColumns(): (readonly DuckDBValue[])[]; rowCount: number }) => {
        const c = chunk.getColumns();
        for (let i = 0; i < chunk.rowCount; i++) {
          for (let k = 0; k < plain.length; k++) values[k] = c[plainIdx[k]!]![i] as Value;
          values[amenAt] = amenityKeys.filter((_, a) => c[amenIdx[a]!]![i] === true).join(',');
          const mi = items(c[mMi]![i]!) as number[];
          const end = mi.length > 0 ? mi[mi.length - 1]! : -1;
          values[endAt] = end;
          for (let q = 0; q < M * 4 + 24; q++) values[mAt + q] = 0;
          const [live, av, bk, rv] = [items(c[mLive]![i]!), items(c[mAv]![i]!), items(c[mBk]![i]!), items(c[mRv]![i]!)];
          // Backwards, as the in-heap set reads them: of two rows of one month, the first wins.
          for (let r = mi.length - 1; r >= 0; r--) {
            const j = M - 1 - (end - mi[r]!);
            if (j < 0) continue;
            values[mAt + j * 4] = live[r] ? 1 : 0;
            values[mAt + j * 4 + 1] = (av[r] as number | null) || 0;
            values[mAt + j * 4 + 2] = (bk[r] as number | null) || 0;
            values[mAt + j * 4 + 3] = (rv[r] as number | null) || 0;
          }
          const [pm, pl, pr] = [items(c[pMi]![i]!), items(c[pLive]![i]!), items(c[pRv]![i]!)];
          for (let r = 0; end >= 0 && r < pm.length; r++) {
            const k = (pm[r] as number) - (end - M - 11);
            if (k < 0 || k >= 12) continue;
            values[pAt + k * 2] = pl[r] ? 1 : 0;
            values[pAt + k * 2 + 1] = (pr[r] as number | null) || 0;
          }
          writer.add(c[rnI]![i] as number, values);
        }
      };
      write(first.value.chunk);
      for await (const { chunk } of chunks) write(chunk);
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
function items(v: DuckDBValue): readonly DuckDBValue[] {
  return v instanceof DuckDBListValue ? v.items : [];
}
