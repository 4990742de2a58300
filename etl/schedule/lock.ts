/**
 * One ETL build at a time per DATA_DIR: the kernel lock on `DATA_DIR/etl.lock`
 * (lib/file-lock.ts, the same lock the ledger uses). A crashed run's lock is gone the
 * moment it dies, so the next scheduled build always starts; the dead run's name left in
 * the file is logged as a crashed run when the next one takes the lock.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LockHeldError, acquireFileLock, type LockOptions, type LockOwner } from '../../lib/file-lock.ts';

export const LOCK_FILE = 'etl.lock';

export type LockHolder = LockOwner;

/** Pino-style logger: the lock only logs that the previous run crashed holding it. */
export interface LockLog {
  warn(obj: object, msg?: string): void;
}

export class BuildLockedError extends Error {
  override readonly name = 'BuildLockedError';
  readonly code = 'build_locked';
  constructor(
    readonly path: string,
    /** Undefined only in the instant between the holder's lock and its write. */
    readonly holder: LockHolder | undefined,
  ) {
    super(`an ETL build is already running: ${new LockHeldError(path, holder).message}`);
  }
}

export const lockPath = (dataDir: string) => join(dataDir, LOCK_FILE);

export interface HeldBuildLock {
  holder: LockHolder;
  /** Removes the lock. Safe to call twice. */
  release(): Promise<void>;
}

/** Takes the build lock or throws BuildLockedError naming its live holder. */
export async function acquireBuildLock(dataDir: string, log?: LockLog, opts?: LockOptions): Promise<HeldBuildLock> {
  await mkdir(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  let lock;
  try {
    lock = await acquireFileLock(path, opts);
  } catch (e) {
    if (e instanceof LockHeldError) throw new BuildLockedError(path, e.owner);
    throw e;
  }
  const prev = lock.previous;
  if (prev) {
    log?.warn({ event: 'lock_takeover', lock: path, previous: prev }, `took the ETL lock left by pid ${prev.pid}, which died holding it (a crashed run)`);
  }
  return { holder: lock.owner, release: lock.release };
}

/** Runs `fn` holding the build lock; the lock is removed however `fn` settles. */
export async function withBuildLock<T>(dataDir: string, fn: () => Promise<T>, log?: LockLog): Promise<T> {
  const lock = await acquireBuildLock(dataDir, log);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
