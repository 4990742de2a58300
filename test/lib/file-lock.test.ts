import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { flockSync } from 'fs-ext';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LockHeldError, acquireFileLock, type LockStep } from '../../lib/file-lock.ts';
import { tempDir } from '../support/tmp.ts';

const CHILD = join(import.meta.dirname, '../support/lock-child.ts');
const tmp = tempDir('pi-file-lock-');
afterAll(tmp.cleanup);
let n = 0;
const freshPath = () => join(tmp.dir, `lock-${n++}`);

/** Runs the lock child to its end; its exit signal, code and output. */
function runChild(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((res) => child.on('exit', (code, signal) => res({ code, signal, out, err })));
}

/** A child holding the lock until told to release it. */
async function holdInChild(path: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'hold', path], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  await new Promise<void>((res, rej) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.startsWith('held ')) res();
    });
    void exited.then((code) => rej(new Error(`holder exited ${code} before holding`)));
  });
  return { pid: child.pid as number, release: () => (child.stdin.end(), exited), kill: () => (child.kill('SIGKILL'), exited) };
}

describe('acquireFileLock', () => {
  it('writes its owner while held and deletes the file on release', async () => {
    const path = freshPath();
    const before = Date.now();
    const lock = await acquireFileLock(path);
    const after = Date.now();
    const owner = JSON.parse(readFileSync(path, 'utf8'));
    expect(owner).toEqual({ pid: process.pid, hostname: hostname(), started_at: expect.any(String) });
    expect(Date.parse(owner.started_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(owner.started_at)).toBeLessThanOrEqual(after);
    expect(lock.previous).toBeUndefined();
    await lock.release();
    await lock.release(); // twice is harmless
    expect(existsSync(path)).toBe(false);
  });

  it('refuses a second holder in the same process, naming the first', async () => {
    const path = freshPath();
    const lock = await acquireFileLock(path);
    const err = await acquireFileLock(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockHeldError);
    expect((err as LockHeldError).owner).toEqual(lock.owner);
    expect((err as Error).message).toBe(`${path} is held by pid ${process.pid} on ${hostname()} since ${lock.owner.started_at}`);
    await lock.release();
    const again = await acquireFileLock(path);
    await again.release();
  });

  it('refuses while another process holds it; free once that process releases, or dies', async () => {
    const path = freshPath();
    const h1 = await holdInChild(path);
    const err = await acquireFileLock(path).catch((e: unknown) => e);
    expect((err as LockHeldError).owner?.pid).toBe(h1.pid);
    expect(await h1.release()).toBe(0);
    expect(existsSync(path)).toBe(false);

    const h2 = await holdInChild(path);
    await expect(acquireFileLock(path)).rejects.toBeInstanceOf(LockHeldError);
    await h2.kill();
    const lock = await acquireFileLock(path); // at once: the kernel dropped the dead holder's lock
    expect(lock.previous?.pid).toBe(h2.pid);
    await lock.release();
  });

  // Each moment a holder can die, injected: the next caller takes the lock on its first try.
  const steps: { step: LockStep; leaves: 'a file with its owner' | 'a file without an owner' | 'no file' }[] = [
    { step: 'opened', leaves: 'a file without an owner' }, // created, not yet locked
    { step: 'locked', leaves: 'a file without an owner' }, // locked, not yet written
    { step: 'half-written', leaves: 'a file without an owner' },
    { step: 'held', leaves: 'a file with its owner' },
    { step: 'unlinked', leaves: 'no file' }, // releasing: deleted, not yet closed
  ];
  for (const { step, leaves } of steps) {
    it(`a holder killed at '${step}' leaves ${leaves} and never blocks the next caller`, async () => {
      const path = freshPath();
      const r = await runChild(['crash', path, step]);
      expect(r.signal, `child did not die at ${step}: ${r.out}${r.err}`).toBe('SIGKILL');
      expect(existsSync(path)).toBe(leaves !== 'no file');
      const lock = await acquireFileLock(path);
      expect(lock.owner.pid).toBe(process.pid);
      expect(lock.previous === undefined).toBe(leaves !== 'a file with its owner');
      expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
      await lock.release();
    });
  }

  it('takes a file holding garbage or a dead owner: the file is not the lock', async () => {
    const path = freshPath();
    writeFileSync(path, 'garbage');
    const a = await acquireFileLock(path);
    expect(a.previous).toBeUndefined();
    await a.release();
    writeFileSync(path, JSON.stringify({ pid: 4242, hostname: 'etl-box-2', started_at: '2026-11-21T03:00:00Z' }));
    const b = await acquireFileLock(path);
    expect(b.previous).toEqual({ pid: 4242, hostname: 'etl-box-2', started_at: '2026-11-21T03:00:00Z' });
    await b.release();
  });

  it('of many concurrent callers in one process, exactly one wins', async () => {
    const path = freshPath();
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => acquireFileLock(path)));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(11);
    for (const e of refused) expect(e).toBeInstanceOf(LockHeldError);
    await won[0]?.release();
  });

  it('never has two holders: four processes each taking and releasing it 40 times', async () => {
    const path = freshPath();
    const log = join(tmp.dir, `churn-${n}.log`);
    const start = join(tmp.dir, `churn-${n}.start`);
    writeFileSync(log, '');
    writeFileSync(start, '');
    // Paced, not timed: the children start churning together (a busy machine starts them
    // seconds apart) and go on past 40 takes until there have been enough hand-overs.
    const runs = await Promise.all(Array.from({ length: 4 }, () => runChild(['churn', path, log, '40', start, '4', '10'])));
    for (const r of runs) expect(r.code, r.err).toBe(0);
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    // Strictly "in p", "out p" pairs: nobody entered while someone was inside.
    for (let i = 0; i < lines.length; i += 2) {
      const pid = lines[i]?.slice(3);
      expect(lines[i], `line ${i}`).toBe(`in ${pid}`);
      expect(lines[i + 1], `line ${i + 1}`).toBe(`out ${pid}`);
    }
    // Enough hand-overs between processes to have tested anything (a release races a
    // contender's open on every one); the children went on until there were, unless a minute passed.
    const handovers = lines.filter((l, i) => i % 2 === 0 && i > 0 && l.slice(3) !== lines[i - 2]?.slice(3)).length;
    expect(handovers, `only ${handovers} hand-overs between processes: the children hardly overlapped`).toBeGreaterThanOrEqual(10);
  });

  it('a holder that releases between a contender\'s open and its flock: the contender locks the deleted file, sees it, and takes the lock on the new file (no two holders)', async () => {
    // Deterministic form of the race the churn test meets by chance: the holder (a raw flock,
    // released as release() does: unlink, then close) lets go at the contender's 'opened' step,
    // so the contender's flock succeeds on an inode the path no longer names.
    const path = freshPath();
    const fd = openSync(path, 'w+');
    flockSync(fd, 'exnb');
    writeFileSync(fd, JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: new Date().toISOString() }));
    let opened = 0;
    const lock = await acquireFileLock(path, {
      step: (s) => {
        if (s !== 'opened' || opened++ > 0) return;
        unlinkSync(path);
        closeSync(fd);
      },
    });
    expect(existsSync(path), 'the lock the contender holds is the file its path names').toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(process.pid);
    // A third caller must be refused: the contender holds the file at the path, not a deleted one.
    await expect(acquireFileLock(path)).rejects.toBeInstanceOf(LockHeldError);
    expect(opened, 'the contender looked again after finding its file deleted').toBe(2);
    await lock.release();
    expect(existsSync(path)).toBe(false);
  });

  it('fails with the file system error when the folder cannot hold it', async () => {
    const file = freshPath();
    writeFileSync(file, 'x');
    await expect(acquireFileLock(join(file, 'lock'))).rejects.toThrow(/ENOTDIR/);
  });
});
