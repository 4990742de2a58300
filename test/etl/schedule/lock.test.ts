import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { BuildLockedError, lockPath, withBuildLock } from '../../../etl/schedule/lock.ts';
import { tempDir } from '../../support/tmp.ts';
import { holdLockInChild } from './child.ts';

/** Collects what the lock logs (it only warns, after a crashed run). */
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
    const before = Date.now();
    const result = await withBuildLock(dir, async () => {
      const held = JSON.parse(readFileSync(lockPath(dir), 'utf8'));
      expect(held).toEqual({ pid: process.pid, hostname: hostname(), started_at: expect.any(String) });
      expect(Date.parse(held.started_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(held.started_at)).toBeLessThanOrEqual(Date.now());
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
    expect(locked.holder?.pid).toBe(holder.pid);
    expect(locked.holder?.hostname).toBe(hostname());
    expect(locked.message).toBe(`an ETL build is already running: ${lockPath(dir)} is held by pid ${holder.pid} on ${hostname()} since ${locked.holder?.started_at}`);
    expect(await holder.release()).toBe(0);
    expect(existsSync(lockPath(dir))).toBe(false);
    await expect(withBuildLock(dir, async () => 'mine')).resolves.toBe('mine');
  });

  it('takes the lock of a crashed (SIGKILLed) run at once, logging the dead holder', async () => {
    const dir = dataDir();
    const holder = await holdLockInChild(dir);
    await holder.crash();
    expect(JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid).toBe(holder.pid); // left behind
    const log = collectingLog();
    await expect(withBuildLock(dir, async () => JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid, log)).resolves.toBe(process.pid);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.obj).toMatchObject({ event: 'lock_takeover', previous: { pid: holder.pid, hostname: hostname() } });
    expect(log.lines[0]?.msg).toBe(`took the ETL lock left by pid ${holder.pid}, which died holding it (a crashed run)`);
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('refuses a second holder in the same process (it is alive)', async () => {
    const dir = dataDir();
    await withBuildLock(dir, async () => {
      const err = await withBuildLock(dir, async () => 0).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BuildLockedError);
      expect((err as BuildLockedError).holder?.pid).toBe(process.pid);
    });
  });

  it('a file left without a holder (a crash between create and write) is taken without a takeover log', async () => {
    const dir = dataDir();
    writeFileSync(lockPath(dir), '');
    const log = collectingLog();
    await expect(withBuildLock(dir, async () => 'ok', log)).resolves.toBe('ok');
    expect(log.lines).toHaveLength(0);
  });

  it('fails with the file system error when DATA_DIR cannot hold a lock', async () => {
    const dir = dataDir();
    writeFileSync(`${dir}/not-a-dir`, 'x');
    await expect(withBuildLock(`${dir}/not-a-dir`, async () => 0)).rejects.toThrow(/EEXIST|ENOTDIR/);
  });
});
