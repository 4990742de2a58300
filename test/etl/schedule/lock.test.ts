import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildLockedError, acquireBuildLock, lockPath, withBuildLock } from '../../../etl/schedule/lock.ts';
import { tempDir } from '../../support/tmp.ts';
import { holdLockInChild } from './child.ts';

/** Collects what the lock logs (it only warns, on a takeover). */
function collectingLog() {
  const lines: { obj: Record<string, unknown>; msg?: string }[] = [];
  return { lines, warn: (obj: object, msg?: string) => void lines.push({ obj: obj as Record<string, unknown>, msg }) };
}

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});
function dataDir(): string {
  const t = tempDir('pi-lock-');
  cleanups.push(t.cleanup);
  return t.dir;
}

describe('withBuildLock', () => {
  it('holds etl.lock with pid, hostname and start time while fn runs, and removes it after success', async () => {
    const dir = dataDir();
    const result = await withBuildLock(dir, async () => {
      const held = JSON.parse(readFileSync(lockPath(dir), 'utf8'));
      expect(held).toEqual({ pid: process.pid, hostname: hostname(), started_at: expect.any(String) });
      expect(Date.now() - Date.parse(held.started_at)).toBeGreaterThanOrEqual(0);
      return 'built';
    });
    expect(result).toBe('built');
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('removes the lock after failure and passes the error on unchanged', async () => {
    const dir = dataDir();
    const boom = new Error('stage failed');
    await expect(withBuildLock(dir, async () => { throw boom; })).rejects.toBe(boom);
    expect(existsSync(lockPath(dir))).toBe(false);
    // and the next run can take it
    await expect(withBuildLock(dir, async () => 1)).resolves.toBe(1);
  });

  it('refuses while another live process holds it, naming the holder; free again once it releases', async () => {
    const dir = dataDir();
    const holder = await holdLockInChild(dir);
    let ran = false;
    const err = await withBuildLock(dir, async () => { ran = true; }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildLockedError);
    expect(ran).toBe(false);
    const locked = err as BuildLockedError;
    expect(locked.holder.pid).toBe(holder.pid);
    expect(locked.holder.hostname).toBe(hostname());
    expect(locked.message).toContain(`held by pid ${holder.pid} on ${hostname()} since `);
    expect(await holder.release()).toBe(0);
    expect(existsSync(lockPath(dir))).toBe(false);
    await expect(withBuildLock(dir, async () => 'mine')).resolves.toBe('mine');
  });

  it('takes over the lock of a crashed (SIGKILLed) run, logging the dead holder', async () => {
    const dir = dataDir();
    const holder = await holdLockInChild(dir);
    await holder.crash();
    expect(JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid).toBe(holder.pid); // left behind
    const log = collectingLog();
    await expect(withBuildLock(dir, async () => JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid, log)).resolves.toBe(process.pid);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.obj).toMatchObject({ event: 'lock_takeover', previous: { pid: holder.pid, hostname: hostname() } });
    expect(log.lines[0]?.msg).toContain(`pid ${holder.pid}, which is no longer running`);
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('refuses a second holder in the same process (it is alive)', async () => {
    const dir = dataDir();
    await withBuildLock(dir, async () => {
      await expect(withBuildLock(dir, async () => 0)).rejects.toBeInstanceOf(BuildLockedError);
    });
  });

  it('treats a pid reused by a younger process as a dead holder', async () => {
    const dir = dataDir();
    // Our own pid, but a lock dated long before this process started: not ours.
    writeFileSync(lockPath(dir), JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: '2001-01-01T00:00:00Z' }));
    const log = collectingLog();
    await expect(withBuildLock(dir, async () => 'ok', log)).resolves.toBe('ok');
    expect(log.lines[0]?.obj).toMatchObject({ event: 'lock_takeover' });
  });

  it('refuses a lock held on another host: its pid cannot be checked from here', async () => {
    const dir = dataDir();
    writeFileSync(lockPath(dir), JSON.stringify({ pid: 4242, hostname: 'etl-box-2', started_at: '2026-11-21T03:00:00Z' }));
    const err = await withBuildLock(dir, async () => 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BuildLockedError);
    expect((err as Error).message).toContain('held by pid 4242 on etl-box-2');
    expect((err as Error).message).toContain('another host');
    expect(existsSync(lockPath(dir))).toBe(true); // untouched
  });

  it('takes over an unreadable lock (a crash between create and write) after waiting for it', async () => {
    const dir = dataDir();
    writeFileSync(lockPath(dir), '');
    const log = collectingLog();
    await expect(withBuildLock(dir, async () => 'ok', log)).resolves.toBe('ok');
    expect(log.lines[0]?.obj).toMatchObject({ event: 'lock_takeover', previous: { unreadable: '' } });
  });

  it('lets exactly one of many concurrent contenders take over a dead lock', async () => {
    const dir = dataDir();
    const holder = await holdLockInChild(dir);
    await holder.crash();
    const log = collectingLog();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => acquireBuildLock(dir, log)));
    const won = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(refused.every((r) => r.reason instanceof BuildLockedError && r.reason.holder.pid === process.pid)).toBe(true);
    expect(log.lines).toHaveLength(1);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireBuildLock>>>).value.release();
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('fails with the file system error when DATA_DIR cannot hold a lock', async () => {
    const dir = dataDir();
    writeFileSync(`${dir}/not-a-dir`, 'x');
    await expect(withBuildLock(`${dir}/not-a-dir`, async () => 0)).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});
