/**
 * The ledger's in-memory state and the one function that changes it, `applyRecord`.
 * A running ledger and a replay after restart both go through it, so they cannot differ.
 * `toSnapshot`/`fromSnapshot` give the plain-JSON form written to snapshot files.
 */
import { applyDebit, applyUpgrade, openingBilling, rollTo, scheduleDowngrade, type BillingState } from '../domain/billing.ts';
import type { RateLimit } from '../../schemas/plans.ts';
import type { LedgerRecord } from './records.ts';
import { IDEMPOTENCY_RETENTION_MS, type IdempotentAnswer } from './types.ts';

export interface AccountRec {
  id: string;
  name: string;
  created_at: string;
  /** Per-account limit (Enterprise); null means the plan's. */
  rate_limit: RateLimit | null;
  billing: BillingState;
}

export interface KeyRec {
  key_id: string;
  account_id: string;
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface UsageCell {
  calls: number;
  credits: number;
}

/** Accepted request times (ms, ascending) of one rate key within its window `w`. */
export interface HitLog {
  w: number;
  at: number[];
}

export const idempotencyId = (accountId: string, key: string) => `${accountId}\t${key}`;

/** Usage is aggregated per account by `cycle \t day \t endpoint`: small, and exact per cycle. */
export const usageKey = (cycle: number, day: string, endpoint: string) => `${cycle}\t${day}\t${endpoint}`;

export class LedgerState {
  readonly accounts = new Map<string, AccountRec>();
  readonly keys = new Map<string, KeyRec>();
  /** Active (unrevoked) keys by hash. */
  readonly activeByHash = new Map<string, KeyRec>();
  readonly usage = new Map<string, Map<string, UsageCell>>();
  /** Kept Idempotency-Key answers by `account \t key`, oldest first; dropped after the retention. */
  readonly idempotency = new Map<string, IdempotentAnswer>();
  /** The rate window's accepted times per key (only those still inside the window are kept). */
  readonly hits = new Map<string, HitLog>();
  private latestHitMs = 0;
  records = 0;

  activeKeys(accountId: string): KeyRec[] {
    return [...this.keys.values()].filter((k) => k.account_id === accountId && k.revoked_at === null);
  }

  apply(rec: LedgerRecord): void {
    this.records++;
    if (rec.t === 'hit') return this.addHit(rec.k, rec.w, Date.parse(rec.at));
    if (rec.t === 'account') {
      this.accounts.set(rec.a, { id: rec.a, name: rec.name, created_at: rec.at, rate_limit: rec.rate_limit, billing: openingBilling(rec.tier) });
      this.addKey({ key_id: rec.k, account_id: rec.a, hash: rec.hash, created_at: rec.at, revoked_at: null });
      return;
    }
    const acc = this.accounts.get(rec.a);
    if (!acc) throw new Error(`ledger record for unknown account ${rec.a} (${rec.t})`);
    switch (rec.t) {
      case 'revoke':
        for (const k of rec.keys) this.revokeKey(k, rec.at);
        return;
      case 'rotate':
        for (const k of rec.revoked) this.revokeKey(k, rec.at);
        this.addKey({ key_id: rec.k, account_id: rec.a, hash: rec.hash, created_at: rec.at, revoked_at: null });
        return;
      case 'debit': {
        acc.billing = applyDebit(acc.billing, rec.c);
        let cells = this.usage.get(rec.a);
        if (!cells) this.usage.set(rec.a, (cells = new Map()));
        const key = usageKey(acc.billing.cycle, rec.at.slice(0, 10), rec.e);
        const cell = cells.get(key);
        if (cell) {
          cell.calls++;
          cell.credits += rec.c;
        } else cells.set(key, { calls: 1, credits: rec.c });
        if (rec.idem) this.keepAnswer(idempotencyId(rec.a, rec.idem.k), rec.idem.answer, Date.parse(rec.at));
        return;
      }
      case 'upgrade':
        acc.billing = applyUpgrade(acc.billing, rec.to);
        return;
      case 'downgrade':
        acc.billing = scheduleDowngrade(acc.billing, rec.to);
        return;
      case 'rollover':
        acc.billing = rollTo(acc.billing, rec.to_cycle).state;
        return;
    }
  }

  /**
   * Keeps an answer and drops those past the retention, judged by record time (so a replay
   * drops exactly what the running ledger dropped). Oldest first in the map: the sweep stops
   * at the first one still kept.
   */
  private keepAnswer(id: string, answer: IdempotentAnswer, atMs: number): void {
    this.idempotency.delete(id);
    this.idempotency.set(id, answer);
    for (const [k, a] of this.idempotency) {
      if (Date.parse(a.created_at) + IDEMPOTENCY_RETENTION_MS > atMs) break;
      this.idempotency.delete(k);
    }
  }

  private addHit(key: string, w: number, atMs: number): void {
    let log = this.hits.get(key);
    if (!log) this.hits.set(key, (log = { w, at: [] }));
    log.w = w;
    log.at.push(atMs);
    this.latestHitMs = Math.max(this.latestHitMs, atMs);
    // Times that have left the window are dropped in batches (when at least half have left),
    // so a key with a large limit costs O(1) per hit, not a shift of its whole log.
    const cutoff = atMs - w;
    if (log.at.length < 128 || log.at[log.at.length >> 1]! <= cutoff) {
      const keep = log.at.findIndex((t) => t > cutoff);
      log.at.splice(0, keep < 0 ? log.at.length : keep);
    }
  }

  private addKey(k: KeyRec): void {
    this.keys.set(k.key_id, k);
    this.activeByHash.set(k.hash, k);
  }

  private revokeKey(keyId: string, at: string): void {
    const k = this.keys.get(keyId);
    if (!k || k.revoked_at !== null) return;
    k.revoked_at = at;
    this.activeByHash.delete(k.hash);
  }

  toSnapshot(): SnapshotState {
    return {
      records: this.records,
      accounts: [...this.accounts.values()],
      keys: [...this.keys.values()],
      usage: [...this.usage].map(([a, cells]) => [a, [...cells].map(([k, c]) => [k, c.calls, c.credits] as [string, number, number])]),
      idempotency: [...this.idempotency],
      // Only times still inside their window, judged by the newest hit of any key (time moves on).
      hits: [...this.hits]
        .map(([k, h]) => [k, h.w, h.at.filter((t) => t > this.latestHitMs - h.w)] as [string, number, number[]])
        .filter(([, , at]) => at.length > 0),
    };
  }

  static fromSnapshot(s: SnapshotState): LedgerState {
    const st = new LedgerState();
    st.records = s.records;
    for (const a of s.accounts) st.accounts.set(a.id, a);
    for (const k of s.keys) {
      st.keys.set(k.key_id, k);
      if (k.revoked_at === null) st.activeByHash.set(k.hash, k);
    }
    for (const [a, cells] of s.usage) st.usage.set(a, new Map(cells.map(([k, calls, credits]) => [k, { calls, credits }])));
    // Snapshots written before issue 45 have neither.
    for (const [id, answer] of s.idempotency ?? []) st.idempotency.set(id, answer);
    for (const [k, w, at] of s.hits ?? []) st.hits.set(k, { w, at });
    return st;
  }
}

export interface SnapshotState {
  records: number;
  accounts: AccountRec[];
  keys: KeyRec[];
  usage: [string, [string, number, number][]][];
  idempotency?: [string, IdempotentAnswer][];
  /** Rate key, window ms, accepted times (ms). */
  hits?: [string, number, number[]][];
}
