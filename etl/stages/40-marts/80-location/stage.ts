import type { Stage } from '../../../pipeline/context.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { matchByOutcode } from '../../20-merged/20-match-addresses/match-by-outcode.ts';
import { MatchCache, matcherCode } from '../../20-merged/20-match-addresses/match-cache.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The code this stage's cached matches depend on, as loaded (match-cache.ts). */
const MATCH_CODE = matcherCode(import.meta.filename);

/**
 * Location marts from police.uk crime, GIAS and the agents' listing feeds (docs/sources/;
 * contracts in schemas/tables/location.ts):
 * the last 12 months of crime (latest release of each month and force) with each local
 * authority's rate, schools with a position, and the current listings matched to UPRNs.
 */
export const locationMartsStage: Stage = {
  name: 'marts_location',
  description: 'crime (latest release per month and force, 12 months) and rates per local authority; schools; current listings (latest state, removals dropped) matched to UPRNs',
  reads: ['stg_police_crime', 'stg_gias_schools', 'stg_listings', 'stg_onspd', 'addresses', 'postcode_places', 'match_street_keys'],
  writes: ['crime', 'crime_la', 'schools', 'listings_current', 'listing_matches', 'listings'],
  // Its inputs are none of Price Paid's (postcode_places, not postcodes): a refresh of the
  // monthly sales loads its output (2.2 s of the 1M refresh) instead of running it.
  reuse: { today: false },
  async run(ctx) {
    const { conn, db } = ctx;
    for (const name of ['location_crime', 'location_crime_la', 'location_schools', 'location_listings_current']) await sql.run(conn, name);
    // Unchanged listings keep their cached match (match-cache.ts): only the rest go through the matcher.
    const cache = await MatchCache.open(ctx, 'listings', MATCH_CODE);
    const all = 'SELECT listing_id, postcode, town, address_1, address_2, address_3 FROM listings_current';
    const toMatch = cache ? await cache.prepare('listing', all, 'listing_id') : all;
    await matchByOutcode(db, conn, [{ table: 'listing_matches', key: 'epc', sql: toMatch, id: 'listing_id', parts: ['address_1', 'address_2', 'address_3'] }]);
    if (cache) {
      await cache.complete('listing', 'listing_matches');
      ctx.quality.listing_match_cache = await cache.finish();
    }
    await sql.run(conn, 'location_listings');
    const [q] = await queryRows(conn, `
      SELECT (SELECT count(*) FROM crime) AS crimes, (SELECT count(DISTINCT month) FROM crime) AS crime_months,
             (SELECT count(*) FROM schools) AS schools, (SELECT count(*) FROM listings) AS listings,
             (SELECT avg((uprn IS NOT NULL)::INT) FROM listings) AS listings_matched_share`);
    ctx.matchRates.listings_matched_share = Number(q?.listings_matched_share ?? 0);
    ctx.quality.location = { crimes: Number(q?.crimes), crime_months: Number(q?.crime_months), schools: Number(q?.schools), listings: Number(q?.listings) };
  },
};
