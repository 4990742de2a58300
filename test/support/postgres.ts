/**
 * A real PostgreSQL 15 server for tests and benches: a fresh cluster in a temporary
 * directory, on 127.0.0.1 and a free port, run as the `postgres` user when this is root (the
 * server refuses root), else as this user. Never a mock. Debian's `postgresql` package
 * provides the binaries (`make test` installs it: scripts/install-system-deps.sh); `postgresUnavailable()` says why not.
 *
 * `pause()` (SIGSTOP) freezes the postmaster and every backend at once, like a network
 * partition seen from the clients. Each backend calls setsid() when it starts, so a signal to
 * the postmaster's process group reaches the postmaster alone: the children are found in /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Undefined when a server can be started here; otherwise the reason it cannot. */
function cannotStart(): string | undefined {
  if (!existsSync(join(PG_BIN, 'postgres'))) return `PostgreSQL binaries not found in ${PG_BIN} (apt-get install postgresql)`;
  if (process.getuid?.() !== 0) return undefined; // runs as this user
  const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  if (id.status !== 0) return 'running as root and no "postgres" user to run the server as';
  return undefined;
}

/**
 * Why the PostgreSQL tests skip, or undefined when they run. They skip only where
 * PI_TEST_NO_POSTGRES=1 (README) says this platform cannot run PostgreSQL; anywhere else a
 * server that cannot start fails them, saying why (make test installs Debian's package).
 */
export function postgresUnavailable(): string | undefined {
  const why = cannotStart();
  if (why === undefined || process.env.PI_TEST_NO_POSTGRES !== '1') return undefined;
  process.stderr.write(`SKIP: ${why}; PI_TEST_NO_POSTGRES=1, so the PostgreSQL tests are skipped\n`);
  return why;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Root: the postgres user's ids (the server refuses root); anyone else: their own. */
function serverIds(): { uid: number; gid: number } {
  if (process.getuid?.() !== 0) return { uid: process.getuid!(), gid: process.getgid!() };
  const name = 'postgres';
  const uid = Number(spawnSync('id', ['-u', name], { encoding: 'utf8' }).stdout.trim());
  const gid = Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim());
  return { uid, gid };
}

export interface PgServer {
  /** `postgres://pi@127.0.0.1:<port>/pi` */
  url: string;
  port: number;
  dataDir: string;
  /** The postmaster's pid (its process group holds every backend). */
  pid(): number;
  /** Fast shutdown, then start again on the same port and data (a restart). */
  restart(): Promise<void>;
  /**
   * A crash: immediate shutdown (SIGQUIT: no checkpoint, backends killed, as after a power
   * cut for everything not yet flushed), then a start, which runs crash recovery and so
   * empties the UNLOGGED tables.
   */
  crash(): Promise<void>;
  /** Stops the server (fast shutdown) without removing its data. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** SIGSTOP / SIGCONT to the whole server (postmaster and backends). */
  pause(): void;
  resume(): void;
  /** Runs a command-line tool from PG_BIN as the postgres user (pg_dump, psql …). */
  tool(name: string, args: string[]): { status: number | null; stdout: string; stderr: string };
  /** Stops the server and deletes the cluster. */
  stop(): Promise<void>;
}

export interface PgOptions {
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string | number>;
}

/** The pids whose parent is `parent` (field 4 of /proc/<pid>/stat, after the command in parentheses). */
function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) out.push(Number(name));
    } catch {} // exited meanwhile
  }
  return out;
}

/** Stops the postmaster first (so it forks no new backend), then its children; continues them in the reverse order. */
function signalServer(pid: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const signalOne = (p: number) => {
    try {
      process.kill(p, signal);
    } catch {} // exited meanwhile
  };
  if (signal === 'SIGSTOP') signalOne(pid);
  for (const c of childrenOf(pid)) signalOne(c);
  if (signal === 'SIGCONT') signalOne(pid);
}

/** initdb + start. Takes a second or two. */
export async function startPostgres(opts: PgOptions = {}): Promise<PgServer> {
  const why = cannotStart();
  if (why) throw new Error(`${why}; set PI_TEST_NO_POSTGRES=1 only where this platform cannot run PostgreSQL`);
  const { uid, gid } = serverIds();
  const root = mkdtempSync(join(tmpdir(), 'pi-pg-'));
  chownSync(root, uid, gid);
  const dataDir = join(root, 'data');
  const asPg = { uid, gid, encoding: 'utf8' as const, env: { ...process.env, LC_ALL: 'C' } };
  const init = spawnSync(join(PG_BIN, 'initdb'), ['-D', dataDir, '-U', 'pi', '-A', 'trust', '-E', 'UTF8', '--no-sync'], asPg);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: root,
    max_connections: 200,
    shared_buffers: '64MB',
    fsync: 'on',
    synchronous_commit: 'on',
    logging_collector: 'off',
    ...opts.settings,
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  let child: ChildProcess | undefined;
  let log = '';

  const ready = async (): Promise<void> => {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const r = spawnSync(join(PG_BIN, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'pi', '-d', 'postgres'], asPg);
      if (r.status === 0) return;
      if (child?.exitCode !== null && child?.exitCode !== undefined) throw new Error(`postgres exited (${child.exitCode}): ${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`postgres did not become ready: ${log.slice(-2000)}`);
  };

  const startServer = async () => {
    child = spawn(join(PG_BIN, 'postgres'), args, { uid, gid, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    const keep = (b: Buffer) => void (log = (log + b.toString()).slice(-20_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    await ready();
  };

  const stopServer = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    signalServer(c.pid!, 'SIGCONT'); // a paused server cannot shut down
    c.kill('SIGINT'); // fast shutdown: abort transactions, checkpoint, exit
    await exited;
  };

  await startServer();
  const tool = (name: string, a: string[]) => {
    const r = spawnSync(join(PG_BIN, name), a, { ...asPg, maxBuffer: 256 * 1024 * 1024 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const created = tool('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'pi', 'pi']);
  if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);

  return {
    url: `postgres://pi@127.0.0.1:${port}/pi`,
    port,
    dataDir,
    pid: () => child!.pid!,
    restart: async () => {
      await stopServer();
      await startServer();
    },
    crash: async () => {
      const c = child!;
      const exited = new Promise<void>((r) => c.once('exit', () => r()));
      c.kill('SIGQUIT');
      await exited;
      await startServer();
    },
    stopServer,
    startServer,
    pause: () => signalServer(child!.pid!, 'SIGSTOP'),
    resume: () => signalServer(child!.pid!, 'SIGCONT'),
    tool,
    stop: async () => {
      await stopServer();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
