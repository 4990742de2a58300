/**
 * The PostgreSQL ledger (docs/ledger.md "PostgreSQL"; ADR 0006): the same interface, billing
 * rules and records as the file ledger, shared by any number of replicas.
 *
 * - State in tables (accounts with their billing state, keys, usage cells), every change
 *   also written as the file ledger's record to `ledger_records`, in the same transaction.
 * - Every change to an account runs under that account's lock (ledger_lock_account, a
 *   transaction-scoped advisory lock: it writes no WAL; ADR 0007) and goes through the pure
 *   functions of domain/billing.ts, exactly as the file ledger's replay.
 * - Reservations are rows: a reservation is taken under the account lock only if the cost
 *   fits in remaining − (live holds), so concurrent requests on any replicas can never spend
 *   past the balance; commit deletes the hold and debits in one transaction (committed,
 *   i.e. durable, before the response); a hold left by a dead replica expires. When the
 *   account is due a renewal they do nothing and the renewal runs here, then they retry.
 * - A metered 2xx makes four calls: key and account (authenticateAccount), the rate window
 *   (pg-rate-limiter.ts), the hold, the charge (which returns the new balance). Each is
 *   batched with the same calls of this process's other requests (pg/batcher.ts, ADR 0013):
 *   one statement per batch (key_account_many.sql, ledger_hold_many, ledger_charge_many of
 *   pg/migrations/007_batched_hot_path.sql), deciding each element as the single-request
 *   functions of migration 004 do, so a batch of charges costs one transaction and one
 *   WAL flush.
 * - PostgreSQL unreachable, restarting or paused: reserve answers `unavailable`, commit and
 *   every other call reject with LedgerUnavailableError (503 ledger_unavailable); nothing is
 *   served free, and the pool reconnects by itself when the server is back.
 */
import type pg from 'pg';
import { applyDebit, applyUpgrade, cycleIndexAt, openingBilling, remainingCredits, rollTo, scheduleDowngrade, type BillingState } from '../domain/billing.ts';
import type { RateLimit, Tier } from '../../schemas/plans.ts';
import { MAX_KEY_LENGTH, generateApiKey, hashApiKey, newId } from './keys.ts';
import { checkCost, checkNewAccount, checkTier, planChange } from './checks.ts';
import { LedgerError, LedgerUnavailableError } from './errors.ts';
import { Batcher, byIndex, type BatcherOptions } from './pg/batcher.ts';
import { createPool, isUnavailable, once, q, transaction, type Queryable } from './pg/client.ts';
import { migratePool } from './pg/migrate.ts';
import { upgradeRecord, type LedgerRecord } from './records.ts';
import type { AccountRec } from './state.ts';
import {
  IDEMPOTENCY_RETENTION_MS,
  type AccountView,
  type ChargeMeta,
  type IdempotencyClaim,
  type IdempotentAnswer,
  type KeyPrincipal,
  type Ledger,
  type LedgerHealth,
  type Reservation,
  type ReserveResult,
  type UsageQuery,
  type UsageReport,
} from './types.ts';
import { accountView, usageReport, type UsageRow } from './view.ts';

export interface PgLedgerOptions {
  url: string;
  /** Used where no `now` is passed in. */
  clock?: () => Date;
  /** Connections per process (default 16). */
  poolSize?: number;
  /** Query and connect timeout (default 5,000 ms): past it the call is refused as unavailable. */
  timeoutMs?: number;
  /** How long a hold counts if its request never settles (its replica died); default 120 s. */
  reservationTtlS?: number;
  /** How long an Idempotency-Key claim holds if its request never ends (its replica died); default IDEMPOTENCY_CLAIM_TTL_S. */
  idempotencyClaimTtlS?: number;
  /** How the hot path's calls are batched (pg/batcher.ts; ADR 0013). */
  batch?: BatcherOptions;
}

export interface PgLedger extends Ledger {
  readonly clock: () => Date;
  readonly pool: pg.Pool;
  /** Every record, in commit order (the file ledger's log, for audits and tests). */
  records(): Promise<LedgerRecord[]>;
}

interface AccountRow {
  id: string;
  name: string;
  created_at: Date;
  rate_limit: RateLimit | null;
  tier: Tier;
  cycle: number;
  grant_credits: string | null;
  spent: string;
  used: string;
  pending_tier: Tier | null;
  free_granted: boolean;
}

const toRec = (r: AccountRow): AccountRec => ({
  id: r.id,
  name: r.name,
  created_at: r.created_at.toISOString(),
  rate_limit: r.rate_limit,
  billing: {
    tier: r.tier,
    cycle: r.cycle,
    grant: r.grant_credits === null ? null : Number(r.grant_credits),
    spent: Number(r.spent),
    used: Number(r.used),
    pending: r.pending_tier,
    freeGranted: r.free_granted,
  },
});

/** How long a request holds an Idempotency-Key before another replica may take it over (a dead worker's claim). */
export const IDEMPOTENCY_CLAIM_TTL_S = 60;
type KeyRow = AccountRow & { i: number; key_id: string };
type HoldRow = { i: number; outcome: string; remaining: string | null; reservation_id: string | null };
type ChargeRow = AccountRow & { i: number; outcome: string };
interface Hold {
  accountId: string;
  cost: number;
  cycle: number;
}
/** One charge: the hold it settles and the `debit` record it writes. */
interface Charge {
  hold: string;
  cycle: number;
  day: string;
  rec: Extract<LedgerRecord, { t: 'debit' }>;
}

/** debit_many's arguments for a batch of charges (one array per column, in the batch's order). */
const chargeArgs = (cs: readonly Charge[]): unknown[] => [
  cs.map((c) => c.hold),
  cs.map((c) => c.rec.a),
  cs.map((c) => c.cycle),
  cs.map((c) => c.rec.c),
  cs.map((c) => c.rec.e),
  cs.map((c) => c.day),
  cs.map((c) => c.rec.at),
  cs.map((c) => JSON.stringify(c.rec)),
];

const billingParams = (id: string, b: BillingState) => [id, b.tier, b.cycle, b.grant, b.spent, b.used, b.pending, b.freeGranted];

export async function openPgLedger(opts: PgLedgerOptions): Promise<PgLedger> {
  const pool = createPool({ url: opts.url, ...(opts.poolSize ? { max: opts.poolSize } : {}), ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) });
  try {
    await migratePool(pool);
  } catch (e) {
    await pool.end();
    throw e;
  }
  return new PgLedgerImpl(pool, opts);
}

class PgLedgerImpl implements PgLedger {
  readonly clock: () => Date;
  private readonly ttlS: number;
  private failing = false;
  private failures = 0;
  private recoveries = 0;
  private closed = false;
  private settles = 0;
  private readonly created = new Map<string, Date>();
  /** Idempotency claims this process holds: `account \t key` → claim uuid. */
  private readonly idemHeld = new Map<string, string>();
  private idemClaims = 0;
  private readonly claimTtlS: number;
  // The hot path's three calls, each batched per process (ADR 0013): one statement per batch.
  private readonly keys: Batcher<string, KeyRow | undefined>;
  private readonly holds: Batcher<Hold, HoldRow | undefined>;
  private readonly charges: Batcher<Charge, ChargeRow | undefined>;

  constructor(
    readonly pool: pg.Pool,
    opts: PgLedgerOptions,
  ) {
    this.clock = opts.clock ?? (() => new Date());
    this.ttlS = opts.reservationTtlS ?? 120;
    this.claimTtlS = opts.idempotencyClaimTtlS ?? IDEMPOTENCY_CLAIM_TTL_S;
    this.keys = new Batcher(async (hashes) => byIndex(await once<KeyRow>(pool, 'key_account_many', [hashes]), hashes.length), opts.batch);
    this.holds = new Batcher(async (hs) => {
      const rows = await once<HoldRow>(pool, 'reserve_many', [hs.map((h) => h.accountId), hs.map((h) => h.cost), hs.map((h) => h.cycle), this.ttlS]);
      return byIndex(rows, hs.length);
    }, opts.batch);
    this.charges = new Batcher(async (cs) => {
      // A charge with an Idempotency-Key's answer to keep is not batched: chargeKeeping writes
      // it and the answer in one transaction of its own (rare: only calls that send the key).
      const rows = await once<ChargeRow>(pool, 'debit_many', chargeArgs(cs));
      return byIndex(rows, cs.length);
    }, opts.batch);
  }

  async authenticate(apiKey: string): Promise<KeyPrincipal | undefined> {
    if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > MAX_KEY_LENGTH) return undefined;
    // An index lookup by the key's SHA-256: the hash reveals nothing a timing could use.
    const rows = await this.run(() => once<{ key_id: string; account_id: string }>(this.pool, 'key_by_hash', [hashApiKey(apiKey)]));
    const k = rows[0];
    return k && { account_id: k.account_id, key_id: k.key_id };
  }

  async authenticateAccount(apiKey: string, now: Date): Promise<{ principal: KeyPrincipal; account: AccountView } | undefined> {
    if (typeof apiKey !== 'string' || apiKey.length === 0 || apiKey.length > MAX_KEY_LENGTH) return undefined;
    // The key and its account in one call (batched); rolled over under the lock only when due.
    const row = await this.run(() => this.keys.submit(hashApiKey(apiKey)));
    if (!row) return undefined;
    const principal = { account_id: row.id, key_id: row.key_id };
    let acc: AccountRec | undefined = toRec(row);
    if (this.due(acc, now)) acc = await this.run(() => this.roll(row.id, now));
    return acc && { principal, account: accountView(acc) };
  }

  async account(accountId: string, now: Date): Promise<AccountView | undefined> {
    const acc = await this.read(accountId, now);
    return acc && accountView(acc);
  }

  async reserve(accountId: string, cost: number, now: Date): Promise<ReserveResult> {
    checkCost(cost);
    try {
      return await this.run(async (): Promise<ReserveResult> => {
        if (cost === 0) return (await this.read(accountId, now)) ? { ok: true, reservation: { id: 'free', account_id: accountId, cost: 0 } } : { ok: false, reason: 'unknown_account' };
        const cycle = await this.cycleOf(accountId, now);
        if (cycle === undefined) return { ok: false, reason: 'unknown_account' };
        for (;;) {
          const r = await this.holds.submit({ accountId, cost, cycle });
          switch (r!.outcome) {
            case 'ok':
              return { ok: true, reservation: { id: String(r!.reservation_id), account_id: accountId, cost } };
            case 'exhausted':
              return { ok: false, reason: 'credits_exhausted', remaining: Number(r!.remaining) };
            case 'unknown':
              return { ok: false, reason: 'unknown_account' };
            default: // 'due': renew the account (once, under its lock), then take the hold
              await this.roll(accountId, now);
          }
        }
      });
    } catch (e) {
      if (e instanceof LedgerUnavailableError) return { ok: false, reason: 'unavailable' };
      throw e;
    }
  }

  async commit(reservation: Reservation, meta: ChargeMeta, now: Date, answer?: IdempotentAnswer): Promise<AccountView | void> {
    if (reservation.cost === 0) return;
    const { id, account_id: a, cost } = reservation;
    const charged = await this.run(async (): Promise<AccountView> => {
      const cycle = await this.cycleOf(a, now);
      if (cycle === undefined) throw new LedgerError('unknown_account', `unknown account ${a}`);
      const at = now.toISOString();
      const rec: Charge['rec'] = { t: 'debit', a, c: cost, e: meta.endpoint, r: meta.request_id, ...(meta.client_request_id ? { cr: meta.client_request_id } : {}), at };
      for (;;) {
        const charge: Charge = { hold: id, cycle, day: at.slice(0, 10), rec };
        const r = answer && meta.idempotency_key ? (await this.chargeKeeping(charge, a, meta.idempotency_key, answer))[0] : await this.charges.submit(charge);
        switch (r!.outcome) {
          case 'ok': // the account as the charge left it
            return accountView(toRec(r!));
          case 'settled':
            // Also what a hold lost in a PostgreSQL crash looks like (holds are UNLOGGED): the
            // call cannot be charged, so it is refused (503), never served free.
            throw new LedgerUnavailableError(new Error(`commit: reservation ${id} was already committed or released`));
          case 'expired':
            // A hold that outlived its expiry no longer counted against the balance: charging
            // it could overspend, so the call is refused instead (never served free).
            throw new LedgerUnavailableError(new Error(`reservation ${id} expired before its commit`));
          case 'unknown':
            throw new LedgerError('unknown_account', `unknown account ${a}`);
          default: // 'due': a renewal between the hold and the charge; the charge goes to the new cycle
            await this.roll(a, now);
        }
      }
    });
    if (++this.settles % 1000 === 0) this.sweep();
    return charged;
  }

  /** Never throws: a hold that cannot be deleted now (PostgreSQL away) expires by itself. */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.cost === 0) return;
    await this.run(() => once(this.pool, 'reservation_take', [reservation.id])).catch(() => {});
    if (++this.settles % 1000 === 0) this.sweep();
  }

  async usage(query: UsageQuery, now: Date): Promise<UsageReport> {
    const acc = await this.read(query.account_id, now);
    if (!acc) throw new LedgerError('unknown_account', `unknown account ${query.account_id}`);
    const rows = await this.run(() =>
      once<{ cycle: number; day: string; endpoint: string; calls: string; credits: string }>(this.pool, 'usage_cells', [acc.id]),
    );
    const cells: UsageRow[] = rows.map((r) => ({ cycle: r.cycle, day: r.day, endpoint: r.endpoint, calls: Number(r.calls), credits: Number(r.credits) }));
    return usageReport(acc, cells, query);
  }

  // --- Idempotency-Key (issue 45; migration 006) ---------------------------------

  async claimIdempotency(accountId: string, key: string, fingerprint: string, now: Date): Promise<IdempotencyClaim> {
    const [r] = await this.run(() =>
      once<{ outcome: string; claim_id: string | null; status: number | null; headers: Record<string, string> | null; body: string | null; created_at: Date | null }>(
        this.pool,
        'idempotency_claim',
        [accountId, key, fingerprint, now.toISOString(), IDEMPOTENCY_RETENTION_MS / 1000, this.claimTtlS],
      ),
    );
    if (++this.idemClaims % 1000 === 0) this.run(() => once(this.pool, 'idempotency_sweep', [now.toISOString(), IDEMPOTENCY_RETENTION_MS / 1000])).catch(() => {});
    switch (r!.outcome) {
      case 'claimed':
        this.idemHeld.set(`${accountId}\t${key}`, r!.claim_id!);
        return { kind: 'claimed' };
      case 'replay':
        return { kind: 'replay', answer: { fingerprint, status: r!.status!, headers: r!.headers!, body: r!.body!, created_at: r!.created_at!.toISOString() } };
      case 'mismatch':
        return { kind: 'mismatch' };
      default:
        return { kind: 'in_flight' };
    }
  }

  /** Never throws: a claim that cannot be deleted now expires (IDEMPOTENCY_CLAIM_TTL_S). */
  async releaseIdempotency(accountId: string, key: string): Promise<void> {
    const id = `${accountId}\t${key}`;
    const claim = this.idemHeld.get(id);
    if (claim === undefined) return;
    this.idemHeld.delete(id);
    await this.run(() => once(this.pool, 'idempotency_release', [accountId, key, claim])).catch(() => {});
  }

  /**
   * The charge and the kept answer in one transaction. A claim that is no longer this
   * request's (expired and taken over) cannot keep its answer: the charge is rolled back and
   * the call refused (503), so one key is never charged twice.
   */
  /** A charge and its Idempotency-Key's kept answer in one transaction: the answer is kept if and only if the charge is. */
  private async chargeKeeping(charge: Charge, accountId: string, key: string, answer: IdempotentAnswer): Promise<ChargeRow[]> {
    const claim = this.idemHeld.get(`${accountId}\t${key}`);
    const rows = await transaction(this.pool, async (c) => {
      const out = await q<ChargeRow>(c, 'debit_many', chargeArgs([charge]));
      if (out[0]?.outcome !== 'ok') return out;
      const kept = await q(c, 'idempotency_keep', [accountId, key, claim ?? null, answer.status, JSON.stringify(answer.headers), answer.body, answer.created_at]);
      if (kept.length === 0) throw new LedgerUnavailableError(new Error(`the claim on Idempotency-Key ${JSON.stringify(key)} expired before its charge`));
      return out;
    });
    if (rows[0]?.outcome === 'ok') this.idemHeld.delete(`${accountId}\t${key}`);
    return rows;
  }

  // --- administration -------------------------------------------------------------

  async createAccount(input: { tier: Tier; name?: string; rateLimit?: RateLimit }, now: Date): Promise<{ account: AccountView; api_key: string }> {
    checkNewAccount(input);
    const id = newId('acc_');
    const api_key = generateApiKey();
    const rec: LedgerRecord = {
      t: 'account',
      a: id,
      name: input.name?.trim() || id,
      tier: input.tier,
      rate_limit: input.rateLimit ?? null,
      k: newId('key_'),
      hash: hashApiKey(api_key),
      at: now.toISOString(),
    };
    await this.run(() => transaction(this.pool, (c) => insertAccount(c, rec)));
    return { account: (await this.account(id, now))!, api_key };
  }

  async listAccounts(now: Date): Promise<AccountView[]> {
    const rows = await this.run(() => once<AccountRow>(this.pool, 'account_list'));
    const out: AccountView[] = [];
    for (const r of rows) {
      const acc = toRec(r);
      out.push(accountView(this.due(acc, now) ? (await this.read(acc.id, now))! : acc));
    }
    return out;
  }

  async upgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView> {
    return this.change(accountId, now, async (c, acc) => {
      checkTier(tier);
      const next = planChange(() => applyUpgrade(acc.billing, tier));
      const rec = upgradeRecord(acc, tier, now);
      acc.billing = next;
      await q(c, 'account_billing', billingParams(acc.id, next));
      await this.log(c, rec);
    });
  }

  async downgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView> {
    return this.change(accountId, now, async (c, acc) => {
      checkTier(tier);
      const next = planChange(() => scheduleDowngrade(acc.billing, tier));
      const rec: LedgerRecord = { t: 'downgrade', a: acc.id, from: acc.billing.tier, to: tier, at: now.toISOString() };
      acc.billing = next;
      await q(c, 'account_billing', billingParams(acc.id, next));
      await this.log(c, rec);
    });
  }

  async revokeKey(accountId: string, now: Date): Promise<void> {
    await this.change(accountId, now, async (c, acc) => {
      const keys = (await q<{ key_id: string }>(c, 'keys_active', [acc.id])).map((k) => k.key_id);
      if (keys.length === 0) return;
      await q(c, 'keys_revoke', [acc.id, keys, now.toISOString()]);
      await this.log(c, { t: 'revoke', a: acc.id, keys, at: now.toISOString() });
    });
  }

  async rotateKey(accountId: string, now: Date): Promise<{ api_key: string }> {
    const api_key = generateApiKey();
    await this.change(accountId, now, async (c, acc) => {
      const revoked = (await q<{ key_id: string }>(c, 'keys_active', [acc.id])).map((k) => k.key_id);
      const rec: LedgerRecord = { t: 'rotate', a: acc.id, revoked, k: newId('key_'), hash: hashApiKey(api_key), at: now.toISOString() };
      await q(c, 'keys_revoke', [acc.id, revoked, rec.at]);
      await q(c, 'key_insert', [rec.k, acc.id, rec.hash, rec.at, null]);
      await this.log(c, rec);
    });
    return { api_key };
  }

  async records(): Promise<LedgerRecord[]> {
    return (await this.run(() => once<{ rec: LedgerRecord }>(this.pool, 'records_all'))).map((r) => r.rec);
  }

  health(): LedgerHealth {
    return { writable: !this.failing, write_failures: this.failures, recoveries: this.recoveries };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  // --- internals ------------------------------------------------------------------

  /**
   * Runs one call against PostgreSQL, turning "cannot reach it" into LedgerUnavailableError
   * and keeping `health()` in step (writable again after the first call that succeeds).
   */
  private async run<T>(f: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('ledger is closed');
    try {
      const out = await f();
      if (this.failing) {
        this.failing = false;
        this.recoveries++;
      }
      return out;
    } catch (e) {
      if (e instanceof LedgerUnavailableError || isUnavailable(e)) {
        if (!this.failing) {
          this.failing = true;
          this.failures++;
        }
        throw e instanceof LedgerUnavailableError ? e : new LedgerUnavailableError(e as Error);
      }
      throw e;
    }
  }

  /** The account as of `now`: read without a lock, rolled over (and logged) under one only when due. */
  private async read(accountId: string, now: Date): Promise<AccountRec | undefined> {
    const [row] = await this.run(() => once<AccountRow>(this.pool, 'account_get', [accountId]));
    if (!row) return undefined;
    const acc = toRec(row);
    if (!this.due(acc, now)) return acc;
    return this.run(() => this.roll(accountId, now));
  }

  /** The billing cycle `now` falls in for this account (creation instants never change, so they are cached). */
  private async cycleOf(accountId: string, now: Date): Promise<number | undefined> {
    let created = this.created.get(accountId);
    if (!created) {
      const [row] = await once<AccountRow>(this.pool, 'account_get', [accountId]);
      if (!row) return undefined;
      created = row.created_at;
      this.created.set(accountId, created);
    }
    return cycleIndexAt(created, now);
  }

  private roll(accountId: string, now: Date): Promise<AccountRec | undefined> {
    return transaction(this.pool, (c) => this.lockTouch(c, accountId, now));
  }

  private due(acc: AccountRec, now: Date): boolean {
    return cycleIndexAt(new Date(acc.created_at), now) > acc.billing.cycle;
  }

  /** Locks the account's row and rolls it into `now`'s cycle (one `rollover` record) if due. */
  private async lockTouch(c: Queryable, accountId: string, now: Date): Promise<AccountRec | undefined> {
    // The account lock the hot path takes (ledger_lock_account, migration 004), then the row
    // read after it, so it sees every hold and debit committed before.
    await q(c, 'account_serialise', [accountId]);
    const [row] = await q<AccountRow>(c, 'account_lock', [accountId]);
    if (!row) return undefined;
    const acc = toRec(row);
    const to = cycleIndexAt(new Date(acc.created_at), now);
    if (to > acc.billing.cycle) {
      const rec: LedgerRecord = { t: 'rollover', a: acc.id, from_cycle: acc.billing.cycle, to_cycle: to, downgrade_applied: acc.billing.pending, at: now.toISOString() };
      acc.billing = rollTo(acc.billing, to).state;
      await q(c, 'account_billing', billingParams(acc.id, acc.billing));
      await this.log(c, rec);
    }
    return acc;
  }

  /** A plan or key change: under the account lock, rolled to `now` first; returns the new view. */
  private async change(accountId: string, now: Date, f: (c: Queryable, acc: AccountRec) => Promise<void>): Promise<AccountView> {
    return this.run(() =>
      transaction(this.pool, async (c) => {
        const acc = await this.lockTouch(c, accountId, now);
        if (!acc) throw new LedgerError('unknown_account', `unknown account ${accountId}`);
        await f(c, acc);
        return accountView(acc);
      }),
    );
  }

  private async log(c: Queryable, rec: LedgerRecord): Promise<void> {
    await q(c, 'record_insert', [rec.a, rec.t, JSON.stringify(rec), rec.at]);
  }

  /** Deletes expired holds now and then (they no longer count; this only keeps the table small). */
  private sweep(): void {
    this.run(() => once(this.pool, 'reservation_sweep')).catch(() => {});
  }
}

/** Inserts an `account` record's account, first key and the record itself (also used by the file import). */
export async function insertAccount(
  c: Queryable,
  rec: Extract<LedgerRecord, { t: 'account' }>,
  billing: BillingState = openingBilling(rec.tier),
  opts: { withRecord: boolean } = { withRecord: true },
): Promise<void> {
  await q(c, 'account_insert', [rec.a, rec.name, rec.at, rec.rate_limit === null ? null : JSON.stringify(rec.rate_limit), ...billingParams(rec.a, billing).slice(1)]);
  await q(c, 'key_insert', [rec.k, rec.a, rec.hash, rec.at, null]);
  if (opts.withRecord) await q(c, 'record_insert', [rec.a, rec.t, JSON.stringify(rec), rec.at]);
}
