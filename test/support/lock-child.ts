/**
 * Child process for the lock tests (a real, separate process, as two ETL runs or two
 * servers are). Modes:
 *   hold PATH             take the lock, print `held <pid>`, keep it until stdin ends
 *   crash PATH STEP       take the lock and SIGKILL itself at STEP (lib/file-lock.ts LockStep)
 *   churn PATH LOG COUNT  take the lock COUNT times (giving up after a minute), appending
 *                         `in <pid>` and `out <pid>` lines to LOG around each short hold
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockHeldError, acquireFileLock, type LockStep } from '../../lib/file-lock.ts';

const [mode, path, a, b] = process.argv.slice(2);
if (!mode || !path) throw new Error('usage: lock-child.ts hold|crash|churn PATH …');

if (mode === 'hold') {
  const lock = await acquireFileLock(path);
  process.stdout.write(`held ${process.pid}\n`);
  await new Promise<void>((resolve) => {
    process.stdin.on('end', resolve);
    process.stdin.resume();
  });
  await lock.release();
} else if (mode === 'crash') {
  const at = a as LockStep;
  const lock = await acquireFileLock(path, { step: (s) => s === at && process.kill(process.pid, 'SIGKILL') });
  await lock.release(); // reached only for steps after 'held'
  process.stdout.write(`survived ${at}\n`); // the test fails on this: the crash point was never reached
} else if (mode === 'churn') {
  const log = a as string;
  const count = Number(b);
  const giveUp = Date.now() + 60_000;
  let taken = 0;
  while (taken < count && Date.now() < giveUp) {
    let lock;
    try {
      lock = await acquireFileLock(path);
    } catch (e) {
      if (!(e instanceof LockHeldError)) throw e;
      await sleep(Math.random() * 2);
      continue;
    }
    appendFileSync(log, `in ${process.pid}\n`);
    await sleep(Math.random() * 2);
    appendFileSync(log, `out ${process.pid}\n`);
    await lock.release();
    taken++;
  }
  process.stdout.write(`taken ${taken}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
