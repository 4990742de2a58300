import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface EtlCliRun<T> {
  outcome: 'killed' | 'finished';
  /** From spawn to exit. */
  ms: number;
  /** What `atKill` saw just before the SIGKILL (undefined when it finished first). */
  atKill?: T;
}

/**
 * Runs `etl run` as its own process, as ops do; with `killAfterMs`, SIGKILLs it then unless it
 * finished first, calling `atKill` just before (to record what the run was doing). Resolves
 * with how it ended and how long it ran; rejects if it failed.
 */
export function runEtlCli<T = undefined>(sources: string, dataDir: string, killAfterMs?: number, atKill?: () => T): Promise<EtlCliRun<T>> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'etl/cli.ts'), 'run', '--sources', sources, '--data-dir', dataDir], {
      cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    let seen: T | undefined;
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const t0 = performance.now();
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => {
      seen = atKill?.();
      child.kill('SIGKILL');
    }, killAfterMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (signal === 'SIGKILL') res({ outcome: 'killed', ms, ...(seen !== undefined ? { atKill: seen } : {}) });
      else if (code === 0) res({ outcome: 'finished', ms });
      else rej(new Error(`etl exited ${code}: ${err.slice(-2000)}`));
    });
  });
}
