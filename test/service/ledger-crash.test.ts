/**
 * Crash safety: a child process commits charges as fast as it can and journals each request
 * id as it starts ("s") and once `commit` has resolved ("a"); once it has acknowledged its
 * first charge, the parent SIGKILLs it at a seeded random moment, reopens the ledger and
 * checks: every acknowledged charge is there exactly
 * once, and nothing is there that was not at least started (at most the in-flight ones
 * beyond the acknowledged). Each request uses its own endpoint name, so the usage report
 * counts every request id separately even after snapshots have compacted the log.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openFileLedger } from '../../service/ledger/index.ts';
import { chaosScale, untilEnough, withSeed } from '../support/chaos.ts';
import { tempDir } from '../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const tmp = tempDir('pi-ledger-crash-');
afterAll(tmp.cleanup);

const RUNS = chaosScale(50, 15);
const BUDGET_MS = chaosScale(900_000, 420_000);
const PARALLEL = 5;
const WORKERS = 8;
const T0 = new Date('2026-04-01T00:00:00Z');

const CHILD = `
import { openFileLedger } from ${JSON.stringify(join(ROOT, 'service/ledger/file-ledger.ts'))};
import { openSync, writeSync } from 'node:fs';
const [dir, account, every, journalPath] = process.argv.slice(2);
// A file, written synchronously: survives SIGKILL (page cache), unlike a pipe's buffer.
const journal = openSync(journalPath, 'a');
const l = await openFileLedger({ dir, snapshotEvery: Number(every) });
const now = new Date(${JSON.stringify(T0.toISOString())});
let next = 0;
let acked = false;
console.log('ready');
async function worker() {
  for (;;) {
    const id = next++;
    const r = l.reserve(account, 1, now);
    if (!r.ok) throw new Error('refused');
    writeSync(journal, 's ' + id + '\\n');
    await l.commit(r.reservation, { endpoint: 'e' + id, request_id: 'r' + id }, now);
    writeSync(journal, 'a ' + id + '\\n');
    if (!acked) { acked = true; console.log('acked'); }
  }
}
await Promise.all(Array.from({ length: ${WORKERS} }, worker));
`;

interface RunResult {
  started: Set<string>;
  acked: Set<string>;
}

async function crashRun(dir: string, account: string, snapshotEvery: number, killAfterMs: number): Promise<RunResult> {
  const script = join(tmp.dir, 'child.mts');
  const journal = `${dir}.journal`;
  const child = spawn(process.execPath, ['--import', 'tsx', script, dir, account, String(snapshotEvery), journal], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((res) => child.on('exit', () => res()));
  let armed = false;
  await new Promise<void>((res, rej) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // Killed only once charges are flowing: every kill lands mid-work.
      if (!armed && out.includes('acked')) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? res() : rej(new Error(`child exited ${code}: ${err}`))));
  });
  await exited;
  const started = new Set<string>();
  const acked = new Set<string>();
  for (const line of readFileSync(journal, 'utf8').split('\n').slice(0, -1)) {
    const [kind, id] = line.split(' ');
    if (kind === 's') started.add(`e${id}`);
    if (kind === 'a') acked.add(`e${id}`);
  }
  return { started, acked };
}

describe('crash safety under SIGKILL', () => {
  it(`${RUNS} runs killed at random moments while charging: acknowledged charges are all present exactly once`, { timeout: 1_000_000 }, async () => {
    writeFileSync(join(tmp.dir, 'child.mts'), CHILD);
    await withSeed('ledger-crash', async (random) => {
      let totalAcked = 0;
      let runs = 0;
      const runOne = async (i: number, killAfterMs: number) => {
        const dir = join(tmp.dir, `run${i}`);
        const setup = await openFileLedger({ dir });
        const account = (await setup.createAccount({ tier: 'enterprise' }, T0)).account.account_id;
        await setup.close();
        // Half the runs snapshot and rotate segments every few records, so kills land mid-rotation too.
        const { started, acked } = await crashRun(dir, account, i % 2 === 0 ? 25 : 100_000, killAfterMs);
        const l = await openFileLedger({ dir });
        const usage = l.usage({ account_id: account, from: '2000-01-01', to: '2100-01-01' }, T0);
        await l.close();
        const present = new Map(usage.by_endpoint.map((e) => [e.endpoint, e.calls]));
        expect(acked.size, `run ${i}: the child acknowledged charges before the kill`).toBeGreaterThan(0);
        for (const id of acked) expect(present.get(id), `run ${i}: acknowledged ${id}`).toBe(1);
        for (const [id, calls] of present) {
          expect(calls, `run ${i}: ${id} charged ${calls} times`).toBe(1);
          expect(started.has(id), `run ${i}: ${id} present but never started`).toBe(true);
        }
        expect(present.size - acked.size).toBeLessThanOrEqual(WORKERS);
        expect(usage.total_credits).toBe(present.size);
        totalAcked += acked.size;
        runs++;
      };
      await untilEnough({
        budgetMs: BUDGET_MS,
        enough: () => runs >= RUNS,
        progress: () => `${runs} of ${RUNS} runs killed while charging`,
        step: async (k) => {
          const delays = Array.from({ length: PARALLEL }, () => Math.floor(random() * 300));
          await Promise.all(delays.map((ms, j) => runOne(k * PARALLEL + j, ms)));
        },
      });
      console.log(`crash runs: ${runs}, acknowledged charges checked: ${totalAcked}`);
    });
  });
});
