import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlFolder } from '../../../pipeline/sql.ts';
import type { AreaPath } from '../../../../lib/valuation/sale-model.ts';

/** The statements beside this module. */
const sql = sqlFolder(import.meta.dirname);

const textOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

/**
 * The homes' area paths and construction age bands by id, for the stages that write the sale
 * valuer's files (valuation-homes, sale-evidence): `home_paths` and `home_ages` made from
 * `properties` (home_paths_table.sql: the ids the service's dense ranks give), read back by id,
 * the view `homes_keyed` of every home with its ids, all dropped again by `dropHomeKeys`.
 */
export async function homeKeys(conn: DuckDBConnection): Promise<{ paths: AreaPath[]; ages: (string | null)[] }> {
  await sql.run(conn, 'home_paths_table');
  await sql.run(conn, 'home_ages_table');
  await sql.run(conn, 'homes_keyed_view');
  const paths: AreaPath[] = [];
  for (const r of await queryRows(conn, sql.text('home_path_rows'))) {
    paths[Number(r.path_id)] = { sector: textOrNull(r.sector), outcode: textOrNull(r.outcode), district: textOrNull(r.la_code), country: textOrNull(r.country) };
  }
  const ages: (string | null)[] = [];
  for (const r of await queryRows(conn, sql.text('home_age_rows'))) ages[Number(r.age_id)] = textOrNull(r.construction_age);
  return { paths, ages };
}

export async function dropHomeKeys(conn: DuckDBConnection): Promise<void> {
  await sql.run(conn, 'home_keys_drop');
}
