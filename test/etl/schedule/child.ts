import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

const HOLDER = join(import.meta.dirname, 'hold-lock.ts');

export interface LockHolderChild {
  pid: number;
  child: ChildProcessWithoutNullStreams;
  /** Ends its stdin: it releases the lock and exits 0. */
  release(): Promise<number | null>;
  /** SIGKILL, as a crashed run: the lock file stays behind. */
  crash(): Promise<void>;
}

/** Starts a real process that takes the build lock on `dataDir`; resolves once it holds it. */
export function holdLockInChild(dataDir: string): Promise<LockHolderChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^held \d+\n/.test(out)) {
        resolve({
          pid: child.pid as number,
          child,
          release: () => {
            child.stdin.end();
            return exited;
          },
          crash: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`lock holder exited ${code} before holding the lock: ${err}`)));
  });
}
