import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTable } from '../../../etl/pipeline/load-rows.ts';
import { certificatesChunks } from '../../../etl/stages/20-merged/30-certificates/chunks.ts';
import { buildCertificates } from '../../../etl/stages/20-merged/30-certificates/stage.ts';
import { stagedColumns } from '../../../etl/stages/10-staging/10-stage-sources/stage-file.ts';
import { epc } from '../../../etl/sources/epc/source.ts';

/**
 * The certificates stage builds `epc_linked` and `epc_by_uprn` in chunks when its joins and
 * windows would outgrow DuckDB's memory limit (docs/etl.md, "Memory"). In any number of
 * chunks both tables must hold the rows the stage's earlier single statements gave, kept
 * here as the reference.
 */
const REFERENCE_EPC_LINKED = `CREATE OR REPLACE TABLE ref_linked AS
SELECT
  e.* EXCLUDE (uprn, _file_no, lodgement_date, inspection_date),
  e.lodgement_date::DATE AS lodgement_date,
  e.inspection_date::DATE AS inspection_date,
  CASE WHEN a.uprn IS NOT NULL THEN e.uprn ELSE m.uprn END AS uprn,
  CASE WHEN a.uprn IS NOT NULL THEN 'certificate' WHEN m.uprn IS NOT NULL THEN 'address_match' END AS uprn_source
FROM stg_epc e
LEFT JOIN addresses a ON a.uprn = e.uprn
LEFT JOIN epc_matches m ON m.id = e.certificate_id
QUALIFY row_number() OVER (PARTITION BY e.certificate_id ORDER BY e._file_no DESC, e.lodgement_date DESC, e.rowid DESC) = 1`;

const REFERENCE_EPC_BY_UPRN = `CREATE OR REPLACE TABLE ref_by_uprn AS
SELECT
  uprn,
  count(*) OVER u AS certificate_count,
  max(lodgement_date) OVER u AS latest_lodgement_date,
  certificate_id AS latest_certificate_id,
  last_value(property_type IGNORE NULLS) OVER w AS epc_property_type,
  last_value(CASE WHEN built_form NOT IN ('NO DATA!', 'Not Recorded') THEN built_form END IGNORE NULLS) OVER w AS built_form,
  last_value(CASE WHEN total_floor_area_m2 > 0 THEN total_floor_area_m2 END IGNORE NULLS) OVER w AS floor_area_m2,
  last_value(CASE WHEN number_habitable_rooms > 0 THEN number_habitable_rooms END IGNORE NULLS) OVER w AS habitable_rooms,
  last_value(construction_age_band IGNORE NULLS) OVER w AS construction_age,
  last_value(current_energy_rating IGNORE NULLS) OVER w AS epc_current_rating,
  last_value(potential_energy_rating IGNORE NULLS) OVER w AS epc_potential_rating,
  last_value(current_energy_efficiency IGNORE NULLS) OVER w AS epc_current_efficiency
FROM ref_linked
WHERE uprn IS NOT NULL
WINDOW u AS (PARTITION BY uprn),
  w AS (PARTITION BY uprn ORDER BY lodgement_date, certificate_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
QUALIFY row_number() OVER (PARTITION BY uprn ORDER BY lodgement_date DESC, certificate_id DESC) = 1`;

let db: DuckDBInstance;
let conn: DuckDBConnection;
const q = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];

beforeEach(async () => {
  db = await DuckDBInstance.create(':memory:', { threads: '2' });
  conn = await db.connect();
});
afterEach(() => conn.closeSync());

/**
 * 2,000 addresses (UPRNs 100000 + 7i, one without); 4,000 certificates in two files: their
 * own UPRN in the address base, unknown to it, or missing; 500 re-published in the second
 * file (a changed rating) and 200 twice in the first on the same day; matches for
 * certificates without a known UPRN, most to a home, some to none.
 */
async function loadInputs(): Promise<void> {
  await conn.run(`CREATE TABLE addresses AS
    SELECT CASE WHEN i = 0 THEN NULL ELSE 100000 + i * 7 END::BIGINT AS uprn, 'ADDR ' || i AS address FROM range(2000) t(i)`);
  await createTable(conn, 'stg_epc', stagedColumns(epc, 0));
  const row = (file: number, rating: string) => `SELECT 'C' || lpad(i::VARCHAR, 6, '0') AS certificate_id,
      CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN 900000 + i ELSE 100000 + (i % 1999 + 1) * 7 END::BIGINT AS uprn,
      i || ' HIGH ST' AS address1, NULL AS address2, NULL AS address3, 'BS1 1AA' AS postcode, 'BRISTOL' AS posttown,
      ['House', 'Flat', NULL][1 + i % 3] AS property_type, ['Detached', 'NO DATA!', 'Mid-Terrace', NULL][1 + i % 4] AS built_form,
      CASE WHEN i % 6 = 0 THEN NULL ELSE 40.0 + i % 90 END AS total_floor_area_m2, (i % 7)::INTEGER AS number_habitable_rooms,
      (40 + i % 50)::INTEGER AS current_energy_efficiency, (60 + i % 30)::INTEGER AS potential_energy_efficiency,
      'England and Wales: 1950-1966' AS construction_age_band, ${rating} AS current_energy_rating, 'B' AS potential_energy_rating,
      NULL AS tenure, strftime(DATE '2012-01-01' + (i % 3000)::INTEGER, '%Y-%m-%d') AS lodgement_date, NULL AS inspection_date,
      NULL AS region, 'England' AS country, NULL AS main_fuel, ${file}::INTEGER AS _file_no`;
  await conn.run(`INSERT INTO stg_epc ${row(1, "['C', 'D', 'E'][1 + i % 3]")} FROM range(4000) t(i)`);
  await conn.run(`INSERT INTO stg_epc ${row(1, "'F'")} FROM range(0, 4000, 20) t(i)`);
  await conn.run(`INSERT INTO stg_epc ${row(2, "'A'")} FROM range(0, 4000, 8) t(i)`);
  await conn.run(`CREATE TABLE epc_matches AS
    SELECT 'C' || lpad(i::VARCHAR, 6, '0') AS id, CASE WHEN i % 3 = 0 THEN NULL ELSE 100000 + (i % 1999 + 1) * 7 END::BIGINT AS uprn,
      'street' AS method, 0.9 AS score, NULL AS reason
    FROM range(4000) t(i) WHERE i % 5 IN (0, 1)`);
}

const sameRows = async (table: string, reference: string) => (await q(`SELECT
  (SELECT count(*) FROM (FROM ${table} EXCEPT ALL FROM ${reference}))::INTEGER AS extra,
  (SELECT count(*) FROM (FROM ${reference} EXCEPT ALL FROM ${table}))::INTEGER AS missing`))[0];

describe('certificates built in chunks', () => {
  it('holds the rows of the single statements whatever the number of chunks', async () => {
    await loadInputs();
    await conn.run(REFERENCE_EPC_LINKED);
    await conn.run(REFERENCE_EPC_BY_UPRN);
    // The inputs reach every branch: 4,000 certificates once each; own UPRN known (i % 5 in
    // 2..4), matched (i % 5 in 0, 1 and i % 3 > 0), neither; re-published rows win by file, then
    // by staging order on the same day.
    expect(await q(`SELECT count(*)::INTEGER AS n, count(*) FILTER (WHERE uprn_source = 'certificate')::INTEGER AS own,
      count(*) FILTER (WHERE uprn_source = 'address_match')::INTEGER AS matched, count(*) FILTER (WHERE uprn IS NULL)::INTEGER AS none,
      count(*) FILTER (WHERE current_energy_rating = 'A')::INTEGER AS second_file, count(*) FILTER (WHERE current_energy_rating = 'F')::INTEGER AS same_day
      FROM ref_linked`)).toEqual([{ n: 4000, own: 2400, matched: 1066, none: 534, second_file: 500, same_day: 100 }]);
    for (const chunks of [1, 2, 3, 7]) {
      await buildCertificates(conn, chunks);
      expect(await sameRows('epc_linked', 'ref_linked'), `epc_linked in ${chunks} chunks`).toEqual({ extra: 0, missing: 0 });
      expect(await sameRows('epc_by_uprn', 'ref_by_uprn'), `epc_by_uprn in ${chunks} chunks`).toEqual({ extra: 0, missing: 0 });
    }
    expect((await q(`SELECT count(*)::INTEGER AS n, max(certificate_count)::INTEGER AS most FROM epc_by_uprn`))[0]!.n).toBeGreaterThan(1000);
  });

  it('leaves no macro behind', async () => {
    await loadInputs();
    await buildCertificates(conn, 3);
    expect(await q(`SELECT function_name FROM duckdb_functions() WHERE function_name IN ('epc_link', 'epc_by_uprn_chunk')`)).toEqual([]);
  });

  it('leaves no macro behind when a chunk fails', async () => {
    await loadInputs();
    await conn.run(`DROP TABLE epc_matches`);
    await expect(buildCertificates(conn, 2)).rejects.toThrow(/epc_matches/);
    expect(await q(`SELECT function_name FROM duckdb_functions() WHERE function_name IN ('epc_link', 'epc_by_uprn_chunk')`)).toEqual([]);
  });
});

describe('certificatesChunks', () => {
  it('is one chunk while the certificates take under a third of the limit', () => {
    // 1.18M certificates (1M addresses) × 100 B = 118 MB, under a third of 1 GB (333 MB).
    expect(certificatesChunks(1_180_000, 1e9)).toBe(1);
    expect(certificatesChunks(0, 1e9)).toBe(1);
  });
  it('cuts the certificates into pieces of at most a third of the limit', () => {
    // 118 MB in pieces of 33.3 MB (a third of 100 MB): 3.54, so 4.
    expect(certificatesChunks(1_180_000, 100e6)).toBe(4);
    // 11.8M certificates (10M addresses) under 1 GB: 1.18 GB in pieces of 333 MB: 3.54, so 4.
    expect(certificatesChunks(11_800_000, 1e9)).toBe(4);
  });
});
