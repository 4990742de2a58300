import { join } from 'node:path';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { memoryLimitBytes } from '../../../pipeline/memory-limit.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { SEARCH_INDEX_FILE } from '../../../../lib/files/search-index-format.ts';
import { cutsFromCounts, keyRanges, sortChunks } from '../sort-chunks.ts';
import { streamColumns } from '../stream-columns.ts';
import type { IndexRow } from './build.ts';
import { writeSearchIndexSpilled, type SearchIndexSpillOptions } from './write-spilled.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Bytes per row of the stage's sort (uprn, address, postcode, lat, lng): measured 127-132 at 1M addresses, rounded up. */
export const SEARCH_SORT_BYTES_PER_ROW = 140;

/**
 * Builds the address search index from the `addresses` table and writes it into the build
 * as an artifact, so the service loads it as published instead of rebuilding it.
 */
export const searchIndexStage: Stage = {
  name: 'search-index',
  description: 'address search index (word postings, postcode ranges, display rows) written as search-index.bin',
  reads: ['addresses', 'address_aliases'],
  writes: [SEARCH_INDEX_FILE],
  reuse: { today: false },
  async run(ctx) {
    await countRows(ctx.conn, 'addresses'); // fails clearly when the table is missing
    const open = (ctx.quality.address_source as { kind?: string } | undefined)?.kind === 'open_data';
    await sql.run(ctx.conn, 'search_index_aliases', { open });
    const n = Number((await queryRows(ctx.conn, sql.text('search_index_count')))[0]?.n ?? 0);
    const chunks = sortChunks(n, SEARCH_SORT_BYTES_PER_ROW, await memoryLimitBytes(ctx.conn));
    await writeSearchIndexFile(ctx, n, chunks > 1 ? await postcodeCuts(ctx, n, chunks) : []);
  },
};

/**
 * Builds and writes the index from the `n` rows of search_index_rows, read in the postcode
 * ranges between `cuts` (ascending; none: one query). The per-address sections spill into a
 * temporary folder of the build (docs/etl.md, "Memory"); `spill` sizes its buffers and the
 * postings passes (tests force many).
 */
export async function writeSearchIndexFile(ctx: BuildContext, n: number, cuts: readonly string[], spill: Omit<SearchIndexSpillOptions, 'spillDir'> = {}): Promise<void> {
  const t0 = performance.now();
  const { bytes, words, passes } = await writeSearchIndexSpilled(join(ctx.buildDir, SEARCH_INDEX_FILE), indexRows(ctx, cuts), n, { ...spill, spillDir: ctx.buildDir });
  ctx.artifacts.search_index = { file: SEARCH_INDEX_FILE, description: 'address search index (format: lib/files/search-index-format.ts)' };
  ctx.log.info({ stage: 'search-index', addresses: n, chunks: cuts.length + 1, words, postings_passes: passes, bytes, ms: Math.round(performance.now() - t0) }, 'search index written');
}

/** The index's rows in postcode order: one query, or one per postcode range (sort-chunks.ts). */
async function* indexRows(ctx: BuildContext, cuts: readonly string[]): AsyncGenerator<IndexRow> {
  const reads = cuts.length === 0
    ? [{ sql: sql.text('search_index_rows'), params: undefined }]
    : keyRanges(cuts).map((params) => ({ sql: sql.text('search_index_rows_between'), params }));
  for (const { sql, params } of reads) {
    for await (const { rows, columns: [uprn, address, postcode, lat, lng, aliases] } of streamColumns(ctx.db, sql, params)) {
      for (let i = 0; i < rows; i++) {
        yield { uprn: Number(uprn![i]), address: String(address![i]), postcode: String(postcode![i]), lat: Number(lat![i]), lng: Number(lng![i]), aliases: aliases![i] as string | null };
      }
    }
  }
}

/** Postcodes that cut the `n` rows into `chunks` ranges of about equal rows (a postcode's rows stay in one range). */
export async function postcodeCuts(ctx: BuildContext, n: number, chunks: number): Promise<string[]> {
  async function* counts(): AsyncGenerator<[string, number]> {
    for await (const { rows, columns: [postcode, count] } of streamColumns(ctx.db, sql.text('search_index_postcode_counts'))) {
      for (let i = 0; i < rows; i++) yield [String(postcode![i]), Number(count![i])];
    }
  }
  return cutsFromCounts(counts(), n, chunks);
}
