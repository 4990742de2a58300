import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  LEDGER_RETRY_MS,
  LedgerUnavailableError,
  LedgerCorruptError,
  LedgerLockedError,
  openFileLedger,
  readLogRecords,
  type FileLedger,
} from '../../service/ledger/index.ts';
import { frameAt } from '../../service/ledger/frame.ts';
import { tempDir } from '../support/tmp.ts';

const tmp = tempDir('pi-ledger-rec-');
afterAll(tmp.cleanup);
let n = 0;
const freshDir = () => join(tmp.dir, `l${n++}`);
const T0 = new Date('2026-04-01T00:00:00Z');
const SEG = 'log-000000000001.seg';
const ROOT = resolve(import.meta.dirname, '../..');

async function charge(l: FileLedger, account: string, i: number) {
  const r = l.reserve(account, 1, T0);
  if (!r.ok) throw new Error('reserve refused');
  await l.commit(r.reservation, { endpoint: 'GET /v1/x', request_id: `req-${i}` }, T0);
}

/** A ledger with one account and `k` debits; returns the byte range of the last record. */
async function buildLog(k: number): Promise<{ dir: string; lastStart: number; lastEnd: number; account: string }> {
  const dir = freshDir();
  const l = await openFileLedger({ dir, snapshotOnClose: false });
  const account = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
  for (let i = 0; i < k - 1; i++) await charge(l, account, i);
  const lastStart = statSync(join(dir, SEG)).size;
  await charge(l, account, k - 1);
  await l.close();
  return { dir, lastStart, lastEnd: statSync(join(dir, SEG)).size, account };
}

function copyWith(src: string, edit: (b: Buffer) => Buffer): string {
  const dir = freshDir();
  mkdirSync(dir);
  writeFileSync(join(dir, SEG), edit(readFileSync(join(src, SEG))));
  return dir;
}

describe('torn tail', () => {
  it('a last record cut at every offset is dropped and the earlier records are intact', async () => {
    const base = await buildLog(4);
    for (let cut = base.lastStart; cut < base.lastEnd; cut++) {
      const dir = copyWith(base.dir, (b) => b.subarray(0, cut));
      const l = await openFileLedger({ dir, snapshotOnClose: false });
      expect(l.opened.tornBytesDropped).toBe(cut - base.lastStart);
      expect(l.opened.recordsReplayed).toBe(4); // account + three debits
      expect(l.account(base.account, T0)?.used_this_cycle).toBe(3);
      expect(statSync(join(dir, SEG)).size).toBe(base.lastStart);
      if ((cut - base.lastStart) % 16 !== 0) {
        await l.close();
        continue;
      }
      // The log continues cleanly after the cut.
      await charge(l, base.account, 99);
      await l.close();
      const again = await openFileLedger({ dir });
      expect([again.opened.tornBytesDropped, again.account(base.account, T0)?.used_this_cycle]).toEqual([0, 4]);
      await again.close();
    }
  });

  it('a last record with any one byte damaged is dropped, never misread', async () => {
    const base = await buildLog(3);
    for (let i = base.lastStart; i < base.lastEnd; i++) {
      const dir = copyWith(base.dir, (b) => {
        const c = Buffer.from(b);
        c[i] = c[i]! ^ 0xff;
        return c;
      });
      const l = await openFileLedger({ dir, snapshotOnClose: false });
      expect(l.account(base.account, T0)?.used_this_cycle).toBe(2);
      expect(l.opened.recordsReplayed).toBe(3); // account + two debits
      await l.close();
    }
  });

  it('a zero-filled tail (space allocated, data never written) is dropped', async () => {
    const base = await buildLog(2);
    const dir = copyWith(base.dir, (b) => Buffer.concat([b, Buffer.alloc(4096)]));
    const l = await openFileLedger({ dir });
    expect([l.opened.tornBytesDropped, l.account(base.account, T0)?.used_this_cycle]).toEqual([4096, 2]);
    await l.close();
  });

  it('a segment cut inside its header (crash while creating it) is re-initialised', async () => {
    const base = await buildLog(2);
    const dir = copyWith(base.dir, (b) => b);
    writeFileSync(join(dir, 'log-000000000002.seg'), Buffer.from('PILE'));
    const l = await openFileLedger({ dir });
    expect(l.account(base.account, T0)?.used_this_cycle).toBe(2);
    await charge(l, base.account, 5);
    await l.close();
    const again = await openFileLedger({ dir });
    expect(again.account(base.account, T0)?.used_this_cycle).toBe(3);
    await again.close();
  });
  it('damage anywhere inside a multi-record last batch (a power cut can persist a later page) is a torn tail', async () => {
    const dir0 = freshDir();
    const l = await openFileLedger({ dir: dir0, snapshotOnClose: false });
    const account = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
    await charge(l, account, 0);
    await Promise.all(Array.from({ length: 10 }, (_, i) => charge(l, account, 100 + i))); // 1 + 9 in two batches
    await l.close();
    const buf = readFileSync(join(dir0, SEG));
    const frames: { at: number; batchStart: boolean }[] = [];
    for (let pos = 8; pos < buf.length; ) {
      const f = frameAt(buf, pos)!;
      frames.push({ at: pos, batchStart: f.batchStart });
      pos = f.next;
    }
    const lastBatch = frames.map((f) => f.batchStart).lastIndexOf(true);
    expect(frames.length - lastBatch).toBeGreaterThan(2); // the last batch really holds several records
    for (let k = lastBatch; k < frames.length; k++) {
      const dir = copyWith(dir0, (b) => {
        const c = Buffer.from(b);
        c[frames[k]!.at + 12] = c[frames[k]!.at + 12]! ^ 0x55; // inside record k's payload
        return c;
      });
      const r = await openFileLedger({ dir, snapshotOnClose: false });
      expect(r.opened.recordsReplayed).toBe(k);
      expect(statSync(join(dir, SEG)).size).toBe(frames[k]!.at);
      await r.close();
    }
    // The same damage one batch earlier is corruption: a whole batch was synced after it.
    const dir = copyWith(dir0, (b) => {
      const c = Buffer.from(b);
      c[frames[lastBatch - 1]!.at + 12] = c[frames[lastBatch - 1]!.at + 12]! ^ 0x55;
      return c;
    });
    await expect(openFileLedger({ dir })).rejects.toThrow(/followed by a later batch/);
  });
});

describe('corruption that is not a torn tail', () => {
  it('a damaged record followed by valid ones refuses to open, naming the offset', async () => {
    const base = await buildLog(3);
    const dir = copyWith(base.dir, (b) => {
      const c = Buffer.from(b);
      c[20] = c[20]! ^ 0x01; // inside the first record's payload
      return c;
    });
    await expect(openFileLedger({ dir })).rejects.toThrow(LedgerCorruptError);
    await expect(openFileLedger({ dir })).rejects.toThrow(/damaged record at byte 8 followed by a later batch .*not a torn tail/);
    // Refusing released the lock: the failure is repeatable, not "locked".
    await expect(openFileLedger({ dir })).rejects.toThrow(LedgerCorruptError);
  });

  it('a file that is not a segment, a damaged snapshot or a missing segment refuses to open', async () => {
    const notSeg = copyWith((await buildLog(1)).dir, (b) => Buffer.concat([Buffer.from('NOTALOG\n'), b.subarray(8)]));
    await expect(openFileLedger({ dir: notSeg })).rejects.toThrow(/not a ledger segment/);

    const dir = freshDir();
    const l = await openFileLedger({ dir });
    await l.createAccount({ tier: 'free' }, T0);
    await l.close(); // writes snapshot.bin
    const snap = readFileSync(join(dir, 'snapshot.bin'));
    snap[snap.length - 3] = snap[snap.length - 3]! ^ 0x20;
    writeFileSync(join(dir, 'snapshot.bin'), snap);
    await expect(openFileLedger({ dir })).rejects.toThrow(/damaged snapshot/);

    const gap = freshDir();
    const g = await openFileLedger({ dir: gap, snapshotOnClose: false });
    await g.close();
    copyFileSync(join(gap, SEG), join(gap, 'log-000000000003.seg'));
    await expect(openFileLedger({ dir: gap })).rejects.toThrow(/log-000000000002.seg is missing/);
  });

  it('a record that cannot apply (log and code disagree) refuses to open', async () => {
    const base = await buildLog(1);
    const l = await openFileLedger({ dir: base.dir, snapshotOnClose: false });
    await l.close();
    // Append a well-framed debit for an account that does not exist.
    const { encodeFrame } = await import('../../service/ledger/frame.ts');
    const seg = readFileSync(join(base.dir, SEG));
    writeFileSync(join(base.dir, SEG), Buffer.concat([seg, encodeFrame({ t: 'debit', a: 'acc_ghost', c: 1, e: 'x', r: 'y', at: T0.toISOString() })]));
    await expect(openFileLedger({ dir: base.dir })).rejects.toThrow(/cannot be applied: ledger record for unknown account/);
    expect((await readLogRecords(base.dir)).records.at(-1)).toMatchObject({ a: 'acc_ghost' });
  });
});

describe('write failures', () => {
  it('a failed write refuses every change until writes succeed again, then recovers by itself keeping nothing unacknowledged', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir });
    const account = (await l.createAccount({ tier: 'starter' }, T0)).account.account_id;
    await charge(l, account, 1);
    mkdirSync(join(dir, 'snapshot.bin.tmp')); // the snapshot's temp file cannot be created
    const snap = l.snapshot();
    // Queued behind the failing rotation: applied in memory at once, never made durable.
    const r = l.reserve(account, 1, T0);
    if (!r.ok) throw new Error('reserve refused');
    const queued = l.commit(r.reservation, { endpoint: 'GET /v1/x', request_id: 'req-queued' }, T0);
    await expect(snap).rejects.toThrow(/ledger write failed: EISDIR/);
    await expect(queued).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(l.reserve(account, 1, T0)).toEqual({ ok: false, reason: 'unavailable' });
    await expect(l.createAccount({ tier: 'free' }, T0)).rejects.toBeInstanceOf(LedgerUnavailableError);
    expect(l.health()).toEqual({ writable: false, write_failures: 1, recoveries: 0 });

    // A call after the retry interval cuts the log back to what was fsynced and reloads it.
    await new Promise((res) => setTimeout(res, LEDGER_RETRY_MS + 20));
    await vi.waitFor(() => expect(l.health().writable).toBe(true), { timeout: 5000, interval: 20 });
    expect(l.health()).toEqual({ writable: true, write_failures: 1, recoveries: 1 });
    expect(l.account(account, T0)?.used_this_cycle).toBe(1); // the refused charge is not kept
    await charge(l, account, 3);
    rmSync(join(dir, 'snapshot.bin.tmp'), { recursive: true });
    await l.snapshot();
    await l.close();
    const again = await openFileLedger({ dir }); // the lock was released
    expect(again.listAccounts(T0)).toHaveLength(1);
    expect(again.account(account, T0)?.used_this_cycle).toBe(2);
    expect(again.usage({ account_id: account }, T0).total_calls).toBe(2);
    await again.close();
  });
});

describe('writer lock', () => {
  it('refuses a second writer in the same process, and frees the lock on close', async () => {
    const dir = freshDir();
    const l = await openFileLedger({ dir });
    const err = await openFileLedger({ dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerLockedError);
    expect((err as LedgerLockedError).pid).toBe(process.pid);
    await l.close();
    const l2 = await openFileLedger({ dir });
    await l2.close();
  });

  it('refuses while another process holds it, and opens at once when that process is killed', async () => {
    const dir = freshDir();
    const script = join(tmp.dir, 'holder.mts');
    writeFileSync(
      script,
      `import { openFileLedger } from ${JSON.stringify(join(ROOT, 'service/ledger/index.ts'))};\n` +
        `await openFileLedger({ dir: process.argv[2]! });\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((res, rej) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && res());
      child.on('exit', (code) => rej(new Error(`holder exited early (${code})`)));
    });
    const err = await openFileLedger({ dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerLockedError);
    expect((err as Error).message).toContain(`locked by running process ${child.pid}`);
    const exited = new Promise((res) => child.on('exit', res));
    child.kill('SIGKILL');
    await exited;
    const l = await openFileLedger({ dir }); // the kernel dropped the dead holder's lock
    expect(JSON.parse(readFileSync(join(dir, 'LOCK'), 'utf8')).pid).toBe(process.pid);
    await l.close();
  });

  it('opens over a LOCK file left with a dead owner or garbage (the file is not the lock), and names itself in it', async () => {
    const dir = freshDir();
    mkdirSync(dir);
    for (const left of [JSON.stringify({ pid: 4242, hostname: 'old-box', started_at: '2001-01-01T00:00:00Z' }), 'garbage']) {
      writeFileSync(join(dir, 'LOCK'), left);
      const l = await openFileLedger({ dir });
      expect(JSON.parse(readFileSync(join(dir, 'LOCK'), 'utf8')).pid).toBe(process.pid);
      await expect(openFileLedger({ dir })).rejects.toBeInstanceOf(LedgerLockedError);
      await l.close();
      expect(() => statSync(join(dir, 'LOCK'))).toThrow(/ENOENT/);
    }
  });
});
