import { addressBaseKey, normalise, recordKey, type KeyKind } from './keys.ts';
import { AddressMatcher, type Candidate, type MatchResult } from './matcher.ts';

/** A row as DuckDB streams it (JSON-safe values); the structured clone a worker receives keeps it as is. */
export type Row = Record<string, string | number | boolean | null>;

/** One record to match: source number, id, canonical postcode, normalised town, address parts. */
export interface Input {
  src: number;
  id: string;
  postcode: string | undefined;
  town: string;
  parts: readonly (string | undefined)[];
}

/**
 * A batch of whole groups (outward codes in the first pass, streets in the second): the
 * candidate rows read since the last batch, each with its group number `g`, and the records
 * of those groups in stream order. Only plain data, so a worker thread can take it.
 */
export interface MatchJob {
  /**
   * `outcode`: a record whose postcode has no address (and that names a street) waits for the
   * street pass. `postcode`: the same, and a record its postcode's addresses leave undecided
   * waits for an `outcode` pass over its outcode's streets (the candidates are its postcode's
   * addresses only). `street`: every record is decided.
   */
  pass: 'outcode' | 'postcode' | 'street';
  /** The key kind of each source, by its number (`src`). */
  kinds: readonly KeyKind[];
  /** Whether to derive the street key of every candidate row (the first full read of the address base). */
  streetKeys: boolean;
  candidates: Row[];
  records: Row[];
}

export interface MatchJobResult {
  /** Per record, in order: its result, the street key (`STREET|TOWN`) it waits on for the street pass, or null: it waits for its outcode's streets. */
  outcomes: (MatchResult | string | null)[];
  /** With `streetKeys`: the UPRN and street key of each candidate row that has a street, in row order. */
  keyUprns: number[];
  keys: string[];
}

const s = (v: unknown) => (v === null || v === undefined ? undefined : String(v));

/** The street fallback's lookup key, as AddressMatcher files a candidate under it. */
export const streetTown = (street: string, town: string) => `${street}|${town}`;

export function candidate(a: Row): Candidate {
  return { uprn: Number(a.uprn), postcode: String(a.postcode), town: normalise(s(a.post_town)), key: addressBaseKey(a as never) };
}

/** A record of the work table (match_in, match_deferred: the town as the source writes it) as the matcher reads it. */
export function input(r: Row): Input {
  return { src: Number(r.src), id: String(r.id), postcode: s(r.postcode), town: normalise(s(r.town)), parts: [s(r.p1), s(r.p2), s(r.p3)] };
}

/** No candidates: the answer for a record whose postcode has no address and that names no street. */
const EMPTY = new AddressMatcher();

/**
 * Matches one batch: a pure function of the job, run in this thread (ETL_MATCH_THREADS=1) or
 * in a worker (match-worker.ts), so both give the same outcomes. Each group's matcher holds
 * that group's candidates only.
 */
export function runMatchJob(job: MatchJob): MatchJobResult {
  const keyUprns: number[] = [];
  const keys: string[] = [];
  const byGroup = new Map<number, Row[]>();
  for (const a of job.candidates) {
    if (job.streetKeys) {
      const street = normalise(s(a.street_name));
      if (street) {
        keyUprns.push(Number(a.uprn));
        keys.push(streetTown(street, normalise(s(a.post_town))));
      }
    }
    if (a.g === null) continue;
    const g = Number(a.g);
    const rows = byGroup.get(g);
    if (rows) rows.push(a);
    else byGroup.set(g, [a]);
  }
  const outcomes: (MatchResult | string | null)[] = [];
  let group: number | undefined;
  let matcher = EMPTY;
  for (const r of job.records) {
    const g = r.g === null ? undefined : Number(r.g);
    if (g !== undefined && g !== group) {
      group = g;
      matcher = new AddressMatcher();
      for (const a of byGroup.get(g) ?? []) matcher.add(candidate(a));
    }
    const rec = input(r);
    const key = recordKey(job.kinds[rec.src]!, rec.parts);
    if (job.pass === 'street') {
      outcomes.push(matcher.match(rec.postcode, rec.town, key));
      continue;
    }
    const local = g !== undefined && rec.postcode !== undefined && matcher.hasPostcode(rec.postcode);
    // A record without a street never reaches the cross-outcode search: decided here.
    if (local && job.pass === 'postcode') outcomes.push(matcher.decideInPostcode(rec.postcode, key) ?? null);
    else if (local || !key.street) outcomes.push((local ? matcher : EMPTY).match(rec.postcode, rec.town, key));
    else outcomes.push(streetTown(key.street, rec.town));
  }
  return { outcomes, keyUprns, keys };
}
