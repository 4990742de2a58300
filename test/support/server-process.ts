/**
 * The real server as a child process (`node --import tsx service/server.ts`) on a free port,
 * for tests that kill it: resolves once it logs "listening".
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  port: number;
  /** Sends `signal` and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', METRICS_PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const msg = JSON.parse(line) as { msg?: string; port?: number };
    if (msg.msg === 'listening') {
      child.stdout!.resume(); // keep draining its log
      return {
        port: msg.port!,
        kill: async (signal = 'SIGKILL') => {
          child.kill(signal);
          await exited;
        },
      };
    }
  }
  throw new Error(`server exited before listening: ${err.slice(-2000)}`);
}
