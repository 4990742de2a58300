import { join } from 'node:path';
import type { Stage } from '../../../pipeline/context.ts';
import { countRows, queryRows, sqlText, streamRows } from '../../../pipeline/sql.ts';
import { SEARCH_INDEX_FILE, writeSearchIndex } from '../../../../schemas/search-index-format.ts';
import { buildSearchIndex, type IndexRow } from './build.ts';

/**
 * Builds the address search index from the `addresses` table and writes it into the build
 * as an artifact, so the service loads it as published instead of rebuilding it.
 */
export const searchIndexStage: Stage = {
  name: 'search-index',
  description: 'address search index (word postings, postcode ranges, display rows) written as search-index.bin',
  reads: ['addresses'],
  writes: [SEARCH_INDEX_FILE],
  reuse: { today: false },
  async run(ctx) {
    await countRows(ctx.conn, 'addresses'); // fails clearly when the table is missing
    const n = Number((await queryRows(ctx.conn, sqlText('search_index_count')))[0]?.n ?? 0);
    const t0 = performance.now();
    // Streamed on a connection of its own (see streamRows): nothing can cut it short.
    async function* rows(): AsyncGenerator<IndexRow> {
      for await (const r of streamRows(ctx.db, sqlText('search_index_rows'))) {
        yield { uprn: Number(r.uprn), address: String(r.address), postcode: String(r.postcode), lat: Number(r.lat), lng: Number(r.lng) };
      }
    }
    const data = await buildSearchIndex(rows(), n);
    const bytes = writeSearchIndex(join(ctx.buildDir, SEARCH_INDEX_FILE), data);
    ctx.artifacts.search_index = { file: SEARCH_INDEX_FILE, description: 'address search index (format: schemas/search-index-format.ts)' };
    ctx.log.info({ stage: 'search-index', addresses: n, words: data.postOff.length - 1, bytes, ms: Math.round(performance.now() - t0) }, 'search index written');
  },
};
