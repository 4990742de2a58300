import { Worker } from 'node:worker_threads';
import { runMatchJob, type MatchJob, type MatchJobResult } from './match-job.ts';

/** Runs match jobs, here or in worker threads; results are awaited in the order jobs were given. */
export interface JobRunner {
  run(job: MatchJob): Promise<MatchJobResult>;
  /** Jobs the caller may keep in flight before it waits for the oldest (0: each is done when given). */
  readonly depth: number;
  close(): Promise<void>;
}

/**
 * ETL_MATCH_THREADS: how many worker threads match addresses (default 1: the stage's own
 * thread). Two measured slower and larger at 1M addresses on 2 cores (docs/matching.md, "How it runs").
 */
export function matchThreads(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.ETL_MATCH_THREADS?.trim();
  if (!v) return 1;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`ETL_MATCH_THREADS must be a whole number from 1, not "${v}"`);
  return n;
}

/** One thread: each job runs as it is given. */
export function inThread(): JobRunner {
  return { run: async (job) => runMatchJob(job), depth: 0, close: async () => undefined };
}

type Pending = { resolve: (r: MatchJobResult) => void; reject: (e: Error) => void };
type Reply = { seq: number; result?: MatchJobResult; error?: string };

/**
 * `n` worker threads (match-worker.ts), each job to the one with the fewest in flight. A job
 * that throws rejects with the worker's stack; a worker that dies (an uncaught error, out of
 * memory, an exit) fails every job in flight and every later one, so the stage fails rather
 * than waits.
 */
export function workerThreads(n: number): JobRunner {
  const slots: { worker: Worker; pending: Map<number, Pending> }[] = [];
  let failure: Error | undefined;
  let closing = false;
  let seq = 0;
  const fail = (e: Error) => {
    failure ??= e;
    for (const s of slots) {
      for (const p of s.pending.values()) p.reject(failure);
      s.pending.clear();
    }
  };
  for (let i = 0; i < n; i++) {
    const name = `address matching worker ${i + 1} of ${n}`;
    const worker = new Worker(new URL('./match-worker-boot.mjs', import.meta.url), { name });
    const pending = new Map<number, Pending>();
    worker.on('message', ({ seq: k, result, error }: Reply) => {
      const p = pending.get(k);
      pending.delete(k);
      if (error !== undefined) p?.reject(new Error(`${name} failed: ${error}`));
      else p?.resolve(result!);
    });
    worker.on('error', (e) => fail(new Error(`${name} failed: ${e.stack ?? e.message}`)));
    worker.on('exit', (code) => closing || fail(new Error(`${name} exited (code ${code}) with jobs to do`)));
    slots.push({ worker, pending });
  }
  return {
    depth: 2 * n,
    run(job) {
      if (failure) return Promise.reject(failure);
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const k = seq++;
      return new Promise((resolve, reject) => {
        slot.pending.set(k, { resolve, reject });
        slot.worker.postMessage({ seq: k, job });
      });
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
