import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { normalisePostcode } from '../../../../schemas/address-normalise.ts';
import { plainIdentifier } from '../../../../schemas/sql-identifier.ts';
import { normalise, recordKey, type KeyKind } from './keys.ts';
import { streetTown } from './match-job.ts';
import { appendRows, createTable, loadRows, type StageColumn } from '../../../pipeline/load-rows.ts';
import { queryRows, sqlFolder, streamRows } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/**
 * Records of one kind and the table their matches go to. `sql` selects one row per record:
 * the column `id` names, `postcode` and `town` as the source writes them, and the address
 * part columns `parts` (at most three) in the order the key kind reads them (keys.ts recordKey).
 */
export interface MatchSource {
  table: string;
  key: KeyKind;
  sql: string;
  id: string;
  parts: readonly string[];
}

/** The matcher's work table: the records of every source, numbered `src` by their source's place. */
const IN_COLUMNS: readonly { name: string; type: 'VARCHAR' | 'INTEGER' }[] = [
  { name: 'src', type: 'INTEGER' },
  ...['id', 'postcode', 'town', 'p1', 'p2', 'p3', 'outcode', 'street_town'].map((name) => ({ name, type: 'VARCHAR' as const })),
];

/** The source's columns under the names match_in_records reads (names checked, the query itself the caller's). */
function sourceView(source: MatchSource): string {
  if (source.parts.length > 3) throw new Error(`at most three address parts, not ${source.parts.length}`);
  [source.id, ...source.parts].forEach(plainIdentifier);
  const parts = [0, 1, 2].map((i) => `${source.parts[i] ? `q.${source.parts[i]}` : 'NULL'}::VARCHAR AS p${i + 1}`);
  return `CREATE OR REPLACE TEMP VIEW match_source AS SELECT q.${source.id}::VARCHAR AS id, q.postcode::VARCHAR AS postcode, q.town::VARCHAR AS town, ${parts.join(', ')} FROM (${source.sql}) q`;
}

/**
 * Fills `match_in` (created here) with every source's records in DuckDB, one INSERT per
 * source, instead of streaming them through JS and back (about 12 s at 1M addresses): the
 * postcode made canonical in SQL, equal to normalisePostcode (the few non-ASCII ones by the
 * JS function itself), the town left for the matching jobs to normalise. With `streetKeys`
 * (the street keys already written, so the candidates are read by the streets the records
 * name), each record's street key is derived in JS (keys.ts recordKey): a refresh's few
 * changed records. Returns the number of records of each source.
 */
export async function loadMatchIn(db: DuckDBInstance, conn: DuckDBConnection, sources: readonly MatchSource[], streetKeys: boolean): Promise<number[]> {
  await createTable(conn, 'match_in', IN_COLUMNS);
  const counts: number[] = [];
  for (const [src, source] of sources.entries()) {
    await conn.run(sourceView(source));
    counts.push((await conn.run(sql.text('match_in_records'), { src })).rowsChanged);
  }
  await conn.run('DROP VIEW IF EXISTS match_source');
  const odd = await queryRows(conn, sql.text('match_in_postcodes_non_ascii'));
  if (odd.length > 0) {
    const raw = odd.map((r) => String(r.postcode));
    await loadRows(conn, 'match_in_postcode_js', POSTCODE_JS, raw);
    await sql.run(conn, 'match_in_postcode_fix');
    await sql.run(conn, 'drop_match_in_postcode_js');
  }
  if (streetKeys) {
    const kinds = sources.map((s) => s.key);
    await createTable(conn, 'match_in_street_js', STREET_JS);
    await appendRows(conn, 'match_in_street_js', STREET_JS, streets(db, kinds));
    await sql.run(conn, 'match_in_street_fix');
    await sql.run(conn, 'drop_match_in_street_js');
  }
  return counts;
}

const POSTCODE_JS: StageColumn<string>[] = [
  { name: 'raw', type: 'VARCHAR', get: (r) => r },
  { name: 'postcode', type: 'VARCHAR', get: (r) => normalisePostcode(r) },
];
const STREET_JS: StageColumn<{ n: string; key: string }>[] = [
  { name: 'n', type: 'BIGINT', get: (r) => r.n },
  { name: 'street_town', type: 'VARCHAR', get: (r) => r.key },
];

const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

/** Each record that names a street: its row number and street key (STREET|TOWN), as the matching jobs derive them. */
async function* streets(db: DuckDBInstance, kinds: readonly KeyKind[]): AsyncGenerator<{ n: string; key: string }> {
  for await (const r of streamRows(db, sql.text('match_in_street_inputs'))) {
    const street = recordKey(kinds[Number(r.src)]!, [s(r.p1), s(r.p2), s(r.p3)]).street;
    if (street) yield { n: String(r.n), key: streetTown(street, normalise(s(r.town))) };
  }
}
