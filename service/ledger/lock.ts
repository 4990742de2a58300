/**
 * One writer per ledger directory: the kernel lock on `LOCK` (lib/file-lock.ts, the same
 * lock the ETL uses), dropped by the kernel the moment its holder dies, so a crashed server
 * never leaves the ledger stuck and no stale-lock takeover is needed.
 */
import { join } from 'node:path';
import { LockHeldError, acquireFileLock, type LockOptions } from '../../lib/file-lock.ts';

export const LOCK_FILE = 'LOCK';

export class LedgerLockedError extends Error {
  override readonly name = 'LedgerLockedError';
  readonly code = 'ledger_locked';
  constructor(
    readonly dir: string,
    /** Undefined only in the instant between the holder's lock and its write. */
    readonly pid: number | undefined,
  ) {
    super(`ledger ${dir} is locked by running process ${pid ?? '(starting, not yet named)'}: only one writer may open it (use the admin socket while a server runs)`);
  }
}

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireLock(dir: string, opts?: LockOptions): Promise<HeldLock> {
  try {
    return await acquireFileLock(join(dir, LOCK_FILE), opts);
  } catch (e) {
    if (e instanceof LockHeldError) throw new LedgerLockedError(dir, e.owner?.pid);
    throw e;
  }
}
