/**
 * One writer per ledger directory. The lock is a file `LOCK` holding the owner's pid and
 * process start time, created atomically with content (write a private temp file, then
 * hard-link it to `LOCK`: link fails if `LOCK` exists). A lock whose owner is no longer
 * alive (or whose pid now belongs to a different process: the start time differs) is stale
 * and is taken over, so a crash never leaves the ledger stuck.
 */
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'LOCK';

export class LedgerLockedError extends Error {
  override readonly name = 'LedgerLockedError';
  readonly code = 'ledger_locked';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`ledger ${dir} is locked by running process ${pid}: only one writer may open it (use the admin socket while a server runs)`);
  }
}

interface LockInfo {
  pid: number;
  start: string | null;
}

/** Kernel start time of a process (Linux /proc), to tell a live owner from a reused pid. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote `info` is still running. */
export function lockOwnerAlive(info: LockInfo): boolean {
  try {
    process.kill(info.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
  }
  const start = processStart(info.pid);
  return info.start === null || start === null || start === info.start;
}

export async function readLock(dir: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse(await readFile(join(dir, LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : { pid: -1, start: null };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { pid: -1, start: null }; // unreadable content: nobody can own it
  }
}

export interface HeldLock {
  release(): Promise<void>;
}

export async function acquireLock(dir: string): Promise<HeldLock> {
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, start: processStart(process.pid) };
  const body = JSON.stringify(mine);
  const tmp = join(dir, `${LOCK_FILE}.${process.pid}.${Date.now()}.tmp`);
  await writeFile(tmp, body, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, path);
        return {
          release: async () => {
            const cur = await readFile(path, 'utf8').catch(() => '');
            if (cur === body) await unlink(path).catch(() => {});
          },
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = await readLock(dir);
      if (owner && owner.pid > 0 && lockOwnerAlive(owner)) throw new LedgerLockedError(dir, owner.pid);
      await takeOverStale(dir, owner);
    }
    throw new Error(`ledger ${dir}: could not take the writer lock (it kept changing hands)`);
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

/**
 * Moves a stale lock aside. If a live process replaced it between our read and the move,
 * the moved file is not the one we judged stale: put it back and let the caller re-check.
 */
async function takeOverStale(dir: string, seen: LockInfo | undefined): Promise<void> {
  const path = join(dir, LOCK_FILE);
  const aside = join(dir, `${LOCK_FILE}.stale.${process.pid}.${Date.now()}`);
  try {
    await rename(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  let movedInfo: LockInfo | undefined;
  try {
    movedInfo = JSON.parse(moved) as LockInfo;
  } catch {
    movedInfo = undefined;
  }
  if (movedInfo && seen && movedInfo.pid !== seen.pid && lockOwnerAlive(movedInfo)) {
    await link(aside, path).catch(() => {});
  }
  await unlink(aside).catch(() => {});
}
