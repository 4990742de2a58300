/**
 * The service as production runs it, in its own process: `node --import tsx service/server.ts`
 * with NODE_ENV=production, ports the kernel picks (PORT=0 and METRICS_PORT=0, read back from
 * the "listening" log line) and a small environment of its own (the bench's node flags and variables such as
 * UV_THREADPOOL_SIZE are not passed on unless asked for). Its stdout is pino's JSON lines:
 * every line is handed to the listeners (the access log's `request` lines carry the route,
 * status and milliseconds). Stop with SIGTERM, as systemd does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../..');

/** One line of the server's log: pino's JSON, or `{ text }` when a line is not JSON. */
export type LogLine = Record<string, unknown> & { msg?: string };

export interface ServerProcess {
  pid: number;
  port: number;
  url: string;
  /** Where /metrics is served (its own port, METRICS_PORT). */
  metricsUrl: string;
  /** The command line and the environment it was given (for the results). */
  command: string;
  env: Record<string, string>;
  /** Calls `fn` with every log line from now on; returns a function that stops it. */
  onLog(fn: (line: LogLine) => void): () => void;
  /**
   * Resolves with the first line that `pred` accepts, from now on or (`past`) among the lines
   * logged since start (access-log lines are not kept); rejects on exit or timeout.
   */
  waitFor(pred: (line: LogLine) => boolean, timeoutMs: number, past?: boolean): Promise<LogLine>;
  /** The lines logged so far, access-log lines excepted (at most 10,000). */
  history(): LogLine[];
  /** The last few KB of stderr (for error messages). */
  stderrTail(): string;
  /** SIGTERM, then the exit (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerOptions {
  dataDir: string;
  /** Extra environment (LOG_LEVEL, SHUTDOWN_TIMEOUT_MS …); PATH and HOME are passed on. */
  env?: Record<string, string>;
  /** Node flags before `--import tsx` (none by default, as `npm start` runs it). */
  nodeArgs?: string[];
  startTimeoutMs?: number;
  /** The checkout whose server to run (this one by default): another commit's, side by side. */
  root?: string;
}

export async function startServerProcess(opts: ServerOptions): Promise<ServerProcess> {
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    PORT: '0',
    METRICS_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DATA_DIR: opts.dataDir,
    ...opts.env,
  };
  const args = [...(opts.nodeArgs ?? []), '--import', 'tsx', 'service/server.ts'];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: opts.root ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-8000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('exit', (code, signal) => r({ code, signal })));
  const listeners = new Set<(line: LogLine) => void>();
  const kept: LogLine[] = [];
  // Read every line promptly: the server's stdout is a pipe, and writes to a full pipe block it.
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { text };
    }
    if (line.msg !== 'request' && kept.length < 10_000) kept.push(line);
    for (const fn of listeners) fn(line);
  });
  const onLog = (fn: (line: LogLine) => void) => {
    listeners.add(fn);
    return () => listeners.delete(fn);
  };
  const waitFor = (pred: (line: LogLine) => boolean, timeoutMs: number, past = false) =>
    new Promise<LogLine>((res, rej) => {
      const before = past ? kept.find(pred) : undefined;
      if (before) return res(before);
      const timer = setTimeout(() => {
        off();
        rej(new Error(`server: no matching log line within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
      }, timeoutMs);
      const off = onLog((line) => {
        if (!pred(line)) return;
        clearTimeout(timer);
        off();
        res(line);
      });
      void exited.then((e) => {
        clearTimeout(timer);
        off();
        rej(new Error(`server exited (${e.code ?? e.signal}) before the awaited log line; stderr: ${stderr.slice(-2000)}`));
      });
    });
  const listening = await waitFor((l) => l.msg === 'listening', opts.startTimeoutMs ?? 120_000);
  const port = Number(listening.port);
  return {
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${Number(listening.metrics_port)}`,
    command: `${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} node ${args.join(' ')}`,
    env,
    onLog,
    waitFor,
    history: () => [...kept],
    stderrTail: () => stderr,
    async stop(timeoutMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        const e = await exited;
        clearTimeout(timer);
        return e;
      }
      return exited;
    },
  };
}
