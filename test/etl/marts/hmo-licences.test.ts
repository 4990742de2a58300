import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { discoverSources } from '../../../etl/pipeline/discover.ts';
import { SOURCES } from '../../../etl/sources/index.ts';
import { queryRows } from '../../../etl/pipeline/sql.ts';
import { registerKey } from '../../../etl/stages/20-merged/20-match-addresses/keys.ts';
import { stageSources } from '../../../etl/stages/10-staging/10-stage-sources/stage-sources.ts';
import { hmoLicencesStage } from '../../../etl/stages/40-marts/90-hmo/stage.ts';
import { ruleViolationsSql } from '../../../schemas/tables/contract.ts';
import { HMO_TABLES } from '../../../schemas/tables/hmo.ts';
import { hasRaw, RAW_DIR } from '../../support/raw.ts';
import { quietLog, stagedContext } from '../../support/region.ts';

describe('registerKey', () => {
  it("keys Oxford's one-line address without its postcode, town and county, and Sheffield's with its flat", () => {
    const ox = registerKey('18 Abbey Road Oxford Oxfordshire OX2 0AE', 'OXFORD');
    expect([ox.unit, ox.numbers, [...ox.words], ox.street]).toEqual(['', ['18'], ['ABBEY', 'ROAD'], 'ABBEY ROAD']);
    const road = registerKey('12 Oxford Road Oxford OX4 1AA', 'OXFORD');
    expect([road.numbers, [...road.words], road.street]).toEqual([['12'], ['OXFORD', 'ROAD'], 'OXFORD ROAD']);
    const sh = registerKey('Flat 1b, 1 Abbeydale Road, S7 1FA', 'SHEFFIELD');
    expect([sh.unit, sh.numbers, [...sh.words], sh.street]).toEqual(['1B', ['1'], ['ABBEYDALE', 'ROAD'], 'ABBEYDALE ROAD']);
    const noTown = registerKey('6 Trafalgar Grove Knowle Bristol BS4 1US');
    expect([noTown.numbers, [...noTown.words]]).toEqual([['6'], ['TRAFALGAR', 'GROVE', 'KNOWLE', 'BRISTOL']]);
  });
});

// The HMO mart over a synthetic region, checked against its truth (truth/hmo-licences.csv).
describe('hmo_licences (6,000 addresses, seed 11)', () => {
  let ctx: BuildContext;
  let truth: string;
  beforeAll(async () => {
    ctx = await stagedContext(6000, 11);
    truth = join(ctx.sourcesDir, 'truth', 'hmo-licences.csv').replaceAll("'", "''");
  }, 600_000);
  const q = (sql: string) => queryRows(ctx.conn, sql);

  it('matches every licence to its true UPRN and none of the addresses the address base lacks', async () => {
    const [r] = await q(`
      WITH t AS (SELECT * FROM read_csv('${truth}', header = true, all_varchar = true))
      SELECT count(*)::INTEGER AS rows,
             count(*) FILTER (WHERE t.kind = 'licence')::INTEGER AS licences,
             count(*) FILTER (WHERE t.kind = 'licence' AND h.uprn::VARCHAR = t.true_uprn)::INTEGER AS right_uprn,
             count(*) FILTER (WHERE t.kind = 'unmatchable')::INTEGER AS unmatchable,
             count(*) FILTER (WHERE t.kind = 'unmatchable' AND h.uprn IS NULL AND h.unmatched_reason = 'no_number_match')::INTEGER AS left_unmatched,
             (SELECT count(*) FROM hmo_licences)::INTEGER AS published
      FROM t LEFT JOIN hmo_licences h ON h.licence_reference = t.case_number`);
    expect(r!.rows).toBe(r!.published);
    expect(r!.right_uprn).toBe(r!.licences);
    expect(r!.left_unmatched).toBe(r!.unmatchable);
    expect(r!.unmatchable).toBeGreaterThan(0);
    expect(ctx.matchRates.hmo_licences_matched_share).toBeCloseTo(Number(r!.licences) / Number(r!.rows), 10);
    expect(ctx.quality.hmo_licences).toMatchObject({ licences: r!.rows, matched: r!.licences, placed: r!.rows, unmatched_by_reason: { no_number_match: r!.unmatchable } });
  });

  it('status on the build date from the true dates; matched licences sit at their address, the rest at their postcode', async () => {
    const [r] = await q(`
      WITH t AS (SELECT * FROM read_csv('${truth}', header = true, all_varchar = true))
      SELECT count(*) FILTER (WHERE h.status IS DISTINCT FROM CASE WHEN t.licence_end::DATE < DATE '${ctx.today}' THEN 'expired'
                                                                WHEN t.licence_start::DATE > DATE '${ctx.today}' THEN 'pending' ELSE 'current' END)::INTEGER AS wrong_status,
             count(*) FILTER (WHERE h.valid_from <> t.licence_start::DATE OR h.valid_to <> t.licence_end::DATE)::INTEGER AS wrong_dates,
             count(*) FILTER (WHERE h.status = 'expired')::INTEGER AS expired,
             count(*) FILTER (WHERE h.status = 'current')::INTEGER AS current
      FROM t JOIN hmo_licences h ON h.licence_reference = t.case_number`);
    expect(r).toMatchObject({ wrong_status: 0, wrong_dates: 0 });
    expect(r!.expired).toBeGreaterThan(0);
    expect(r!.current).toBeGreaterThan(0);
    const [p] = await q(`
      SELECT count(*) FILTER (WHERE h.uprn IS NOT NULL AND (h.position_source <> 'uprn' OR h.lat <> a.lat OR h.lng <> a.lng))::INTEGER AS bad_uprn_pos,
             count(*) FILTER (WHERE h.uprn IS NULL AND (h.position_source <> 'postcode' OR h.lat <> p.lat OR h.lng <> p.lng))::INTEGER AS bad_pc_pos,
             count(*) FILTER (WHERE h.storeys IS NOT NULL)::INTEGER AS storeys, count(*) FILTER (WHERE h.households IS NOT NULL)::INTEGER AS households
      FROM hmo_licences h LEFT JOIN addresses a ON a.uprn = h.uprn LEFT JOIN postcodes p ON p.postcode = h.postcode`);
    expect(p).toMatchObject({ bad_uprn_pos: 0, bad_pc_pos: 0 });
    expect(p!.storeys).toBeGreaterThan(0);
    expect(p!.households).toBeGreaterThan(0);
  });

  it('keeps the planted row out (rejected by the reader) and meets its contract', async () => {
    expect((await q("SELECT count(*)::INTEGER AS n FROM hmo_licences WHERE licence_reference = '99/99999/HMOADL'"))[0]!.n).toBe(0);
    const report = ctx.sources.find((s) => s.name === 'hmo_register')!;
    expect(report.rejected_by_reason).toEqual({ 'invalid:licence_start': 1 });
    for (const rule of HMO_TABLES[0]!.rules!) expect((await q(`SELECT (${ruleViolationsSql('hmo_licences', rule)}) AS n`))[0]!.n, rule.rule).toBe('0');
  });
});

describe.skipIf(!hasRaw('hmo/oxford_2018') || !hasRaw('hmo/sheffield_2025-10'))('hmo_licences from the real Oxford and Sheffield registers', () => {
  it('publishes 3,211 Oxford and 1,106 Sheffield licences (not the 16 exemptions); status on each register\'s as-of; none matched or placed: the samples have no address base or postcode points for either city', async () => {
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    const { files } = await discoverSources(RAW_DIR, SOURCES);
    const hmo = files.filter((f) => f.kind === 'hmo_register');
    const sources = await stageSources(conn, hmo, '2025-10-01');
    // The address base and postcode tables the stage joins, empty as a build of these samples has them.
    await conn.run('CREATE TABLE addresses (uprn BIGINT, postcode VARCHAR, post_town VARCHAR, sub_building VARCHAR, building_name VARCHAR, building_number VARCHAR, street_name VARCHAR, lat DOUBLE, lng DOUBLE, la_code VARCHAR)');
    await conn.run('CREATE TABLE postcodes (postcode VARCHAR, lat DOUBLE, lng DOUBLE, la_code VARCHAR)');
    const ctx = { db, conn, sources, today: '2025-10-01', matchRates: {}, quality: {}, log: quietLog } as unknown as BuildContext;
    await hmoLicencesStage.run(ctx);
    const rows = await queryRows(conn, `SELECT split_part(register, '/', 2) AS register, status, count(*)::INTEGER AS n, count(uprn)::INTEGER AS matched, count(lat)::INTEGER AS placed
                                        FROM hmo_licences GROUP BY ALL ORDER BY ALL`);
    // Status on each register's as-of (its latest licence start not after the build date), counted
    // independently with Python's csv module: Oxford's is 2018-12-18, when 2,012 had expired, 1,198
    // ran and one (starting in 3017, a typo) had not begun; Sheffield's is 2025-10-01: of its 1,106,
    // 1,080 run over it and 26 were issued to start after it.
    expect(rows).toEqual([
      { register: 'oxford_2018', status: 'current', n: 1198, matched: 0, placed: 0 },
      { register: 'oxford_2018', status: 'expired', n: 2012, matched: 0, placed: 0 },
      { register: 'oxford_2018', status: 'pending', n: 1, matched: 0, placed: 0 },
      { register: 'sheffield_2025-10', status: 'current', n: 1080, matched: 0, placed: 0 },
      { register: 'sheffield_2025-10', status: 'pending', n: 26, matched: 0, placed: 0 },
    ]);
    expect(sources.map((s) => [s.path.split('/').at(-1), s.rows_read, s.rows_rejected])).toEqual([
      ['hmo-simplified-register.csv', 3211, 0], ['hmo-temporary-exemptions-register.csv', 16, 0], ['hmo_licences_issued_to_2025-10-01.csv', 1106, 0],
    ]);
    expect(ctx.matchRates).toEqual({ hmo_licences_matched_share: 0 });
    expect(ctx.quality.hmo_licences).toEqual({ licences: 4317, exemptions_not_published: 16, matched: 0, placed: 0, current: 2278, pending: 27,
      unmatched_by_reason: { no_postcode_candidates: 4317 } });
    conn.closeSync();
  });
});
