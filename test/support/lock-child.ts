/**
 * Child process for the lock tests (a real, separate process, as two ETL runs or two
 * servers are). Modes:
 *   hold PATH             take the lock, print `held <pid>`, keep it until stdin ends
 *   crash PATH STEP       take the lock and SIGKILL itself at STEP (lib/file-lock.ts LockStep)
 *   churn PATH LOG COUNT START N MIN
 *                         once all N churners have written `ready <pid>` to START (a start
 *                         line, so none is done before the last has started), take the lock
 *                         COUNT times, and on until LOG shows MIN hand-overs between
 *                         processes or every other churner is done (giving up after a
 *                         minute); `in <pid>` and `out <pid>` lines go to LOG around each
 *                         short hold, `done <pid>` to START at the end
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { LockHeldError, acquireFileLock, type LockStep } from '../../lib/file-lock.ts';

const [mode, path, a, b, c, d, e] = process.argv.slice(2);
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
  const [log, count, start, churners, minHandovers] = [a as string, Number(b), c as string, Number(d), Number(e)];
  const giveUp = Date.now() + 60_000;
  const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean);
  appendFileSync(start, `ready ${process.pid}\n`);
  while (lines(start).filter((l) => l.startsWith('ready ')).length < churners) {
    if (Date.now() > giveUp) throw new Error('the other churners never started');
    await sleep(5);
  }
  let taken = 0;
  const enough = () => {
    if (taken < count) return false;
    const held = lines(log).filter((l) => l.startsWith('in '));
    const handovers = held.filter((l, i) => i > 0 && l !== held[i - 1]).length;
    const othersDone = lines(start).filter((l) => l.startsWith('done ')).length === churners - 1;
    return handovers >= minHandovers || othersDone;
  };
  while (!enough() && Date.now() < giveUp) {
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
  appendFileSync(start, `done ${process.pid}\n`);
  process.stdout.write(`taken ${taken}\n`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
