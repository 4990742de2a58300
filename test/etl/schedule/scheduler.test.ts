import { existsSync, readFileSync } from 'node:fs';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPath } from '../../../etl/schedule/lock.ts';
import { DEFAULT_CRON, ScheduleConfigError, cronFromEnv, startSchedule, type Schedule, type Trigger } from '../../../etl/schedule/scheduler.ts';
import { tempDir } from '../../support/tmp.ts';
import { holdLockInChild } from './child.ts';
import { deferred } from '../../support/deferred.ts';

const EVERY_SECOND = '* * * * * *';

/** Ticks fired by the test, not by the clock. */
function manualTrigger() {
  let onTick: ((tick: Date) => void) | undefined;
  let stopped = false;
  const trigger: Trigger = {
    start: (f) => void (onTick = f),
    nextRun: () => null,
    stop: async () => void (stopped = true),
  };
  return {
    trigger,
    get stopped() {
      return stopped;
    },
    fire(tick = new Date('2026-11-21T03:00:00Z')) {
      if (!onTick) throw new Error('the schedule never started its trigger');
      onTick(tick);
    },
  };
}

/** Lets pending promise callbacks (and the lock's file I/O) run. */
const settle = () => new Promise((r) => setTimeout(r, 50));

type Line = Record<string, any>;

/** A real pino logger whose JSON lines are parsed back, as ops would read them. */
function jsonLog() {
  const lines: Line[] = [];
  const log = pino({ level: 'info', base: undefined }, { write: (s: string) => void lines.push(JSON.parse(s) as Line) });
  return { log, lines, events: (e: string) => lines.filter((l) => l.event === e) };
}

/** Polls for what the schedule does after a tick (no timing asserted: only a bound). */
async function waitFor(what: string, pred: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await settle();
  }
}

const open: Schedule[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.stop();
  for (const c of cleanups.splice(0)) c();
});
function dataDir(): string {
  const t = tempDir('pi-sched-');
  cleanups.push(t.cleanup);
  return t.dir;
}
function started(s: Schedule): Schedule {
  open.push(s);
  return s;
}

describe('startSchedule: configuration', () => {
  it('fails fast on an invalid cron expression, saying which field', () => {
    const { log, lines } = jsonLog();
    const base = { dataDir: dataDir(), log, run: async () => ({ build_id: 'x' }) };
    expect(() => startSchedule({ ...base, cron: '61 * * * *' })).toThrow(ScheduleConfigError);
    expect(() => startSchedule({ ...base, cron: '61 * * * *' })).toThrow('invalid cron expression "61 * * * *": minute: 61 is a invalid expression for minute');
    expect(() => startSchedule({ ...base, cron: 'every night' })).toThrow('invalid cron expression "every night": expected 5 or 6 fields but got 2');
    expect(() => startSchedule({ ...base, cron: '' })).toThrow(ScheduleConfigError);
    expect(lines).toEqual([]); // nothing scheduled
  });

  it('rejects a maxAttempts below 1 and a negative backoff', () => {
    const { log } = jsonLog();
    const base = { dataDir: dataDir(), log, cron: DEFAULT_CRON, run: async () => ({ build_id: 'x' }) };
    expect(() => startSchedule({ ...base, maxAttempts: 0 })).toThrow('maxAttempts must be a whole number ≥ 1, got 0');
    expect(() => startSchedule({ ...base, maxAttempts: 1.5 })).toThrow(ScheduleConfigError);
    expect(() => startSchedule({ ...base, backoffMs: -1 })).toThrow('backoffMs must be ≥ 0, got -1');
  });

  it('reads ETL_CRON, defaulting to 03:00 nightly', () => {
    expect(cronFromEnv({})).toBe('0 3 * * *');
    expect(cronFromEnv({ ETL_CRON: '  ' })).toBe('0 3 * * *');
    expect(cronFromEnv({ ETL_CRON: '30 2 * * 1-5' })).toBe('30 2 * * 1-5');
  });

  it('logs the schedule and its next run on start, and its stop', async () => {
    const { log, events } = jsonLog();
    const s = startSchedule({ cron: '0 3 * * *', timezone: 'Europe/London', dataDir: dataDir(), log, run: async () => ({ build_id: 'x' }) });
    const [start] = events('schedule_started');
    expect(start).toMatchObject({ cron: '0 3 * * *', timezone: 'Europe/London', msg: 'ETL scheduled: 0 3 * * *' });
    expect(Date.parse(start?.next_run)).toBeGreaterThan(Date.now());
    await s.stop();
    expect(events('schedule_stopped')).toHaveLength(1);
  });
});

describe('startSchedule: running builds (ticks fired by hand)', () => {
  it('never runs two builds at once: ticks during a build are skipped and logged', async () => {
    const { log, lines, events } = jsonLog();
    const dir = dataDir();
    const t = manualTrigger();
    const gates = [deferred(), deferred()];
    let calls = 0;
    const s = started(startSchedule({
      cron: EVERY_SECOND, dataDir: dir, log, trigger: t.trigger,
      run: async () => {
        const n = calls++;
        // Holding the lock while it runs, in this process's name.
        expect(JSON.parse(readFileSync(lockPath(dir), 'utf8')).pid).toBe(process.pid);
        await gates[n]!.promise;
        return { build_id: `build-${n + 1}` };
      },
    }));
    t.fire();
    await waitFor('the first build to start', () => calls === 1);
    t.fire();
    t.fire();
    expect(events('tick_skipped').map((l) => l.reason)).toEqual(['running', 'running']);
    gates[0]!.resolve();
    await waitFor('the first build to finish', () => events('build_succeeded').length === 1);
    t.fire(); // free again: the next tick builds
    await waitFor('the second build to start', () => calls === 2);
    t.fire();
    gates[1]!.resolve();
    await waitFor('the second build to finish', () => events('build_succeeded').length === 2);
    await s.stop();
    expect(calls).toBe(2);
    expect(events('tick_skipped')).toHaveLength(3);
    // In the log, each start is followed by its end before the next start.
    const seq = lines.filter((l) => l.event === 'build_started' || l.event === 'build_succeeded').map((l) => `${l.event}`);
    expect(seq).toEqual(['build_started', 'build_succeeded', 'build_started', 'build_succeeded']);
    const [ok] = events('build_succeeded');
    expect(ok).toMatchObject({ level: 30, attempt: 1, build_id: 'build-1', msg: 'ETL build build-1 published' });
    expect(existsSync(lockPath(dir))).toBe(false);
  });

  it('skips ticks while another process holds the lock, naming it, and never calls run', async () => {
    const { log, events } = jsonLog();
    const dir = dataDir();
    const t = manualTrigger();
    const holder = await holdLockInChild(dir);
    try {
      let calls = 0;
      const s = started(startSchedule({ cron: EVERY_SECOND, dataDir: dir, log, trigger: t.trigger, run: async () => ({ build_id: `b${++calls}` }) }));
      t.fire();
      await waitFor('a tick skipped for the lock', () => events('tick_skipped').length === 1);
      await s.stop();
      expect(calls).toBe(0);
      expect(events('build_started')).toHaveLength(0);
      expect(events('tick_skipped')[0]).toMatchObject({ reason: 'locked', holder: { pid: holder.pid } });
      expect(events('tick_skipped')[0]?.msg).toContain(`held by pid ${holder.pid}`);
    } finally {
      await holder.release();
    }
  });

  it('retries a failing build with exponential backoff and gives up after maxAttempts', async () => {
    const { log, lines, events } = jsonLog();
    const dir = dataDir();
    const t = manualTrigger();
    const attempts: number[] = [];
    const waited: number[] = [];
    const s = started(startSchedule({
      cron: EVERY_SECOND, dataDir: dir, log, maxAttempts: 3, backoffMs: 100, trigger: t.trigger,
      wait: async (ms) => void waited.push(ms),
      run: async ({ attempt }) => {
        attempts.push(attempt);
        throw new Error('price paid source missing');
      },
    }));
    t.fire();
    await waitFor('the build to be given up', () => events('build_gave_up').length === 1);
    await s.stop();
    expect(attempts).toEqual([1, 2, 3]); // never a fourth attempt
    expect(waited).toEqual([100, 200]);
    const failed = events('build_failed');
    expect(failed.map((l) => [l.attempt, l.retry_in_ms, l.level])).toEqual([[1, 100, 40], [2, 200, 40]]);
    expect(failed[0]?.err.message).toBe('price paid source missing');
    const [gaveUp] = events('build_gave_up');
    expect(gaveUp).toMatchObject({ level: 50, attempt: 3, msg: 'ETL build failed 3 times; waiting for the next scheduled run' });
    expect(gaveUp?.err.message).toBe('price paid source missing');
    expect(gaveUp?.err.stack).toContain('Error: price paid source missing');
    // the give-up comes straight after the third attempt's start: no retry scheduled
    expect(lines.filter((l) => String(l.event).startsWith('build_')).map((l) => `${l.event}:${l.attempt}`)).toEqual([
      'build_started:1', 'build_failed:1', 'build_started:2', 'build_failed:2', 'build_started:3', 'build_gave_up:3',
    ]);
    expect(existsSync(lockPath(dir))).toBe(false); // released after each failure
  });

  it('a retry that succeeds publishes; durations and the run\'s now come from the clock', async () => {
    const { log, events } = jsonLog();
    const t = manualTrigger();
    let ms = Date.parse('2026-11-21T03:00:00Z');
    const clock = () => new Date((ms += 1000));
    const seen: { now: string; attempt: number }[] = [];
    const s = started(startSchedule({
      cron: EVERY_SECOND, dataDir: dataDir(), log, backoffMs: 10, clock, trigger: t.trigger,
      wait: async () => undefined,
      run: async ({ now, attempt }) => {
        seen.push({ now: now.toISOString(), attempt });
        if (attempt === 1) throw new Error('transient');
        return { build_id: '20261121T030000Z-abcdef' };
      },
    }));
    t.fire();
    await waitFor('a published build', () => events('build_succeeded').length === 1);
    await s.stop();
    expect(seen).toEqual([
      { now: '2026-11-21T03:00:01.000Z', attempt: 1 },
      { now: '2026-11-21T03:00:03.000Z', attempt: 2 },
    ]);
    expect(events('build_failed')[0]).toMatchObject({ attempt: 1, duration_ms: 1000, retry_in_ms: 10 });
    expect(events('build_succeeded')[0]).toMatchObject({ attempt: 2, duration_ms: 1000, build_id: '20261121T030000Z-abcdef' });
    expect(events('build_gave_up')).toHaveLength(0);
  });

  it('stop() waits for the build in progress and stops the trigger; a tick after it runs nothing', async () => {
    const { log, events } = jsonLog();
    const dir = dataDir();
    const t = manualTrigger();
    const gate = deferred();
    let calls = 0;
    const s = startSchedule({
      cron: EVERY_SECOND, dataDir: dir, log, trigger: t.trigger,
      run: async () => {
        calls++;
        await gate.promise;
        return { build_id: 'slow' };
      },
    });
    t.fire();
    await waitFor('a build to start', () => events('build_started').length === 1);
    let stopped = false;
    const stopping = s.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false); // still waiting for the build
    expect(t.stopped).toBe(true); // but no more ticks are asked for
    gate.resolve();
    await stopping;
    expect(events('build_succeeded')).toHaveLength(1);
    expect(existsSync(lockPath(dir))).toBe(false);
    t.fire(); // a late tick: ignored
    await settle();
    expect(calls).toBe(1);
    expect(events('schedule_stopped')).toHaveLength(1);
  });

  it('stop() during a backoff cancels the retry instead of waiting it out', async () => {
    const { log, events } = jsonLog();
    const t = manualTrigger();
    let calls = 0;
    const s = startSchedule({
      cron: EVERY_SECOND, dataDir: dataDir(), log, backoffMs: 600_000, trigger: t.trigger, // the real timer: stop must cut it short
      run: async () => {
        calls++;
        throw new Error('down');
      },
    });
    t.fire();
    await waitFor('a failed attempt', () => events('build_failed').length === 1);
    await s.stop(); // would take 10 minutes if it waited for the retry
    expect(calls).toBe(1);
    expect(events('retry_cancelled')).toEqual([expect.objectContaining({ attempt: 2 })]);
  });
});
