/**
 * `WORKERS=N npm start`: N worker processes (node's cluster) serving one port, each a whole
 * server with its own build warmer (so each picks up a newly published build by itself),
 * all sharing the PostgreSQL ledger and rate limiter (config requires LEDGER_URL). The
 * primary only supervises: a worker that dies is replaced; SIGTERM/SIGINT stop every worker
 * gracefully (in-flight requests finish) and then the primary.
 */
import cluster from 'node:cluster';
import type { Logger } from './log.ts';

export const isPrimary = (): boolean => cluster.isPrimary;

export function runReplicas(n: number, logger: Logger): void {
  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < n; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ worker_pid: worker.process.pid, code, signal }, 'worker died: starting a replacement');
    fork();
  });
  for (const sig of ['SIGTERM', 'SIGINT'] as const) {
    process.once(sig, () => {
      stopping = true;
      logger.info({ signal: sig, workers: n }, 'stopping workers');
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  }
  logger.info({ workers: n, pid: process.pid }, 'cluster primary started');
}
