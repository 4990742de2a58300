/**
 * A legitimate client's latency during a bad-key flood, with the failed-authentication
 * throttle off (AUTH_FAILURE_LIMIT=0) and on (the default, 20 per minute), side by side.
 *
 * Each round starts the server as production runs it (its own process: support/server-process.ts)
 * once per mode, in alternating order, and measures, loopback only:
 *   quiet  the legitimate client alone: sequential GET /v1/account with a valid key from
 *          127.0.0.1 (one keep-alive connection), for --seconds;
 *   flood  the same while a flood process (its own event loop) sends GET /v1/account with
 *          random bad keys from 127.0.0.2 on --connections keep-alive connections at a fixed
 *          --rate a second (open loop: the same offered load in both modes; a closed loop
 *          would send more where answers are quicker), for --seconds or --max-flood requests.
 * Reported per mode: the legitimate client's p50/p95/p99 (and its sample size), the flood's
 * requests by status, and the server's CPU time per request answered during the flood (from
 * /proc, less noisy than wall time on a busy machine). Medians over --rounds and the off/on ratio of the
 * median p95s.
 *
 *   npx tsx bench/auth-flood.ts [--rounds 5] [--seconds 4] [--rate 1500] [--connections 64] [--max-flood 100000]
 * Writes bench/results/auth-flood-<rate>.json.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { tempDir } from '../test/support/tmp.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { cpuSeconds } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, median, r2, summary } from './support/stats.ts';

const ROUNDS = arg('rounds', 5);
const SECONDS = arg('seconds', 4);
const CONNECTIONS = arg('connections', 64);
const MAX_FLOOD = arg('max-flood', 100_000);
const RATE = arg('rate', 1_500);
const ATTACKER = '127.0.0.2';

function get(agent: Agent, url: string, key: string): Promise<number> {
  return new Promise((res, rej) => {
    request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (r) => {
      r.resume();
      r.on('end', () => res(r.statusCode ?? 0));
    })
      .on('error', rej)
      .end();
  });
}

/**
 * The flood, run in a child process: `rate` bad-key requests a second (open loop: sent on a
 * 10 ms tick whether or not earlier ones were answered, so both modes face the same offered
 * load), for `seconds` or `max` requests. Prints `{ by_status, sent }` as one JSON line.
 */
async function floodChild(url: string, seconds: number, connections: number, max: number, rate: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, localAddress: ATTACKER });
  const byStatus: Record<string, number> = {};
  const pending: Promise<void>[] = [];
  process.stdout.write('ready\n');
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < seconds * 1000 && sent < max) {
    // As many as the rate allows by now (catches up after a late tick).
    const due = Math.min(max, Math.floor(((Date.now() - started) / 1000) * rate));
    for (; sent < due; sent++) {
      pending.push(
        get(agent, url, `pi_live_${randomBytes(32).toString('base64url')}`)
          .catch(() => 0)
          .then((status) => void (byStatus[status] = (byStatus[status] ?? 0) + 1)),
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(pending);
  agent.destroy();
  process.stdout.write(JSON.stringify({ by_status: byStatus, sent }));
}

/** Starts the flood process; `ready` when it starts sending (tsx takes a moment to load it). */
function startFlood(url: string): { ready: Promise<void>; done: Promise<{ by_status: Record<string, number>; sent: number }> } {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--flood-child', url, String(SECONDS), String(CONNECTIONS), String(MAX_FLOOD), String(RATE)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  const done = new Promise<{ by_status: Record<string, number>; sent: number }>((res, rej) =>
    child.on('exit', (code, signal) => (code === 0 ? res(JSON.parse(out.slice('ready\n'.length)) as { by_status: Record<string, number>; sent: number }) : rej(new Error(`flood exited ${code ?? signal}`)))),
  );
  return { ready, done };
}

/** The legitimate client: sequential calls for `ms`, each timed. Every answer must be 200. */
async function legitimate(url: string, key: string, ms: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.1' });
  const times: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const t = process.hrtime.bigint();
    const status = await get(agent, url, key);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (status !== 200) throw new Error(`legitimate client got ${status}`);
  }
  agent.destroy();
  return times;
}

interface ModeRun {
  quiet: ReturnType<typeof summary>;
  flood: ReturnType<typeof summary>;
  flood_by_status: Record<string, number>;
  /** Server CPU over the flood phase per request it answered (flood and legitimate). */
  server_cpu_ms_per_request: number;
}

async function runMode(dataDir: string, key: string, limit: number): Promise<ModeRun> {
  const server = await startServerProcess({ dataDir, env: { AUTH_FAILURE_LIMIT: String(limit) } });
  try {
    const url = `${server.url}/v1/account`;
    await legitimate(url, key, 500); // warm-up
    const quiet = summary(await legitimate(url, key, SECONDS * 1000));
    const cpu0 = cpuSeconds(server.pid);
    const flood = startFlood(url);
    await flood.ready;
    // Inside the flood's span (it runs SECONDS from when it is ready).
    const during = await legitimate(url, key, SECONDS * 1000 - 250);
    const { by_status } = await flood.done;
    const cpu1 = cpuSeconds(server.pid);
    const floodTotal = Object.values(by_status).reduce((a, b) => a + b, 0);
    const cpu = cpu1.user_s + cpu1.sys_s - cpu0.user_s - cpu0.sys_s;
    return { quiet, flood: summary(during), flood_by_status: by_status, server_cpu_ms_per_request: Math.round((cpu / (floodTotal + during.length)) * 1e6) / 1e3 };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const { dir, cleanup } = tempDir('pi-auth-flood-');
  try {
    const ledger = await openFileLedger({ dir: ledgerDir(dir), clock: () => new Date() });
    const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench', rateLimit: { limit: 1_000_000, windowMs: 10_000 } }, new Date());
    await ledger.close();
    const modes = { off: 0, on: 20 } as const;
    const runs: Record<keyof typeof modes, ModeRun[]> = { off: [], on: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which mode goes first, so a drift in the machine's load favours neither.
      const order = (round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) as (keyof typeof modes)[];
      for (const mode of order) {
        const r = await runMode(dir, api_key, modes[mode]);
        runs[mode].push(r);
        process.stdout.write(`round ${round + 1} throttle ${mode}: quiet p95 ${r.quiet.p95_ms} ms (n ${r.quiet.n}), flood p95 ${r.flood.p95_ms} ms (n ${r.flood.n}), flood ${JSON.stringify(r.flood_by_status)}, server CPU ${r.server_cpu_ms_per_request} ms per request\n`);
      }
    }
    const med = (mode: keyof typeof modes, f: (r: ModeRun) => number) => r2(median(runs[mode].map(f)));
    const result = {
      bench: 'auth-flood',
      commit: gitCommit(),
      machine: describeMachine(),
      load_average_after: loadAverage(),
      params: { rounds: ROUNDS, seconds: SECONDS, rate: RATE, connections: CONNECTIONS, max_flood: MAX_FLOOD, throttle_on_limit: modes.on },
      note: 'A shared 2-core machine, busy with other work during the run: compare the modes within a round and use the medians.',
      median: Object.fromEntries(
        (Object.keys(modes) as (keyof typeof modes)[]).map((m) => [
          m,
          {
            quiet_p95_ms: med(m, (r) => r.quiet.p95_ms),
            flood_p50_ms: med(m, (r) => r.flood.p50_ms),
            flood_p95_ms: med(m, (r) => r.flood.p95_ms),
            flood_p99_ms: med(m, (r) => r.flood.p99_ms),
            legit_requests_during_flood: med(m, (r) => r.flood.n),
            flood_requests: med(m, (r) => Object.values(r.flood_by_status).reduce((a, b) => a + b, 0)),
            server_cpu_ms_per_request: med(m, (r) => r.server_cpu_ms_per_request),
          },
        ]),
      ),
      flood_p95_ratio_off_over_on: r2(median(runs.off.map((r) => r.flood.p95_ms)) / median(runs.on.map((r) => r.flood.p95_ms))),
      runs,
    };
    const out = resolve(import.meta.dirname, 'results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `auth-flood-${RATE}.json`), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`medians: ${JSON.stringify(result.median)}\nflood p95, off / on: ${result.flood_p95_ratio_off_over_on}\n`);
  } finally {
    cleanup();
  }
}

if (process.argv[2] === '--flood-child') await floodChild(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6]), Number(process.argv[7]));
else await main();
