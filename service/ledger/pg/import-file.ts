/**
 * `accounts migrate-to-postgres`: moves a file ledger into an empty PostgreSQL ledger, once.
 *
 * The file ledger is opened normally (its writer lock, so no server may be running on it;
 * a torn tail is cut as at any start), then its state is rebuilt read-only exactly as
 * opening does (snapshot, then every later record through LedgerState.apply) and written
 * in ONE transaction: every account with its billing state as of its last record (tier,
 * cycle, grant, spent, used, pending downgrade, free grant taken), every key (hash and
 * revocation), every usage cell, and the records still in the log (those before the last
 * snapshot were compacted by the file ledger and exist only as the state they built).
 * Refuses when the target already holds accounts or a previous import (file_imports).
 * The file ledger is left as it was: archive it once the PostgreSQL ledger is serving.
 */
import { openFileLedger } from '../file-ledger.ts';
import { LedgerError } from '../errors.ts';
import { readLogRecords } from '../segments.ts';
import { LedgerState } from '../state.ts';
import { insertAccount } from '../pg-ledger.ts';
import { createPool, q, transaction } from './client.ts';
import { migratePool } from './migrate.ts';

export interface ImportReport {
  source_dir: string;
  accounts: number;
  keys: number;
  usage_cells: number;
  /** Records copied from the log (those after the file ledger's last snapshot). */
  records: number;
  /** Whether older records had been compacted into a snapshot (not copied one by one). */
  from_snapshot: boolean;
}

export async function importFileLedger(dir: string, url: string): Promise<ImportReport> {
  const file = await openFileLedger({ dir, snapshotOnClose: false });
  try {
    const { snapshot, records } = await readLogRecords(dir);
    const state = snapshot ? LedgerState.fromSnapshot(snapshot.state) : new LedgerState();
    for (const r of records) state.apply(r);

    const pool = createPool({ url, max: 1, timeoutMs: 60_000 });
    try {
      await migratePool(pool);
      return await transaction(pool, async (c) => {
        // Taken first: two imports racing each other cannot both pass the checks below.
        await c.query('LOCK TABLE file_imports, accounts IN EXCLUSIVE MODE');
        const prior = (await c.query<{ source_dir: string; imported_at: Date }>('SELECT source_dir, imported_at FROM file_imports')).rows[0];
        if (prior) {
          throw new LedgerError('invalid_input', `this PostgreSQL ledger already holds the file ledger ${prior.source_dir} (imported ${prior.imported_at.toISOString()}): refusing to import twice`);
        }
        const n = Number((await c.query<{ n: string }>('SELECT count(*) AS n FROM accounts')).rows[0]!.n);
        if (n > 0) throw new LedgerError('invalid_input', `this PostgreSQL ledger already has ${n} accounts: import only into an empty one`);

        let keys = 0;
        let cells = 0;
        for (const acc of state.accounts.values()) {
          const first = [...state.keys.values()].find((k) => k.account_id === acc.id)!;
          // The account row with its state now; its first key; the `account` record itself
          // only if it is still in the log (copied below with the rest, in order).
          await insertAccount(
            c,
            { t: 'account', a: acc.id, name: acc.name, tier: acc.billing.tier, rate_limit: acc.rate_limit, k: first.key_id, hash: first.hash, at: acc.created_at },
            acc.billing,
            { withRecord: false },
          );
          for (const k of state.keys.values()) {
            if (k.account_id !== acc.id) continue;
            if (k.key_id === first.key_id) {
              if (k.revoked_at) await c.query('UPDATE api_keys SET revoked_at = $2 WHERE key_id = $1', [k.key_id, k.revoked_at]);
            } else await q(c, 'key_insert', [k.key_id, acc.id, k.hash, k.created_at, k.revoked_at]);
            keys++;
          }
          for (const [key, cell] of state.usage.get(acc.id) ?? []) {
            const [cycle, day, endpoint] = key.split('\t') as [string, string, string];
            await c.query('INSERT INTO usage_cells (account_id, cycle, day, endpoint, calls, credits) VALUES ($1, $2, $3, $4, $5, $6)', [
              acc.id,
              Number(cycle),
              day,
              endpoint,
              cell.calls,
              cell.credits,
            ]);
            cells++;
          }
        }
        // `hit` records only rebuild the file ledger's rate window; the shared limiter keeps its own.
        for (const r of records) if (r.t !== 'hit') await q(c, 'record_insert', [r.a, r.t, JSON.stringify(r), r.at]);
        await c.query('INSERT INTO file_imports (id, source_dir, records, accounts) VALUES (1, $1, $2, $3)', [dir, records.length, state.accounts.size]);
        return { source_dir: dir, accounts: state.accounts.size, keys, usage_cells: cells, records: records.length, from_snapshot: snapshot !== undefined };
      });
    } finally {
      await pool.end();
    }
  } finally {
    await file.close();
  }
}
