import type { Stage } from '../../../pipeline/context.ts';
import { STR_MARKET_AREAS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_ROWS_FILE } from '../../../../lib/files/str-market-file.ts';
import { writeLookupFile } from '../../30-serving/write-lookup-file.ts';
import { writeStrMarketRows } from './write-market-rows.ts';

/**
 * Writes the short-term-let market set as keyed-rows files (lib/files/str-market-file.ts): the
 * listings with their months by row, their points by grid cell and their rows by area, so GET
 * /str/market and /str/listings read where they lie instead of every process loading the set
 * (issue 46, ADR 0015 step 6). After the STR marts, which make its inputs.
 */
export const strFilesStage: Stage = {
  name: 'str-files',
  description: 'the short-term-let market set written as keyed-rows files (str-market*.rows): listings with their months, by cell, by area',
  reads: ['str_listings', 'str_listing_months', 'str_listing_prior_months'],
  writes: [STR_MARKET_ROWS_FILE.file, STR_MARKET_CELLS_FILE.file, STR_MARKET_AREAS_FILE.file],
  async run(ctx) {
    await writeStrMarketRows(ctx);
    await writeLookupFile(ctx, STR_MARKET_CELLS_FILE);
    await writeLookupFile(ctx, STR_MARKET_AREAS_FILE);
  },
};
