import type { Stage } from '../../../pipeline/context.ts';
import { loadRows } from '../../../pipeline/load-rows.ts';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import { matchByOutcode } from '../../20-merged/20-match-addresses/match-by-outcode.ts';
import { MatchCache, matcherCode } from '../../20-merged/20-match-addresses/match-cache.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The code this stage's cached matches depend on, as loaded (match-cache.ts). */
const MATCH_CODE = matcherCode(import.meta.filename);

/**
 * The published HMO licence table (`hmo_licences`, contract in schemas/tables/hmo.ts;
 * docs/hmo-licences.md): every licence of the council registers staged in
 * `stg_hmo_register`, matched to a UPRN by the address matcher the sales and certificates
 * use, placed at the matched address (else the postcode's point), with its status on its
 * register's as-of date (the build date for a register without dates). The matched share goes to the manifest's match rates.
 */
export const hmoLicencesStage: Stage = {
  name: 'marts_hmo',
  description: 'HMO licences from the council registers, matched to UPRNs, placed, current, pending or expired on the register\'s as-of date',
  reads: ['stg_hmo_register', 'addresses', 'postcodes', 'match_street_keys'],
  writes: ['hmo_registers', 'hmo_matches', 'hmo_licences'],
  async run(ctx) {
    const { conn, db } = ctx;
    // Which register each staged row came from: staging numbers a kind's files 1, 2, … in
    // the order its reports are listed.
    // Oxford publishes its temporary exemption notices (HMOTXN) as a register of their own:
    // exemptions from licensing, not licences, so staged but not published here.
    const registers = ctx.sources.filter((r) => r.name === 'hmo_register')
      .map((r, i) => ({ file_no: i + 1, register: r.path, as_of: r.as_of ?? null, exemptions: /exemption/i.test(r.path) }));
    await loadRows(conn, 'hmo_registers', [
      { name: 'file_no', type: 'INTEGER', get: (r: (typeof registers)[number]) => r.file_no },
      { name: 'register', type: 'VARCHAR', get: (r: (typeof registers)[number]) => r.register },
      { name: 'as_of', type: 'VARCHAR', get: (r: (typeof registers)[number]) => r.as_of },
      { name: 'exemptions', type: 'BOOLEAN', get: (r: (typeof registers)[number]) => r.exemptions },
    ], registers);
    // Unchanged licences keep their cached match (match-cache.ts): only the rest go through the matcher.
    const cache = await MatchCache.open(ctx, 'hmo', MATCH_CODE);
    const toMatch = cache ? await cache.prepare('hmo', sql.text('hmo_to_match'), 'id') : sql.text('hmo_to_match');
    // The line's key cuts the post town off, so the town travels raw as the second part.
    await matchByOutcode(db, conn, [{ table: 'hmo_matches', key: 'register', sql: toMatch, id: 'id', parts: ['address', 'town'] }]);
    if (cache) {
      await cache.complete('hmo', 'hmo_matches');
      ctx.quality.hmo_match_cache = await cache.finish();
    }
    await sql.run(conn, 'hmo_licences', { today: ctx.today });
    const [q] = await queryRows(conn, `
      SELECT count(*)::INTEGER AS licences, count(uprn)::INTEGER AS matched, count(lat)::INTEGER AS placed,
             count(*) FILTER (WHERE status = 'current')::INTEGER AS current, count(*) FILTER (WHERE status = 'pending')::INTEGER AS pending,
             avg((uprn IS NOT NULL)::INT) AS matched_share,
             (SELECT count(*) FROM stg_hmo_register h JOIN hmo_registers r ON r.file_no = h._file_no WHERE r.exemptions)::INTEGER AS exemptions
      FROM hmo_licences`);
    const reasons = await queryRows(conn, 'SELECT reason, count(*)::INTEGER AS n FROM hmo_matches WHERE uprn IS NULL GROUP BY ALL ORDER BY reason');
    if (Number(q?.licences) > 0) ctx.matchRates.hmo_licences_matched_share = Number(q?.matched_share ?? 0);
    ctx.quality.hmo_licences = {
      licences: Number(q?.licences), exemptions_not_published: Number(q?.exemptions), matched: Number(q?.matched), placed: Number(q?.placed), current: Number(q?.current), pending: Number(q?.pending),
      unmatched_by_reason: Object.fromEntries(reasons.map((r) => [String(r.reason), Number(r.n)])),
    };
  },
};
