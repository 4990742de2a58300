/**
 * A worker thread of the address matcher (match-threads.ts). Protocol: it receives
 * `{ seq, job }` and answers `{ seq, result }` (runMatchJob's), or `{ seq, error }` when
 * the job threw; it holds nothing between jobs.
 */
import { parentPort } from 'node:worker_threads';
import { runMatchJob, type MatchJob } from './match-job.ts';

parentPort!.on('message', ({ seq, job }: { seq: number; job: MatchJob }) => {
  try {
    parentPort!.postMessage({ seq, result: runMatchJob(job) });
  } catch (e) {
    parentPort!.postMessage({ seq, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
