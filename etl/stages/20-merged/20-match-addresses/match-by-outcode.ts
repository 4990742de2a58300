import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { normaliseText } from '../../../../schemas/address-normalise.ts';
import { addressBaseKey, type AddressKey } from './keys.ts';
import { AddressMatcher, type Candidate, type MatchResult } from './matcher.ts';
import { runSql, sqlText, streamRows } from '../../../pipeline/sql.ts';
import { createTable, loadRows, openAppender, type StageColumn } from '../../../pipeline/load-rows.ts';

/** One record to match: its id, canonical postcode, normalised town and the address parts its key is read from. */
export interface MatchInput {
  id: string;
  postcode: string | undefined;
  town: string;
  parts: readonly (string | undefined)[];
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

type Row = Record<string, string | number | boolean | null>;
type Deferred = MatchInput & { streetTown: string };

const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const IN_COLUMNS: StageColumn<MatchInput>[] = [
  { name: 'id', type: 'VARCHAR', get: (r) => r.id },
  { name: 'postcode', type: 'VARCHAR', get: (r) => r.postcode },
  { name: 'outcode', type: 'VARCHAR', get: (r) => r.postcode?.split(' ')[0] },
  { name: 'town', type: 'VARCHAR', get: (r) => r.town },
  { name: 'p1', type: 'VARCHAR', get: (r) => r.parts[0] },
  { name: 'p2', type: 'VARCHAR', get: (r) => r.parts[1] },
  { name: 'p3', type: 'VARCHAR', get: (r) => r.parts[2] },
];
const DEFERRED_COLUMNS: StageColumn<Deferred>[] = [
  ...(IN_COLUMNS as StageColumn<Deferred>[]).filter((c) => c.name !== 'outcode'),
  { name: 'street_town', type: 'VARCHAR', get: (r) => r.streetTown },
];
const STREET_KEY_COLUMNS: StageColumn<{ uprn: string; key: string }>[] = [
  { name: 'uprn', type: 'BIGINT', get: (r) => r.uprn },
  { name: 'street_town', type: 'VARCHAR', get: (r) => r.key },
];

function candidate(a: Row): Candidate {
  return { uprn: Number(a.uprn), postcode: String(a.postcode), town: normaliseText(s(a.post_town)), key: addressBaseKey(a as never) };
}

function input(r: Row): MatchInput {
  return { id: String(r.id), postcode: s(r.postcode), town: String(r.town ?? ''), parts: [s(r.p1), s(r.p2), s(r.p3)] };
}

/** The street fallback's lookup key, as AddressMatcher files a candidate under it. */
const streetTown = (street: string, town: string) => `${street}|${town}`;

/**
 * Rows of a stream ordered by a group number `g`, handed out one group at a time. Groups the
 * caller never asks for are skipped; only the current group is held.
 */
class Groups {
  private readonly it: AsyncIterator<Row>;
  private head: Row | undefined;
  private done = false;
  constructor(rows: AsyncIterable<Row>) {
    this.it = rows[Symbol.asyncIterator]();
  }
  /** The rows of group `g` (groups are asked for in increasing order). */
  async take(g: number): Promise<Row[]> {
    const out: Row[] = [];
    for (;;) {
      if (!this.head) {
        if (this.done) return out;
        const n = await this.it.next();
        if (n.done) return ((this.done = true), out);
        this.head = n.value;
      }
      const hg = Number(this.head.g);
      if (hg > g) return out;
      if (hg === g) out.push(this.head);
      this.head = undefined;
    }
  }
  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/**
 * Matches `inputs` to the address base and writes one row per input into `table`
 * (MATCH_COLUMNS): the same rows AddressMatcher gives with every address loaded at once, while
 * holding one outward code's candidates at a time, so memory does not grow with the region.
 *
 * Why an outward code is enough: a record's postcode candidates share its outcode, and while
 * its postcode has addresses the street fallback stays inside that outcode too. Only a record
 * whose postcode has no address (missing, mistyped, terminated) searches its street and town
 * across the whole address base; those are set aside and matched in a second pass over the
 * streets they name, one street at a time (the same candidates the whole map would give).
 * The inputs, the set-aside records and the street keys wait in DuckDB tables, which spill.
 */
export async function matchByOutcode(
  db: DuckDBInstance, conn: DuckDBConnection, table: string,
  inputs: AsyncIterable<MatchInput>, keyOf: (parts: MatchInput['parts']) => AddressKey,
): Promise<number> {
  const count = await loadRows(conn, 'match_in', IN_COLUMNS, inputs);
  await createTable(conn, table, MATCH_COLUMNS);
  await createTable(conn, 'match_deferred', DEFERRED_COLUMNS);
  const side = await db.connect();
  const out = await openAppender(conn, table, MATCH_COLUMNS);
  const deferred = await openAppender(side, 'match_deferred', DEFERRED_COLUMNS);
  let nDeferred = 0;
  try {
    // Pass 1: one outcode's candidates at a time.
    const cands = new Groups(streamRows(db, sqlText('match_groups_candidates')));
    let group: number | undefined;
    let matcher = new AddressMatcher();
    try {
      for await (const r of streamRows(db, sqlText('match_groups_inputs'))) {
        const g = r.g === null ? undefined : Number(r.g);
        if (g !== undefined && g !== group) {
          group = g;
          matcher = new AddressMatcher();
          for (const a of await cands.take(g)) matcher.add(candidate(a));
        }
        const rec = input(r);
        const key = keyOf(rec.parts);
        const local = g !== undefined && rec.postcode !== undefined && matcher.hasPostcode(rec.postcode);
        // A record without a street never reaches the cross-outcode search: decided here.
        if (local || !key.street) out.add({ id: rec.id, result: (local ? matcher : EMPTY).match(rec.postcode, rec.town, key) });
        else {
          deferred.add({ ...rec, streetTown: streetTown(key.street, rec.town) });
          nDeferred++;
        }
      }
    } finally {
      await cands.close();
    }
    deferred.close();
    // Pass 2: the set-aside records, one street (and town) at a time.
    if (nDeferred > 0) {
      await loadRows(side, 'match_street_keys', STREET_KEY_COLUMNS, streetKeys(db));
      const streets = new Groups(streamRows(db, sqlText('match_street_candidates')));
      try {
        group = undefined;
        for await (const r of streamRows(db, sqlText('match_street_inputs'))) {
          const g = Number(r.g);
          if (g !== group) {
            group = g;
            matcher = new AddressMatcher();
            for (const a of await streets.take(g)) matcher.add(candidate(a));
          }
          const rec = input(r);
          out.add({ id: rec.id, result: matcher.match(rec.postcode, rec.town, keyOf(rec.parts)) });
        }
      } finally {
        await streets.close();
      }
    }
    out.close();
  } finally {
    out.close();
    deferred.close();
    side.closeSync();
  }
  for (const t of ['match_in', 'match_deferred', 'match_street_keys']) await runSql(conn, `drop_${t}`);
  return count;
}

/** No candidates: the answer for a record whose postcode has no address and that names no street. */
const EMPTY = new AddressMatcher();

async function* streetKeys(db: DuckDBInstance): AsyncGenerator<{ uprn: string; key: string }> {
  for await (const a of streamRows(db, sqlText('match_street_keys_rows'))) {
    const street = normaliseText(s(a.street_name));
    if (street) yield { uprn: String(a.uprn), key: streetTown(street, normaliseText(s(a.post_town))) };
  }
}
