import { join } from 'node:path';
import type { Stage } from '../../../pipeline/context.ts';
import { countRows, queryRows, sqlText } from '../../../pipeline/sql.ts';
import { SEARCH_INDEX_FILE, writeSearchIndex } from '../../../../schemas/search-index-format.ts';
import { streamColumns } from '../stream-columns.ts';
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
    async function* rows(): AsyncGenerator<IndexRow> {
      for await (const { rows, columns: [uprn, address, postcode, lat, lng] } of streamColumns(ctx.db, sqlText('search_index_rows'))) {
        for (let i = 0; i < rows; i++) {
          yield { uprn: Number(uprn![i]), address: String(address![i]), postcode: String(postcode![i]), lat: Number(lat![i]), lng: Number(lng![i]) };
        }
      }
    }
    const data = await buildSearchIndex(rows(), n);
    const bytes = writeSearchIndex(join(ctx.buildDir, SEARCH_INDEX_FILE), data);
    ctx.artifacts.search_index = { file: SEARCH_INDEX_FILE, description: 'address search index (format: schemas/search-index-format.ts)' };
    ctx.log.info({ stage: 'search-index', addresses: n, words: data.postOff.length - 1, bytes, ms: Math.round(performance.now() - t0) }, 'search index written');
  },
};
