/**
 * The scheduled refresh: node-cron ticks, one build at a time, retries with backoff.
 *
 * Never two builds at once: a tick while this process is building (or waiting to retry)
 * is skipped, and a tick while another process holds DATA_DIR/etl.lock is skipped too.
 * Each attempt runs under the lock; a failed attempt is retried after backoffMs × 2^(n-1)
 * up to maxAttempts, then the failure is logged and the schedule waits for its next tick.
 * Every event is one JSON log line with an `event` field.
 */
import { createTask, validateDetailed } from 'node-cron';
import type { EtlLogger } from '../pipeline/context.ts';
import { BuildLockedError, acquireBuildLock } from './lock.ts';

/** Pino-style logger (a pino Logger fits): the ETL's own logger type. */
export type ScheduleLog = EtlLogger;

export interface RunContext {
  /** When this attempt started, by the schedule's clock. */
  now: Date;
  /** 1 for the scheduled run, 2… for retries. */
  attempt: number;
}

export type RunBuild = (ctx: RunContext) => Promise<{ build_id: string }>;

export interface ScheduleOptions {
  /** Cron expression, 5 fields or 6 with seconds first (node-cron syntax). */
  cron: string;
  run: RunBuild;
  dataDir: string;
  log: ScheduleLog;
  maxAttempts?: number;
  backoffMs?: number;
  /** IANA time zone for the cron expression; the process's own zone when absent. */
  timezone?: string;
  clock?: () => Date;
  /** What calls the ticks: node-cron on `cron` by default; tests fire ticks by hand. */
  trigger?: Trigger;
  /** Waits out a retry's backoff (rejecting when `signal` aborts); a timer by default. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A source of ticks. */
export interface Trigger {
  start(onTick: (tick: Date) => void): void;
  /** When the next tick is due, if known. */
  nextRun(): Date | null;
  stop(): Promise<void>;
}

export interface Schedule {
  /** Stops ticking, cancels a pending retry, and waits for a build in progress. */
  stop(): Promise<void>;
}

export const DEFAULT_CRON = '0 3 * * *';

/** The cron expression ops set in ETL_CRON, or the nightly default. */
export function cronFromEnv(env: NodeJS.ProcessEnv): string {
  return env.ETL_CRON?.trim() || DEFAULT_CRON;
}

export class ScheduleConfigError extends Error {
  override readonly name = 'ScheduleConfigError';
}

/** Throws ScheduleConfigError saying what is wrong with a cron expression. */
export function checkCron(cron: string): void {
  const v = validateDetailed(cron);
  if (!v.valid) {
    const why = v.errors.map((e) => (e.field === 'expression' ? e.message : `${e.field}: ${e.message}`)).join('; ');
    throw new ScheduleConfigError(`invalid cron expression "${cron}": ${why || 'not a cron expression'}`);
  }
}

/** Resolves after `ms`, or rejects at once if `signal` aborts (stop() during a backoff). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function startSchedule(opts: ScheduleOptions): Schedule {
  const { cron, run, dataDir, log, maxAttempts = 3, backoffMs = 60_000, timezone, wait = sleep } = opts;
  const clock = opts.clock ?? (() => new Date());
  checkCron(cron);
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new ScheduleConfigError(`maxAttempts must be a whole number ≥ 1, got ${maxAttempts}`);
  if (!Number.isFinite(backoffMs) || backoffMs < 0) throw new ScheduleConfigError(`backoffMs must be ≥ 0, got ${backoffMs}`);

  const stopping = new AbortController();
  let cycle: Promise<void> | undefined;

  /** One scheduled run: attempts under the lock until one succeeds or maxAttempts fail. */
  async function runCycle(tick: Date): Promise<void> {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let lock;
      try {
        lock = await acquireBuildLock(dataDir, log);
      } catch (e) {
        if (e instanceof BuildLockedError) {
          log.info({ event: 'tick_skipped', tick, reason: 'locked', holder: e.holder, attempt }, `skipped: ${e.message}`);
          return; // another process is building: its build, not ours to retry
        }
        throw e;
      }
      const started = clock();
      log.info({ event: 'build_started', attempt, max_attempts: maxAttempts, tick }, `ETL build started (attempt ${attempt} of ${maxAttempts})`);
      let error: unknown;
      let result: { build_id: string } | undefined;
      try {
        result = await run({ now: started, attempt });
      } catch (e) {
        error = e;
      } finally {
        await lock.release();
      }
      const duration_ms = clock().getTime() - started.getTime();
      if (result) {
        log.info({ event: 'build_succeeded', attempt, build_id: result.build_id, duration_ms }, `ETL build ${result.build_id} published`);
        return;
      }
      const err = error instanceof Error ? error : new Error(String(error));
      if (attempt === maxAttempts) {
        log.error({ event: 'build_gave_up', attempt, duration_ms, err }, `ETL build failed ${maxAttempts} times; waiting for the next scheduled run`);
        return;
      }
      const retry_in_ms = backoffMs * 2 ** (attempt - 1);
      log.warn({ event: 'build_failed', attempt, duration_ms, retry_in_ms, err }, `ETL build failed; retrying in ${retry_in_ms} ms`);
      try {
        await wait(retry_in_ms, stopping.signal);
      } catch {
        log.info({ event: 'retry_cancelled', attempt: attempt + 1 }, 'schedule stopping: retry cancelled');
        return;
      }
    }
  }

  function onTick(tick: Date): void {
    if (stopping.signal.aborted) return;
    if (cycle) {
      log.info({ event: 'tick_skipped', tick, reason: 'running' }, 'skipped: the previous build (or its retry) is still in progress');
      return;
    }
    cycle = runCycle(tick)
      .catch((e: unknown) => log.error({ event: 'schedule_error', err: e }, 'the scheduler could not run the build'))
      .finally(() => {
        cycle = undefined;
      });
  }

  const trigger = opts.trigger ?? cronTrigger(cron, timezone, log);
  trigger.start(onTick);
  log.info({ event: 'schedule_started', cron, timezone: timezone ?? null, next_run: trigger.nextRun(), data_dir: dataDir }, `ETL scheduled: ${cron}`);

  return {
    async stop() {
      if (!stopping.signal.aborted) {
        stopping.abort();
        await trigger.stop();
      }
      await cycle;
      log.info({ event: 'schedule_stopped' }, 'ETL schedule stopped');
    },
  };
}

/** Ticks from node-cron on `cron` (in `timezone`). */
export function cronTrigger(cron: string, timezone: string | undefined, log: ScheduleLog): Trigger {
  let task: ReturnType<typeof createTask> | undefined;
  return {
    start(onTick) {
      // The tick returns at once: overlap is handled by the scheduler (with the lock), not by node-cron.
      task = createTask(cron, (ctx) => onTick(ctx.date), {
        name: 'etl-refresh',
        ...(timezone ? { timezone } : {}),
        logger: {
          info: (m) => log.info({ event: 'cron', detail: m }, m),
          warn: (m) => log.warn({ event: 'cron', detail: m }, m),
          error: (m, e) => log.error({ event: 'cron', err: e ?? m }, String(m)),
          debug: () => undefined,
        },
      });
      void task.start();
    },
    nextRun: () => task?.getNextRun() ?? null,
    async stop() {
      await task?.stop();
      await task?.destroy();
    },
  };
}
