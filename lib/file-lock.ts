/**
 * One holder per lock file, shared by the ETL (`DATA_DIR/etl.lock`) and the ledger
 * (`LOCK`). The lock is the kernel's flock(2) on the open file, not the file's existence:
 * the kernel drops it the instant its holder dies, whatever the holder was doing, so a
 * crash can never leave the lock stuck and there is no takeover code to get wrong. The
 * file's text (owner pid, host, start time) is only for the message a refused caller gets.
 *
 * The holder deletes the file before closing it (so no file means free). A contender that
 * opened the old file just before that delete can still lock the deleted inode; it checks
 * that the path still names the inode it locked, and tries again if not.
 */
import { flockSync } from 'fs-ext';
import { constants } from 'node:fs';
import { open, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';

export interface LockOwner {
  pid: number;
  hostname: string;
  started_at: string;
}

/** The moments of taking and dropping a lock; tests crash a holder at each one. */
export type LockStep = 'opened' | 'locked' | 'half-written' | 'held' | 'unlinked';

export interface LockOptions {
  /** Called at each step; a test kills the process here to prove any crash is harmless. */
  step?: (step: LockStep) => void;
}

export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  constructor(
    readonly path: string,
    /** Who holds it, from the file; undefined while the holder has not written it yet. */
    readonly owner: LockOwner | undefined,
  ) {
    super(owner ? `${path} is held by pid ${owner.pid} on ${owner.hostname} since ${owner.started_at}` : `${path} is held by a process that has not yet written its name`);
  }
}

export interface HeldFileLock {
  readonly path: string;
  readonly owner: LockOwner;
  /** The owner named in the file when we took it: a holder that died without releasing. */
  readonly previous: LockOwner | undefined;
  /** Deletes the file and drops the lock. Safe to call twice. */
  release(): Promise<void>;
}

export function parseOwner(text: string): LockOwner | undefined {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(o.pid) && (o.pid as number) > 0 && typeof o.hostname === 'string' && typeof o.started_at === 'string') {
      return { pid: o.pid as number, hostname: o.hostname, started_at: o.started_at };
    }
  } catch {
    // half-written or empty: a holder between its lock and its write, or a crashed one
  }
  return undefined;
}

const busy = (e: unknown) => ['EAGAIN', 'EWOULDBLOCK'].includes((e as NodeJS.ErrnoException).code ?? '');

/** Takes the lock at `path` without waiting, or throws LockHeldError. */
export async function acquireFileLock(path: string, opts: LockOptions = {}): Promise<HeldFileLock> {
  const step = opts.step ?? (() => {});
  // Each pass either takes the lock, finds a live holder, or saw a release between its open
  // and its flock (the path moved on): that last case cannot repeat forever without
  // someone taking the lock, so the bound is only a guard against a broken file system.
  for (let attempt = 0; attempt < 1000; attempt++) {
    const fh = await open(path, constants.O_RDWR | constants.O_CREAT, 0o644);
    step('opened');
    try {
      flockSync(fh.fd, 'exnb');
    } catch (e) {
      await fh.close();
      if (!busy(e)) throw e;
      const text = await readFile(path, 'utf8').catch(() => '');
      throw new LockHeldError(path, parseOwner(text));
    }
    if (!(await samePath(fh, path))) {
      await fh.close(); // we locked a file its holder had just deleted: look again
      continue;
    }
    step('locked');
    const previous = parseOwner((await fh.readFile('utf8')) || '');
    const owner: LockOwner = { pid: process.pid, hostname: hostname(), started_at: new Date().toISOString() };
    const body = JSON.stringify(owner) + '\n';
    await fh.truncate(0);
    await fh.write(body.slice(0, body.length >> 1), 0);
    step('half-written');
    await fh.write(body.slice(body.length >> 1), body.length >> 1);
    step('held');
    let released = false;
    return {
      path,
      owner,
      previous,
      release: async () => {
        if (released) return;
        released = true;
        await unlink(path).catch(() => undefined);
        step('unlinked');
        await fh.close();
      },
    };
  }
  throw new Error(`could not take the lock ${path}: the file kept being replaced`);
}

/** Whether `path` still names the file `fh` has open (it may have been deleted or replaced). */
async function samePath(fh: FileHandle, path: string): Promise<boolean> {
  const mine = await fh.stat();
  const now = await stat(path).catch(() => undefined);
  return now !== undefined && now.ino === mine.ino && now.dev === mine.dev;
}
