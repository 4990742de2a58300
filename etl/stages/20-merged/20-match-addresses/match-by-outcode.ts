import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { normaliseText } from '../../../../schemas/address-normalise.ts';
import { addressBaseKey, type AddressKey } from './keys.ts';
import { AddressMatcher, type Candidate, type MatchResult } from './matcher.ts';
import { queryRows, runSql, sqlText, streamRows } from '../../../pipeline/sql.ts';
import { appendRows, createTable, openAppender, type RowSink, type StageColumn } from '../../../pipeline/load-rows.ts';

/** One record to match: its id, canonical postcode, normalised town and the address parts its key is read from. */
export interface MatchInput {
  id: string;
  postcode: string | undefined;
  town: string;
  parts: readonly (string | undefined)[];
}

/** Records of one kind and the table their matches go to; `keyOf` reads a record's key from its parts. */
export interface MatchSource {
  table: string;
  inputs: AsyncIterable<MatchInput>;
  keyOf: (parts: MatchInput['parts']) => AddressKey;
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
type Input = MatchInput & { src: number };
type Deferred = Input & { streetTown: string };

const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
const RECORD_COLUMNS: StageColumn<Input>[] = [
  { name: 'src', type: 'INTEGER', get: (r) => r.src },
  { name: 'id', type: 'VARCHAR', get: (r) => r.id },
  { name: 'postcode', type: 'VARCHAR', get: (r) => r.postcode },
  { name: 'town', type: 'VARCHAR', get: (r) => r.town },
  { name: 'p1', type: 'VARCHAR', get: (r) => r.parts[0] },
  { name: 'p2', type: 'VARCHAR', get: (r) => r.parts[1] },
  { name: 'p3', type: 'VARCHAR', get: (r) => r.parts[2] },
];
const IN_COLUMNS: StageColumn<Input>[] = [...RECORD_COLUMNS, { name: 'outcode', type: 'VARCHAR', get: (r) => r.postcode?.split(' ')[0] }];
const DEFERRED_COLUMNS: StageColumn<Deferred>[] = [...RECORD_COLUMNS, { name: 'street_town', type: 'VARCHAR', get: (r) => r.streetTown }];
const STREET_KEY_COLUMNS: StageColumn<{ uprn: number; key: string }>[] = [
  { name: 'uprn', type: 'BIGINT', get: (r) => r.uprn },
  { name: 'street_town', type: 'VARCHAR', get: (r) => r.key },
];

function candidate(a: Row): Candidate {
  return { uprn: Number(a.uprn), postcode: String(a.postcode), town: normaliseText(s(a.post_town)), key: addressBaseKey(a as never) };
}

function input(r: Row): Input {
  return { src: Number(r.src), id: String(r.id), postcode: s(r.postcode), town: String(r.town ?? ''), parts: [s(r.p1), s(r.p2), s(r.p3)] };
}

/** The street fallback's lookup key, as AddressMatcher files a candidate under it. */
const streetTown = (street: string, town: string) => `${street}|${town}`;

/**
 * Rows of a stream ordered by a group number `g` (nulls last), handed out one group at a
 * time; only the current group is held. `passed` sees every row, taken or skipped.
 */
class Groups {
  private readonly it: AsyncIterator<Row>;
  private head: Row | undefined;
  private done = false;
  constructor(rows: AsyncIterable<Row>, private readonly passed?: (r: Row) => void) {
    this.it = rows[Symbol.asyncIterator]();
  }
  /** The rows of group `g` (asked for in increasing order); Infinity passes over the rest, keeping none. */
  async take(g: number): Promise<Row[]> {
    const out: Row[] = [];
    for (;;) {
      if (!this.head) {
        if (this.done) return out;
        const n = await this.it.next();
        if (n.done) return ((this.done = true), out);
        this.head = n.value;
      }
      const hg = this.head.g === null ? Infinity : Number(this.head.g);
      if (hg > g) return out;
      if (hg === g && g !== Infinity) out.push(this.head);
      this.passed?.(this.head);
      this.head = undefined;
    }
  }
  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/**
 * Matches each source's records to the address base and writes one row per record into its
 * table (MATCH_COLUMNS): the same rows AddressMatcher gives with every address loaded at
 * once, while holding one outward code's candidates at a time, so memory does not grow with
 * the region.
 *
 * Why an outward code is enough: a record's postcode candidates share its outcode, and while
 * its postcode has addresses the street fallback stays inside that outcode too. Only a record
 * whose postcode has no address (missing, mistyped, terminated) searches its street and town
 * across the whole address base; those are set aside and matched in a second pass over the
 * streets they name, one street at a time (the candidates the whole map would give them).
 * The records, the set-aside ones and the street keys wait in DuckDB tables, which spill.
 * Returns the number of records of each source.
 */
export async function matchByOutcode(db: DuckDBInstance, conn: DuckDBConnection, sources: readonly MatchSource[]): Promise<number[]> {
  await createTable(conn, 'match_in', IN_COLUMNS);
  const counts: number[] = [];
  for (const [src, source] of sources.entries()) counts.push(await appendRows(conn, 'match_in', IN_COLUMNS, tagged(source.inputs, src)));
  // Each open appender on a connection of its own.
  const conns = [conn, ...(await Promise.all(sources.slice(1).map(() => db.connect())))];
  const side = await db.connect();
  const deferredConn = await db.connect();
  conns.push(deferredConn);
  const sinks: RowSink<unknown>[] = [];
  try {
    // The street keys are a function of the address base: written once per build, while the
    // first matching reads every address anyway.
    const [has] = await queryRows(conn, sqlText('match_street_keys_exists'));
    const writeKeys = Number(has?.n) === 0;
    if (writeKeys) await createTable(side, 'match_street_keys', STREET_KEY_COLUMNS);
    await createTable(conn, 'match_deferred', DEFERRED_COLUMNS);
    for (const [i, source] of sources.entries()) await createTable(conns[i]!, source.table, MATCH_COLUMNS);
    // Tables made, then the appenders opened: nothing else runs on their connections meanwhile.
    const open = async <R>(c: DuckDBConnection, table: string, columns: StageColumn<R>[]): Promise<RowSink<R>> => {
      const sink = await openAppender(c, table, columns);
      sinks.push(sink as RowSink<unknown>);
      return sink;
    };
    const outs: RowSink<MatchRow>[] = [];
    for (const [i, source] of sources.entries()) outs.push(await open(conns[i]!, source.table, MATCH_COLUMNS));
    const keys = writeKeys ? await open(side, 'match_street_keys', STREET_KEY_COLUMNS) : undefined;
    const deferred = await open(deferredConn, 'match_deferred', DEFERRED_COLUMNS);
    const keyOf = (r: Input) => sources[r.src]!.keyOf(r.parts);
    let nDeferred = 0;

    // Pass 1: one outcode's candidates at a time.
    let matcher = new AddressMatcher();
    const cands = new Groups(streamRows(db, sqlText(writeKeys ? 'match_groups_candidates_all' : 'match_groups_candidates')), (a) => {
      if (!keys) return;
      const street = normaliseText(s(a.street_name));
      if (street) keys.add({ uprn: Number(a.uprn), key: streetTown(street, normaliseText(s(a.post_town))) });
    });
    try {
      let group: number | undefined;
      for await (const r of streamRows(db, sqlText('match_groups_inputs'))) {
        const g = r.g === null ? undefined : Number(r.g);
        if (g !== undefined && g !== group) {
          group = g;
          matcher = new AddressMatcher();
          for (const a of await cands.take(g)) matcher.add(candidate(a));
        }
        const rec = input(r);
        const key = keyOf(rec);
        const local = g !== undefined && rec.postcode !== undefined && matcher.hasPostcode(rec.postcode);
        // A record without a street never reaches the cross-outcode search: decided here.
        if (local || !key.street) outs[rec.src]!.add({ id: rec.id, result: (local ? matcher : EMPTY).match(rec.postcode, rec.town, key) });
        else {
          deferred.add({ ...rec, streetTown: streetTown(key.street, rec.town) });
          nDeferred++;
        }
      }
      await cands.take(Infinity); // the rest of the street keys
    } finally {
      await cands.close();
    }
    keys?.close();
    deferred.close();

    // Pass 2: the set-aside records, one street (and town) at a time.
    if (nDeferred > 0) {
      const streets = new Groups(streamRows(db, sqlText('match_street_candidates')));
      try {
        let group: number | undefined;
        for await (const r of streamRows(db, sqlText('match_street_inputs'))) {
          const g = Number(r.g);
          if (g !== group) {
            group = g;
            matcher = new AddressMatcher();
            for (const a of await streets.take(g)) matcher.add(candidate(a));
          }
          const rec = input(r);
          outs[rec.src]!.add({ id: rec.id, result: matcher.match(rec.postcode, rec.town, keyOf(rec)) });
        }
      } finally {
        await streets.close();
      }
    }
    for (const o of outs) o.close();
  } finally {
    for (const k of sinks) k.close();
    for (const c of conns.slice(1)) c.closeSync();
    side.closeSync();
  }
  for (const t of ['match_in', 'match_deferred']) await runSql(conn, `drop_${t}`);
  return counts;
}

/** No candidates: the answer for a record whose postcode has no address and that names no street. */
const EMPTY = new AddressMatcher();

async function* tagged(inputs: AsyncIterable<MatchInput>, src: number): AsyncGenerator<Input> {
  for await (const i of inputs) yield { ...i, src };
}
