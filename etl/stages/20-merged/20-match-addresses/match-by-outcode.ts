import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { MatchResult } from './matcher.ts';
import { loadMatchIn, type MatchSource } from './match-in.ts';
import type { MatchJob, MatchJobResult, Row } from './match-job.ts';
import { inThread, matchThreads, workerThreads } from './match-threads.ts';
import { queryRows, sqlFolder, streamRows } from '../../../pipeline/sql.ts';
import { createTable, openAppender, type RowSink, type StageColumn } from '../../../pipeline/load-rows.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

export type { MatchSource } from './match-in.ts';

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

/** A record as the work table holds it (match_in: town as written), set aside for the street pass under its street key. */
type Deferred = { row: Row; streetTown: string };
const DEFERRED_COLUMNS: StageColumn<Deferred>[] = [
  { name: 'src', type: 'INTEGER', get: (d) => d.row.src },
  ...(['id', 'postcode', 'town', 'p1', 'p2', 'p3'] as const).map((name) => ({ name, type: 'VARCHAR' as const, get: (d: Deferred) => d.row[name] })),
  { name: 'street_town', type: 'VARCHAR', get: (d) => d.streetTown },
];
/** A record the postcode pass left undecided (match_in's columns, as match_groups_inputs reads them). */
const UNDECIDED_COLUMNS: StageColumn<Row>[] = [
  { name: 'src', type: 'INTEGER', get: (r) => r.src },
  ...(['id', 'postcode', 'town', 'p1', 'p2', 'p3', 'outcode', 'street_town'] as const).map((name) => ({ name, type: 'VARCHAR' as const, get: (r: Row) => r[name] })),
];
const STREET_KEY_COLUMNS: StageColumn<{ uprn: number; key: string }>[] = [
  { name: 'uprn', type: 'BIGINT', get: (r) => r.uprn },
  { name: 'street_town', type: 'VARCHAR', get: (r) => r.key },
];

/** Records plus candidate rows per job: a message costs little against the matching, and the few in flight hold little. */
const JOB_ROWS = 20_000;
/** Fewer records than this (a refresh's few changed rows) match in this thread unless the whole address base is read: starting workers would cost more. */
const MIN_RECORDS_FOR_THREADS = 2_000;

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
  /** Passes over up to `max` more rows, whatever their group (each seen by `passed`, none kept); false once none are left. */
  async pass(max: number): Promise<boolean> {
    for (let n = 0; n < max; n++) {
      if (!this.head) {
        if (this.done) return false;
        const next = await this.it.next();
        if (next.done) return ((this.done = true), false);
        this.head = next.value;
      }
      this.passed?.(this.head);
      this.head = undefined;
    }
    return true;
  }
  async close(): Promise<void> {
    await this.it.return?.();
  }
}

export interface MatchOptions {
  /** Worker threads (1: this thread); default ETL_MATCH_THREADS, else 1. */
  threads?: number;
  /** Records plus candidate rows per job (default JOB_ROWS); tests make it small to run many jobs. */
  jobRows?: number;
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
 *
 * This thread reads the rows and writes the results; the keying and matching run in jobs of
 * whole groups (match-job.ts) on worker threads (match-threads.ts; ETL_MATCH_THREADS, default
 * 1: this thread), each holding only its jobs' candidates. Results are written in job order, so the
 * tables are the same, row for row and in order, whatever the number of threads.
 * Returns the number of records of each source.
 */
export async function matchByOutcode(
  db: DuckDBInstance, conn: DuckDBConnection, sources: readonly MatchSource[], opts: MatchOptions = {},
): Promise<number[]> {
  // The street keys are a function of the address base: written once per build, while the
  // first matching reads every address anyway. Once written, only the addresses the records
  // can meet are read: those in their postcodes and on their streets (match_groups_candidates).
  const [has] = await queryRows(conn, sql.text('match_street_keys_exists'));
  const writeKeys = Number(has?.n) === 0;
  const counts = await loadMatchIn(db, conn, sources, !writeKeys);
  // Each open appender on a connection of its own.
  const conns = [conn, ...(await Promise.all(sources.slice(1).map(() => db.connect())))];
  const side = await db.connect();
  const deferredConn = await db.connect();
  conns.push(deferredConn);
  const undecidedConn = writeKeys ? undefined : await db.connect();
  if (undecidedConn) conns.push(undecidedConn);
  const sinks: RowSink<unknown>[] = [];
  const kinds = sources.map((source) => source.key);
  const threads = opts.threads ?? matchThreads();
  const records = counts.reduce((a, b) => a + b, 0);
  const runner = threads > 1 && (writeKeys || records >= MIN_RECORDS_FOR_THREADS) ? workerThreads(threads) : inThread();
  try {
    if (writeKeys) await createTable(side, 'match_street_keys', STREET_KEY_COLUMNS);
    await createTable(conn, 'match_deferred', DEFERRED_COLUMNS);
    if (undecidedConn) await createTable(conn, 'match_undecided', UNDECIDED_COLUMNS);
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
    let nDeferred = 0;
    const undecided = undecidedConn ? await open(undecidedConn, 'match_undecided', UNDECIDED_COLUMNS) : undefined;

    // Jobs run here or on the workers; their results are written in the order the jobs were
    // made, so every table gets its rows in the order one thread would write them.
    const inflight: { job: MatchJob; done: Promise<MatchJobResult> }[] = [];
    let write: (job: MatchJob, r: MatchJobResult) => void;
    const settle = async () => {
      const { job, done } = inflight.shift()!;
      write(job, await done);
    };
    const submit = async (job: MatchJob) => {
      const done = runner.run(job);
      done.catch(() => undefined); // awaited in turn by settle; not unhandled meanwhile
      inflight.push({ job, done });
      while (inflight.length > runner.depth) await settle();
    };
    const newJob = (pass: MatchJob['pass']): MatchJob => ({ pass, kinds, streetKeys: pass === 'outcode' && writeKeys, candidates: [], records: [] });
    const jobRows = opts.jobRows ?? JOB_ROWS;
    const full = (job: MatchJob) => job.records.length + job.candidates.length >= jobRows;

    // Pass 1: whole outcodes per job, each matched against its own candidates.
    let nUndecided = 0;
    write = (job, r) => {
      for (let i = 0; i < r.keys.length; i++) keys!.add({ uprn: r.keyUprns[i]!, key: r.keys[i]! });
      job.records.forEach((row, i) => {
        const o = r.outcomes[i]!;
        if (o === null) {
          undecided!.add(row);
          nUndecided++;
        } else if (typeof o === 'string') {
          deferred.add({ row, streetTown: o });
          nDeferred++;
        } else outs[Number(row.src)]!.add({ id: String(row.id), result: o });
      });
    };
    const outcodePass = async (pass: 'outcode' | 'postcode', candidates: string) => {
      let job = newJob(pass);
      // Reading every address (to key its street), every row passed goes to the job being made.
      const cands = new Groups(streamRows(db, sql.text(candidates)), writeKeys ? (a) => job.candidates.push(a) : undefined);
      try {
        let group: number | undefined;
        for await (const r of streamRows(db, sql.text('match_groups_inputs'))) {
          const g = r.g === null ? undefined : Number(r.g);
          // A job ends between outcodes (records of no outcode have no candidates: anywhere).
          if ((g === undefined || g !== group) && full(job)) {
            await submit(job);
            job = newJob(pass);
          }
          if (g !== undefined && g !== group) {
            group = g;
            const taken = await cands.take(g);
            if (!writeKeys) for (const a of taken) job.candidates.push(a);
          }
          job.records.push(r);
        }
        // The rest of the street keys.
        if (writeKeys) {
          while (await cands.pass(jobRows)) {
            await submit(job);
            job = newJob(pass);
          }
        }
        await submit(job);
        while (inflight.length > 0) await settle();
      } finally {
        await cands.close();
      }
    };
    if (writeKeys) await outcodePass('outcode', 'match_groups_candidates_all');
    else {
      // The street keys known, most records (a refresh's, the listings') are decided by their
      // postcode's addresses alone: only the few left undecided read their outcodes' streets,
      // which at 1M addresses were half the address base for 10,000 new sales.
      await outcodePass('postcode', 'match_groups_candidates_postcode');
      undecided!.close();
      if (nUndecided > 0) {
        await sql.run(conn, 'match_in_from_undecided');
        await outcodePass('outcode', 'match_groups_candidates');
      }
    }
    keys?.close();
    deferred.close();

    // Pass 2: the set-aside records, whole streets (and towns) per job.
    if (nDeferred > 0) {
      write = (job, r) => job.records.forEach((row, i) => outs[Number(row.src)]!.add({ id: String(row.id), result: r.outcomes[i] as MatchResult }));
      let job = newJob('street');
      const streets = new Groups(streamRows(db, sql.text('match_street_candidates')));
      try {
        let group: number | undefined;
        for await (const r of streamRows(db, sql.text('match_street_inputs'))) {
          const g = Number(r.g);
          if (g !== group) {
            if (full(job)) {
              await submit(job);
              job = newJob('street');
            }
            group = g;
            for (const a of await streets.take(g)) job.candidates.push(a);
          }
          job.records.push(r);
        }
        await submit(job);
        while (inflight.length > 0) await settle();
      } finally {
        await streets.close();
      }
    }
    for (const o of outs) o.close();
  } finally {
    await runner.close();
    for (const k of sinks) k.close();
    for (const c of conns.slice(1)) c.closeSync();
    side.closeSync();
  }
  for (const t of ['match_in', 'match_deferred', 'match_undecided']) await sql.run(conn, `drop_${t}`);
  return counts;
}
