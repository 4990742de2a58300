import { matchByOutcode } from './match-by-outcode.ts';
import { countRows, queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { MatchCache, matcherCode } from './match-cache.ts';
import { MIN_SIMILARITY } from './matcher.ts';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

export { MATCH_COLUMNS, type MatchRow } from './match-by-outcode.ts';

/** The code this stage's cached matches depend on, as loaded (match-cache.ts). */
const MATCH_CODE = matcherCode(import.meta.filename);

/**
 * Matches every current price-paid sale (`ppd_current`, from staging's `ppd_current` stage)
 * and every certificate without a known UPRN to the address base. Writes `sale_matches` and
 * `epc_matches` (id, uprn or null, method, score, reason when unmatched). A certificate's
 * own UPRN is trusted when the address base has it.
 */
export const matchAddresses: Stage = {
  name: 'match_addresses',
  description: 'match price-paid sales and UPRN-less certificates to address-base UPRNs by normalised address',
  reads: ['addresses', 'ppd_current', 'stg_epc'],
  writes: ['sale_matches', 'epc_matches', 'match_street_keys'],
  // A record's match is a function of its own input and the address base alone (the matcher
  // gives what it would with every address loaded), so the certificates' are not the sales'.
  derives: { epc_matches: ['addresses', 'stg_epc'], match_street_keys: ['addresses'] },
  async run(ctx: BuildContext) {
    const { conn, db } = ctx;
    // Unchanged ids keep their cached result (match-cache.ts): only the rest go through the matcher.
    const cache = await MatchCache.open(ctx, 'addresses', MATCH_CODE);
    const toMatch = async (name: string, sql: string, id: string) => (cache ? cache.prepare(name, sql, id) : sql);
    const saleSql = await toMatch('sale', sql.text('match_sales_to_match'), 'transaction_id');
    const epcSql = await toMatch('epc', sql.text('match_epc_to_match'), 'certificate_id');
    // The street keys are the address base's alone (the key says which): loaded, matchByOutcode
    // finds them and reads only the outcodes some record is in, not every address.
    const keysLoaded = cache ? await cache.loadTable('street_keys', 'match_street_keys') : false;
    let [saleCount, epcCount] = await matchByOutcode(db, conn, [
      { table: 'sale_matches', key: 'sale', sql: saleSql, id: 'transaction_id', parts: ['saon', 'paon', 'street'] },
      { table: 'epc_matches', key: 'epc', sql: epcSql, id: 'certificate_id', parts: ['address1', 'address2', 'address3'] },
    ]);
    if (cache) {
      if (!keysLoaded) await cache.storeTable('street_keys', 'match_street_keys');
      await cache.complete('sale', 'sale_matches');
      await cache.complete('epc', 'epc_matches');
      ctx.quality.match_cache = await cache.finish();
      [saleCount, epcCount] = [await countRows(conn, 'sale_matches'), await countRows(conn, 'epc_matches')];
    }
    if ((ctx.quality.address_source as { kind?: string } | undefined)?.kind === 'open_data') {
      await sql.run(conn, 'match_open_data_strict_sales', { min_similarity: MIN_SIMILARITY });
      await sql.run(conn, 'match_open_data_strict_epc', { min_similarity: MIN_SIMILARITY });
      await sql.run(conn, 'match_open_data_strict_street');
    }
    const [rates] = await queryRows(conn, sql.text('match_rates'));
    ctx.matchRates.sales_matched_share = Number(rates?.sales ?? 0);
    ctx.matchRates.epc_without_uprn_matched_share = Number(rates?.epc ?? 0);
    ctx.log.info({ stage: 'match_addresses', sales: saleCount, certificates_without_uprn: epcCount }, 'matched');
  },
};
