import type { DuckDBInstance } from '@duckdb/node-api';
import { normalisePostcode, normaliseText } from '../../../../schemas/address-normalise.ts';
import { addressBaseKey, epcKey, saleKey } from './keys.ts';
import { AddressMatcher, type MatchResult } from './matcher.ts';
import { countRows, queryRows, runSql, sqlText, streamRows } from '../../../pipeline/sql.ts';
import { MatchCache, matcherCode } from './match-cache.ts';
import type { BuildContext, Stage } from '../../../pipeline/context.ts';
import { loadRows, type StageColumn } from '../../../pipeline/load-rows.ts';

/** The code this stage's cached matches depend on, as loaded (match-cache.ts). */
const MATCH_CODE = matcherCode(import.meta.filename);

const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

export async function buildMatcher(db: DuckDBInstance): Promise<AddressMatcher> {
  const m = new AddressMatcher();
  for await (const a of streamRows(db, sqlText('match_address_base'))) {
    m.add({ uprn: Number(a.uprn), postcode: String(a.postcode), town: normaliseText(s(a.post_town)), key: addressBaseKey(a as never) });
  }
  return m;
}

export interface MatchRow {
  id: string;
  result: MatchResult;
}

export const MATCH_COLUMNS: StageColumn<MatchRow>[] = [
  { name: 'id', type: 'VARCHAR', get: (r) => r.id },
  { name: 'uprn', type: 'BIGINT', get: (r) => r.result.uprn },
  { name: 'method', type: 'VARCHAR', get: (r) => (r.result.uprn !== null ? r.result.method : null) },
  { name: 'score', type: 'DOUBLE', get: (r) => (r.result.uprn !== null ? r.result.score : null) },
  { name: 'reason', type: 'VARCHAR', get: (r) => (r.result.uprn === null ? r.result.reason : null) },
];

/**
 * Matches every current price-paid sale and every certificate without a known UPRN to the
 * address base. Writes `sale_matches` and `epc_matches` (id, uprn or null, method, score,
 * reason when unmatched). A certificate's own UPRN is trusted when the address base has it.
 */
export const matchAddresses: Stage = {
  name: 'match_addresses',
  description: 'match price-paid sales and UPRN-less certificates to address-base UPRNs by normalised address',
  reads: ['addresses', 'stg_price_paid', 'stg_epc'],
  writes: ['ppd_current', 'sale_matches', 'epc_matches'],
  async run(ctx: BuildContext) {
    const { conn, db } = ctx;
    await runSql(conn, 'ppd_current');
    // Unchanged ids keep their cached result (match-cache.ts); the matcher is built only if some are left.
    const cache = await MatchCache.open(ctx, 'addresses', MATCH_CODE);
    let built: AddressMatcher | undefined;
    const matcherNow = async () => (built ??= await buildMatcher(db));
    const saleSql = cache ? await cache.prepare('sale', sqlText('match_sales_to_match'), 'transaction_id') : sqlText('match_sales_to_match');
    const sales = async function* () {
      for await (const r of streamRows(db, saleSql)) {
        const matcher = await matcherNow();
        yield {
          id: String(r.transaction_id),
          result: matcher.match(normalisePostcode(s(r.postcode)), normaliseText(s(r.town)), saleKey(s(r.saon), s(r.paon), s(r.street))),
        };
      }
    };
    let saleCount = await loadRows(conn, 'sale_matches', MATCH_COLUMNS, sales());
    if (cache) await cache.complete('sale', 'sale_matches');
    const epcSql = cache ? await cache.prepare('epc', sqlText('match_epc_to_match'), 'certificate_id') : sqlText('match_epc_to_match');
    const epcs = async function* () {
      for await (const r of streamRows(db, epcSql)) {
        const matcher = await matcherNow();
        yield {
          id: String(r.certificate_id),
          result: matcher.match(normalisePostcode(s(r.postcode)), normaliseText(s(r.posttown)), epcKey([s(r.address1), s(r.address2), s(r.address3)])),
        };
      }
    };
    let epcCount = await loadRows(conn, 'epc_matches', MATCH_COLUMNS, epcs());
    if (cache) {
      await cache.complete('epc', 'epc_matches');
      ctx.quality.match_cache = await cache.finish();
      [saleCount, epcCount] = [await countRows(conn, 'sale_matches'), await countRows(conn, 'epc_matches')];
    }
    const [rates] = await queryRows(conn, sqlText('match_rates'));
    ctx.matchRates.sales_matched_share = Number(rates?.sales ?? 0);
    ctx.matchRates.epc_without_uprn_matched_share = Number(rates?.epc ?? 0);
    ctx.log.info({ stage: 'match_addresses', sales: saleCount, certificates_without_uprn: epcCount }, 'matched');
  },
};
