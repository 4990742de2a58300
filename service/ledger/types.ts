/**
 * The contract between the HTTP layer and the credit ledger (DESIGN.md section 4).
 * Two implementations: the file-backed one (one process, answers reads synchronously from
 * memory) and the PostgreSQL one (several replicas, every call a query), so callers await
 * what may be a promise (`Awaitable`). All times are injected (`now`), never read from a clock
 * inside the ledger, so tests move across billing cycles without sleeping.
 */
import type { RateLimit, Tier } from '../../schemas/plans.ts';

export interface AccountView {
  account_id: string;
  name: string;
  tier: Tier;
  status: 'active' | 'closed';
  created_at: string; // ISO
  /** Current billing cycle [start, end), ISO. Anchored at creation; monthly. */
  cycle_start: string;
  cycle_end: string;
  /** Credits for this cycle; null = unlimited (Enterprise). */
  allowance: number | null;
  used_this_cycle: number;
  /** null = unlimited. */
  remaining: number | null;
  rate_limit: RateLimit;
  /** Tier that takes effect at the next renewal, if a downgrade is pending. */
  pending_tier: Tier | null;
}

/** Resolved from a presented API key; undefined when unknown or revoked. */
export interface KeyPrincipal {
  account_id: string;
  key_id: string;
}

export type ReserveResult =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: 'credits_exhausted'; remaining: number }
  | { ok: false; reason: 'unknown_account' }
  /** Writes are failing (disk full, read-only, I/O error): nothing can be charged, so nothing is served. */
  | { ok: false; reason: 'unavailable' };

export interface Reservation {
  readonly id: string;
  readonly account_id: string;
  readonly cost: number;
}

export interface ChargeMeta {
  endpoint: string; // route id, e.g. "GET /v1/properties/{uprn}"
  /** The server's own request id (unique). */
  request_id: string;
  /** The Idempotency-Key the request claimed, when `commit` is given its answer to keep. */
  idempotency_key?: string;
  /** The caller's X-Request-Id, kept beside the server's (not unique: callers choose it). */
  client_request_id?: string;
}

export interface UsageQuery {
  account_id: string;
  from?: string; // ISO date, inclusive
  to?: string; // ISO date, inclusive
}

export interface UsageReport {
  from: string;
  to: string;
  total_calls: number;
  total_credits: number;
  by_endpoint: { endpoint: string; calls: number; credits: number }[];
  by_day: { date: string; calls: number; credits: number }[];
}

export interface LedgerHealth {
  writable: boolean;
  /** Times writes started failing since the process started. */
  write_failures: number;
  /** Times writes came back after failing. */
  recoveries: number;
}

export type Awaitable<T> = T | Promise<T>;

/** What a metered request with an Idempotency-Key answered (2xx only), kept with its charge. */
export interface IdempotentAnswer {
  /** sha256 of the request as the API understood it (middleware/idempotency.ts). */
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ISO; kept for IDEMPOTENCY_RETENTION_MS from here. */
  created_at: string;
}

export type IdempotencyClaim =
  | { kind: 'claimed' } // this request runs
  | { kind: 'replay'; answer: IdempotentAnswer } // same key, same request: the kept answer
  | { kind: 'mismatch' } // same key, different request: 422
  | { kind: 'in_flight' }; // another request holds the key now: 409

/** How long a kept answer is replayed (Stripe: 24 h). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3_600_000;

export interface Ledger {
  /** Resolve a presented key (hash lookup, constant-time compare). */
  authenticate(apiKey: string): Awaitable<KeyPrincipal | undefined>;
  account(accountId: string, now: Date): Awaitable<AccountView | undefined>;
  /** `authenticate` and then `account` of the key's account, as one call (PostgreSQL: one round trip). */
  authenticateAccount(apiKey: string, now: Date): Awaitable<{ principal: KeyPrincipal; account: AccountView } | undefined>;

  /**
   * Hold `cost` credits before the handler runs. Concurrent reservations can never
   * exceed the balance. A cost above the remaining balance is refused and holds nothing.
   */
  reserve(accountId: string, cost: number, now: Date): Awaitable<ReserveResult>;
  /**
   * Make the charge durable (fsync, group commit allowed) before the response is sent.
   * Rejects with LedgerUnavailableError when it cannot be made durable (the charge is void).
   * May resolve to the account as the charge left it, when the ledger has it from the same
   * write (PostgreSQL), so the caller need not read it again. With `answer` (a request that
   * claimed an Idempotency-Key), the answer is kept atomically with the charge: both or neither.
   */
  commit(reservation: Reservation, meta: ChargeMeta, now: Date, answer?: IdempotentAnswer): Promise<AccountView | void>;
  /** Give held credits back (non-2xx response). Never throws: a hold that cannot be released expires. */
  release(reservation: Reservation): Awaitable<void>;

  usage(q: UsageQuery, now: Date): Awaitable<UsageReport>;

  /**
   * Idempotency-Key (docs/ledger.md "Idempotency keys"): claim `key` for this account before
   * the request runs. A kept answer younger than IDEMPOTENCY_RETENTION_MS is replayed (same
   * fingerprint) or refused (another); a key held by a request still running is `in_flight`.
   */
  claimIdempotency(accountId: string, key: string, fingerprint: string, now: Date): Awaitable<IdempotencyClaim>;
  /** Frees a claimed key whose request ended without a kept answer (non-2xx, failure). Never throws. */
  releaseIdempotency(accountId: string, key: string): Awaitable<void>;

  // Administration (CLI, or for the file ledger the admin socket while a server holds the writer lock).
  createAccount(input: { tier: Tier; name?: string; rateLimit?: RateLimit }, now: Date): Promise<{ account: AccountView; api_key: string }>;
  listAccounts(now: Date): Awaitable<AccountView[]>;
  upgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView>;
  downgrade(accountId: string, tier: Tier, now: Date): Promise<AccountView>;
  revokeKey(accountId: string, now: Date): Promise<void>;
  rotateKey(accountId: string, now: Date): Promise<{ api_key: string }>;

  /** Whether writes succeed now, and how often they have failed and come back (for /metrics). */
  health(): LedgerHealth;

  /** Flush pending writes and release the writer lock (file) or the connections (PostgreSQL). */
  close(): Promise<void>;
}
