/**
 * One ETL build at a time per DATA_DIR. The lock is the file `DATA_DIR/etl.lock`, created
 * exclusively (`open(…, 'wx')`: fails if it exists) and holding its owner as JSON
 * `{pid, hostname, started_at}`. A lock whose owner is alive refuses the next caller with
 * BuildLockedError; a lock left by a crashed run (its pid gone, or now a younger process)
 * is taken over, so a crash never blocks the schedule. The ETL is not part of the service,
 * so this does not share the ledger's lock code; the ideas are the same.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const LOCK_FILE = 'etl.lock';

export interface LockHolder {
  pid: number;
  hostname: string;
  started_at: string;
}

/** Pino-style logger: the lock only logs a takeover. */
export interface LockLog {
  warn(obj: object, msg?: string): void;
}

export class BuildLockedError extends Error {
  override readonly name = 'BuildLockedError';
  readonly code = 'build_locked';
  constructor(
    readonly path: string,
    readonly holder: LockHolder,
  ) {
    super(
      `an ETL build is already running: ${path} is held by pid ${holder.pid} on ${holder.hostname} since ${holder.started_at}` +
        (holder.hostname === hostname() ? '' : ' (another host: if that run is dead, delete the file)'),
    );
  }
}

export const lockPath = (dataDir: string) => join(dataDir, LOCK_FILE);

/**
 * When a process started (ms since epoch), from /proc on Linux; undefined elsewhere. With
 * the lock's started_at it tells a live owner from an unrelated process that reused its pid.
 */
function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (!Number.isFinite(ticks) || !btime) return undefined;
    return Number(btime) * 1000 + ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Whether the holder (on this host) is still running. */
function holderAlive(h: LockHolder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: a process we may not signal exists, so count it as alive.
  }
  const began = processStartMs(h.pid);
  const locked = Date.parse(h.started_at);
  // The owner started before it took the lock; a process younger than the lock is a reuse.
  // Two seconds of slack covers the coarse boot-time clock.
  return began === undefined || Number.isNaN(locked) || began <= locked + 2000;
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === 'number' && Number.isInteger(h.pid) && h.pid > 0 && typeof h.hostname === 'string' && typeof h.started_at === 'string') {
      return { pid: h.pid, hostname: h.hostname, started_at: h.started_at };
    }
  } catch {
    // fall through: unreadable
  }
  return undefined;
}

/**
 * Reads the lock. An empty or partial file may be a holder between its create and its
 * write, so it is re-read for up to a second before being judged debris of a crash.
 */
async function readHolder(path: string): Promise<{ text: string; holder?: LockHolder } | undefined> {
  for (let i = 0; ; i++) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const holder = parseHolder(text);
    if (holder || i === 20) return holder ? { text, holder } : { text };
    await sleep(50);
  }
}

/**
 * Removes a stale lock. Removers are serialised by a second exclusive file, and remove the
 * lock only if it still holds the text judged stale: creators never overwrite (they use
 * 'wx'), so a live holder's fresh lock can never be deleted by a slower contender. A guard
 * left by a remover that crashed in this millisecond window is cleared after 10 seconds.
 */
async function removeStale(path: string, staleText: string): Promise<boolean> {
  const guard = `${path}.takeover`;
  try {
    await (await open(guard, 'wx')).close();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const s = await stat(guard).catch(() => undefined);
    if (s && Date.now() - s.mtimeMs > 10_000) await unlink(guard).catch(() => undefined);
    await sleep(20); // another process is taking over: look again after it
    return false;
  }
  try {
    const cur = await readFile(path, 'utf8').catch(() => undefined);
    if (cur !== staleText) return false;
    await unlink(path);
    return true;
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

export interface HeldBuildLock {
  holder: LockHolder;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): Promise<void>;
}

/** Takes the build lock or throws BuildLockedError naming its live holder. */
export async function acquireBuildLock(dataDir: string, log?: LockLog): Promise<HeldBuildLock> {
  await mkdir(dataDir, { recursive: true });
  const path = lockPath(dataDir);
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), started_at: new Date().toISOString() };
  const body = JSON.stringify(holder) + '\n';
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const fh = await open(path, 'wx', 0o644);
      try {
        await fh.writeFile(body);
        await fh.sync();
      } catch (e) {
        await fh.close();
        await unlink(path).catch(() => undefined);
        throw e;
      }
      await fh.close();
      return {
        holder,
        release: async () => {
          const cur = await readFile(path, 'utf8').catch(() => '');
          if (cur === body) await unlink(path).catch(() => undefined);
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const seen = await readHolder(path);
    if (!seen) continue; // released meanwhile: try again
    const h = seen.holder;
    if (h && (h.hostname !== hostname() || holderAlive(h))) throw new BuildLockedError(path, h);
    if (await removeStale(path, seen.text)) {
      log?.warn(
        { event: 'lock_takeover', lock: path, previous: h ?? { unreadable: seen.text.slice(0, 200) } },
        h ? `took over the ETL lock of pid ${h.pid}, which is no longer running (a crashed run)` : 'took over an unreadable ETL lock left by a crashed run',
      );
    }
  }
  throw new Error(`could not take the ETL lock ${path}: it kept changing hands`);
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
