/**
 * The file-backed ledger (DESIGN.md section 4; docs/ledger.md). One process owns a ledger
 * directory (lock.ts). State lives in memory (state.ts); every change is applied there and
 * appended to the log in the same synchronous step, and the caller's promise resolves only
 * once the record is fsynced (log-writer.ts, group commit); opening replays the directory
 * (replay.ts). Reservations are memory-only holds: they exist to stop concurrent requests
 * over-spending, and a crash simply drops them.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  applyUpgrade,
  cycleIndexAt,
  remainingCredits,
  scheduleDowngrade,
} from '../domain/billing.ts';
import type { RateLimit, Tier } from '../../schemas/plans.ts';
import { MAX_KEY_LENGTH, generateApiKey, hashApiKey, hashesEqual, newId } from './keys.ts';
import { checkCost, checkNewAccount, checkTier, planChange } from './checks.ts';
import { LedgerError, LedgerUnavailableError } from './errors.ts';
import { acquireLock } from './lock.ts';
import { LogWriter } from './log-writer.ts';
import { upgradeRecord, type LedgerRecord } from './records.ts';
import { accountView, usageReport, type UsageRow } from './view.ts';
import { cutBackTo, loadDir, type OpenReport } from './replay.ts';
import { idempotencyId, type LedgerState, type AccountRec, type HitLog } from './state.ts';
import {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotencyClaim,
  type IdempotentAnswer,
  type AccountView,
  type ChargeMeta,
  type LedgerHealth,
  type KeyPrincipal,
  type Ledger,
  type Reservation,
  type ReserveResult,
  type UsageQuery,
  type UsageReport,
} from './types.ts';

export interface FileLedgerOptions {
  /** The ledger directory itself, normally `${DATA_DIR}/ledger` (see `ledgerDir`). */
  dir: string;
  /** Used where no `now` is passed in (the admin socket). */
  clock?: () => Date;
  /** Take a snapshot and start a new segment after this many records. */
  snapshotEvery?: number;
  /** Snapshot on close so the next start replays nothing (default true). */
  snapshotOnClose?: boolean;
}

export interface FileLedger extends Ledger {
  // Answered from memory, synchronously.
  authenticate(apiKey: string): KeyPrincipal | undefined;
  account(accountId: string, now: Date): AccountView | undefined;
  authenticateAccount(apiKey: string, now: Date): { principal: KeyPrincipal; account: AccountView } | undefined;
  reserve(accountId: string, cost: number, now: Date): ReserveResult;
  release(reservation: Reservation): void;
  usage(q: UsageQuery, now: Date): UsageReport;
  listAccounts(now: Date): AccountView[];
  claimIdempotency(accountId: string, key: string, fingerprint: string, now: Date): IdempotencyClaim;
  releaseIdempotency(accountId: string, key: string): void;
  /**
   * Logs a request the rate window accepted (a `hit` record), so the window is rebuilt after a
   * restart (`recentHits`). Resolves once durable; rejects while writes fail.
   */
  recordHit(accountId: string, rateKey: string, windowMs: number, now: Date): Promise<void>;
  /** The accepted times per rate key as the log holds them (read at open to seed the window). */
  recentHits(): ReadonlyMap<string, HitLog>;
  readonly dir: string;
  readonly clock: () => Date;
  readonly opened: OpenReport;
  /** Write a snapshot now and start a new segment (compacting the old ones). */
  snapshot(): Promise<void>;
  stats(): {
    accounts: number; records: number; batches: number; fsyncs: number; held: number; segment: number;
    /** False while writes fail; `recoveries` counts the times writes came back. */
    writable: boolean; write_failures: number; recoveries: number;
  };
}

/** How often a ledger whose writes fail tries again (on demand, never more often). */
export type { OpenReport };

export const LEDGER_RETRY_MS = 1000;

export const ledgerDir = (dataDir: string) => join(dataDir, 'ledger');

export async function openFileLedger(opts: FileLedgerOptions): Promise<FileLedger> {
  const dir = opts.dir;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const lock = await acquireLock(dir);
  try {
    const { state, report, tail } = await loadDir(dir);
    const writer = await LogWriter.open(dir, tail.n, tail.size);
    return new FileLedgerImpl(dir, opts, state, writer, lock.release, tail.n, report);
  } catch (e) {
    await lock.release();
    throw e;
  }
}

class FileLedgerImpl implements FileLedger {
  readonly clock: () => Date;
  private readonly held = new Map<string, number>();
  private readonly reservations = new Map<string, Reservation>();
  /** Idempotency keys held by requests running now (`account \t key` → fingerprint): memory only, one process. */
  private readonly claims = new Map<string, string>();
  private nextReservation = 1;
  private sinceSnapshot = 0;
  private closed = false;
  private readonly snapshotEvery: number;
  private recovering: Promise<void> | undefined;
  private lastRecoveryAttempt = 0;
  /** Times a failed writer was replaced by a working one. */
  private recoveries = 0;

  constructor(
    readonly dir: string,
    private readonly opts: FileLedgerOptions,
    /** Replaced, with the writer, when the ledger recovers from failed writes (reloaded from disk). */
    private state: LedgerState,
    private writer: LogWriter,
    private readonly releaseLock: () => Promise<void>,
    /** Segment that newly appended records go to (rotations queued so far included). */
    private segmentHead: number,
    readonly opened: OpenReport,
  ) {
    this.clock = opts.clock ?? (() => new Date());
    this.snapshotEvery = opts.snapshotEvery ?? 100_000;
    this.sinceSnapshot = opened.recordsReplayed;
  }

  // --- keys -------------------------------------------------------------------------

  authenticate(apiKey: string): KeyPrincipal | undefined {
    if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > MAX_KEY_LENGTH) return undefined;
    const hash = hashApiKey(apiKey);
    const k = this.state.activeByHash.get(hash);
    if (!k || !hashesEqual(k.hash, hash)) return undefined;
    return { account_id: k.account_id, key_id: k.key_id };
  }

  authenticateAccount(apiKey: string, now: Date): { principal: KeyPrincipal; account: AccountView } | undefined {
    const principal = this.authenticate(apiKey);
    const account = principal && this.account(principal.account_id, now);
    return account && { principal: principal!, account };
  }

  // --- accounts and credits -------------------------------------------------------

  account(accountId: string, now: Date): AccountView | undefined {
    const acc = this.touch(accountId, now);
    return acc && this.view(acc);
  }

  reserve(accountId: string, cost: number, now: Date): ReserveResult {
    checkCost(cost);
    if (!this.writable()) return { ok: false, reason: 'unavailable' };
    const acc = this.touch(accountId, now);
    if (!acc) return { ok: false, reason: 'unknown_account' };
    const remaining = remainingCredits(acc.billing);
    const held = this.held.get(accountId) ?? 0;
    if (remaining !== null && cost > 0 && cost > remaining - held) {
      return { ok: false, reason: 'credits_exhausted', remaining: Math.max(0, remaining - held) };
    }
    const reservation: Reservation = { id: `r${this.nextReservation++}`, account_id: accountId, cost };
    this.reservations.set(reservation.id, reservation);
    if (cost > 0) this.held.set(accountId, held + cost);
    return { ok: true, reservation };
  }

  async commit(reservation: Reservation, meta: ChargeMeta, now: Date, answer?: IdempotentAnswer): Promise<void> {
    this.settle(reservation, 'commit');
    if (reservation.cost === 0) return; // nothing to charge, nothing to make durable
    const acc = this.touch(reservation.account_id, now);
    if (!acc) throw new LedgerError('unknown_account', `unknown account ${reservation.account_id}`);
    const key = answer && meta.idempotency_key;
    // The answer rides in the debit's own record: kept if and only if the charge is.
    await this.record({ t: 'debit', a: acc.id, c: reservation.cost, e: meta.endpoint, r: meta.request_id, ...(meta.client_request_id ? { cr: meta.client_request_id } : {}), at: now.toISOString(), ...(key ? { idem: { k: key, answer } } : {}) });
    // Held until durable: a retry meanwhile is told the key is in use, never shown an answer
    // whose charge could still fail. From here the kept answer replays.
    if (key) this.claims.delete(idempotencyId(acc.id, key));
  }

  claimIdempotency(accountId: string, key: string, fingerprint: string, now: Date): IdempotencyClaim {
    // While writes fail, memory may hold an answer whose charge never became durable (applied
    // before its fsync; recovery reloads from disk): replay nothing until then (503, as every
    // metered call gets meanwhile).
    if (!this.writable()) throw new LedgerUnavailableError(this.writer.error!);
    const id = idempotencyId(accountId, key);
    const running = this.claims.get(id);
    if (running !== undefined) return running === fingerprint ? { kind: 'in_flight' } : { kind: 'mismatch' };
    const kept = this.state.idempotency.get(id);
    if (kept && Date.parse(kept.created_at) + IDEMPOTENCY_RETENTION_MS > now.getTime()) {
      return kept.fingerprint === fingerprint ? { kind: 'replay', answer: kept } : { kind: 'mismatch' };
    }
    this.claims.set(id, fingerprint);
    return { kind: 'claimed' };
  }

  releaseIdempotency(accountId: string, key: string): void {
    this.claims.delete(idempotencyId(accountId, key));
  }

  recordHit(accountId: string, rateKey: string, windowMs: number, now: Date): Promise<void> {
    return this.record({ t: 'hit', a: accountId, k: rateKey, w: windowMs, at: now.toISOString() });
  }

  recentHits(): ReadonlyMap<string, HitLog> {
    return this.state.hits;
  }

  /** Idempotent: releasing a reservation already committed (even by a failed commit) or released does nothing. */
  release(reservation: Reservation): void {
    if (this.reservations.has(reservation.id)) this.settle(reservation, 'release');
  }

  usage(q: UsageQuery, now: Date): UsageReport {
    const acc = this.touch(q.account_id, now);
    if (!acc) throw new LedgerError('unknown_account', `unknown account ${q.account_id}`);
    return usageReport(acc, this.usageRows(acc.id), q);
  }

  private *usageRows(accountId: string): Iterable<UsageRow> {
    for (const [key, cell] of this.state.usage.get(accountId) ?? []) {
      const [cycle, day, endpoint] = key.split('\t') as [string, string, string];
      yield { cycle: Number(cycle), day, endpoint, ...cell };
    }
  }

  // --- administration -------------------------------------------------------------

  async createAccount(input: { tier: Tier; name?: string; rateLimit?: RateLimit }, now: Date): Promise<{ account: AccountView; api_key: string }> {
    checkNewAccount(input);
    const id = newId('acc_');
    const api_key = generateApiKey();
    const name = input.name?.trim() || id;
    await this.record({
      t: 'account',
      a: id,
      name,
      tier: input.tier,
      rate_limit: input.rateLimit ?? null,
      k: newId('key_'),
      hash: hashApiKey(api_key),
      at: now.toISOString(),
    });
    return { account: this.view(this.mustTouch(id, now)), api_key };
  }

  listAccounts(now: Date): AccountView[] {
    return [...this.state.accounts.keys()].map((id) => this.view(this.mustTouch(id, now)));
  }

  async upgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView> {
    const acc = this.mustTouch(accountId, now);
    checkTier(tier);
    planChange(() => applyUpgrade(acc.billing, tier));
    await this.record(upgradeRecord(acc, tier, now));
    return this.view(acc);
  }

  async downgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView> {
    const acc = this.mustTouch(accountId, now);
    checkTier(tier);
    planChange(() => scheduleDowngrade(acc.billing, tier));
    await this.record({ t: 'downgrade', a: acc.id, from: acc.billing.tier, to: tier, at: now.toISOString() });
    return this.view(acc);
  }

  async revokeKey(accountId: string, now: Date): Promise<void> {
    const acc = this.mustTouch(accountId, now);
    const keys = this.state.activeKeys(acc.id).map((k) => k.key_id);
    if (keys.length > 0) await this.record({ t: 'revoke', a: acc.id, keys, at: now.toISOString() });
  }

  async rotateKey(accountId: string, now: Date): Promise<{ api_key: string }> {
    const acc = this.mustTouch(accountId, now);
    const api_key = generateApiKey();
    const revoked = this.state.activeKeys(acc.id).map((k) => k.key_id);
    await this.record({ t: 'rotate', a: acc.id, revoked, k: newId('key_'), hash: hashApiKey(api_key), at: now.toISOString() });
    return { api_key };
  }

  async snapshot(): Promise<void> {
    this.assertOpen();
    await this.queueSnapshot();
  }

  health(): LedgerHealth {
    const writable = this.writable();
    // Every failure has either been recovered from or is the current one.
    return { writable, write_failures: this.recoveries + (writable ? 0 : 1), recoveries: this.recoveries };
  }

  stats() {
    let held = 0;
    for (const h of this.held.values()) held += h;
    const w = this.writer.stats;
    return {
      accounts: this.state.accounts.size, records: this.state.records, batches: w.batches, fsyncs: w.fsyncs, held, segment: this.segmentHead,
      ...this.health(),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.recovering;
      if ((this.opts.snapshotOnClose ?? true) && this.sinceSnapshot > 0 && !this.writer.error) await this.queueSnapshot();
      // A writer that failed has nothing more to flush: what it refused was never acknowledged.
      await this.writer.drain().catch((e: Error) => {
        if (!this.writer.error) throw e;
      });
    } finally {
      await this.writer.close();
      await this.releaseLock();
    }
  }

  // --- internals ------------------------------------------------------------------

  /**
   * Applies and appends in one synchronous step; resolves once durable. While writes fail it
   * refuses without applying anything (LedgerUnavailableError).
   */
  private record(rec: LedgerRecord): Promise<void> {
    this.assertOpen();
    if (!this.writable()) return Promise.reject(new LedgerUnavailableError(this.writer.error!));
    this.state.apply(rec);
    const durable = this.writer.append(rec).catch((e: Error) => {
      throw new LedgerUnavailableError(e);
    });
    if (++this.sinceSnapshot >= this.snapshotEvery) this.queueSnapshot().catch(() => {}); // failure poisons the writer
    return durable;
  }

  /**
   * True when the ledger accepts writes. After a failed write it is false, and a call starts
   * a recovery attempt at most every LEDGER_RETRY_MS, so it comes back by itself once space
   * returns or the file system is writable again.
   */
  private writable(): boolean {
    if (!this.writer.error) return true;
    if (!this.recovering && !this.closed && Date.now() - this.lastRecoveryAttempt >= LEDGER_RETRY_MS) {
      this.lastRecoveryAttempt = Date.now();
      this.recovering = this.recover()
        .then(() => void this.recoveries++)
        .catch(() => undefined) // still failing: the next call past the interval tries again
        .finally(() => (this.recovering = undefined));
    }
    return false;
  }

  /**
   * Cuts the log back to what was acknowledged and reloads the state from disk: the memory
   * state may hold records whose write failed (applied before their fsync), and those were
   * refused to their callers, so they must not count. Fails (and is retried) while the disk
   * is still full or read-only.
   */
  private async recover(): Promise<void> {
    const failed = this.writer;
    const pos = failed.durable;
    await failed.close();
    // A segment begun after the last fsynced position (a rotation that failed part-way) holds
    // nothing acknowledged; the snapshot never points past that position.
    await cutBackTo(this.dir, pos);
    const { state, report, tail } = await loadDir(this.dir);
    const writer = await LogWriter.open(this.dir, tail.n, tail.size);
    this.state = state;
    this.writer = writer;
    this.segmentHead = tail.n;
    this.sinceSnapshot = report.recordsReplayed;
  }

  private queueSnapshot(): Promise<void> {
    this.segmentHead++;
    this.sinceSnapshot = 0;
    return this.writer.rotate(this.segmentHead, { segment: this.segmentHead, at: this.clock().toISOString(), state: this.state.toSnapshot() });
  }

  /** The account, rolled forward (and the roll-over logged) if `now` is past its cycle end. */
  private touch(accountId: string, now: Date): AccountRec | undefined {
    const acc = this.state.accounts.get(accountId);
    if (!acc || this.closed) return acc;
    const to = cycleIndexAt(new Date(acc.created_at), now);
    if (to > acc.billing.cycle) {
      const rec: LedgerRecord = {
        t: 'rollover',
        a: acc.id,
        from_cycle: acc.billing.cycle,
        to_cycle: to,
        downgrade_applied: acc.billing.pending,
        at: now.toISOString(),
      };
      // Not awaited: the roll-over is implied by time; logging it keeps the log self-describing,
      // and it precedes (so is durable with) any later charge.
      this.record(rec).catch(() => {});
    }
    return acc;
  }

  private mustTouch(accountId: string, now: Date): AccountRec {
    const acc = this.touch(accountId, now);
    if (!acc) throw new LedgerError('unknown_account', `unknown account ${accountId}`);
    return acc;
  }

  private settle(r: Reservation, what: string): void {
    if (!this.reservations.delete(r.id)) throw new Error(`${what}: reservation ${r.id} was already committed or released`);
    if (r.cost === 0) return;
    const left = (this.held.get(r.account_id) ?? 0) - r.cost;
    if (left > 0) this.held.set(r.account_id, left);
    else this.held.delete(r.account_id);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('ledger is closed');
  }

  private view(acc: AccountRec): AccountView {
    return accountView(acc);
  }

}
