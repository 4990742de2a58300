/**
 * `bench/mixed.ts --workers 1,2`: the same mix against the production server run with
 * different numbers of cluster workers, all sharing one PostgreSQL ledger and limiter (a
 * real PostgreSQL 15 started for the run, test/support/postgres.ts), in one run: every
 * configuration is started and warmed first, then the timed runs alternate between them
 * (the order flipped each round, so neither always runs first or on a warmer machine). Per
 * run: req/s (2xx), client p95, server CPU (primary + workers, cores busy) and the load
 * generator's and PostgreSQL's own CPU, because on a 2-core machine they compete with the workers.
 * The load is spread over `--accounts` accounts (default one per connection), as a shared
 * ledger serves many customers at once: one account's charges serialise on its own rows.
 * The ratio of each configuration's 2xx req/s to the first one's is taken per round, then
 * the median. Writes bench/results/mixed-workers-<N>.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPgLedger } from '../../service/ledger/index.ts';
import type { Req } from '../../test/support/endpoint-requests.ts';
import { startPostgres } from '../../test/support/postgres.ts';
import { describeMachine, gitCommit, loadAverage } from './machine.ts';
import { keepAnswering2xx, runLoad, scheduleOf } from './mixed-load.ts';
import { cpuSeconds, familyCpuSeconds } from './proc.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { median, r2 } from './stats.ts';

export interface WorkersBenchInput {
  workers: number[];
  dataDir: string;
  tmp: string;
  mix: [string, number][];
  candidates: Map<string, Req[]>;
  connections: number;
  /** Accounts the load is spread over (one key each; connection w sends as account w % accounts). */
  accounts: number;
  seconds: number;
  runs: number;
  warmup: number;
  addresses: number;
  results: string;
  command: string;
  log: (msg: string) => void;
}

interface Config {
  workers: number;
  server: ServerProcess;
  pids: Set<number>;
}

/**
 * CPU seconds of a server: its primary and every worker it has logged, each once (with
 * WORKERS=1 the primary is the worker and logs its own pid: it was counted twice).
 */
const cpuOf = (c: Config) => {
  let s = 0;
  for (const pid of new Set([c.server.pid, ...c.pids])) {
    try {
      const x = cpuSeconds(pid);
      s += x.user_s + x.sys_s;
    } catch {
      /* a worker that has gone */
    }
  }
  return s;
};

export async function compareWorkers(input: WorkersBenchInput): Promise<void> {
  const { log } = input;
  const loadBefore = loadAverage();
  const pg = await startPostgres({ settings: { max_connections: 400 } });
  const configs: Config[] = [];
  try {
    const ledger = await openPgLedger({ url: pg.url });
    const rateLimit = { limit: 1_000_000_000, windowMs: 10_000 };
    // Several customers, as a shared ledger serves them: one account's charges serialise on its
    // own rows (a customer's usage is one counter), so a single account would measure that lock.
    const keys: string[] = [];
    for (let a = 0; a < input.accounts; a++) keys.push((await ledger.createAccount({ tier: 'enterprise', name: `bench-mixed-workers-${a}`, rateLimit }, new Date())).api_key);
    const api_key = keys[0]!;
    await ledger.close();

    for (const w of input.workers) {
      const pids = new Set<number>();
      let warmed = 0;
      const server = await startServerProcess({ dataDir: input.dataDir, env: { WORKERS: String(w), LEDGER_URL: pg.url } });
      const c: Config = { workers: w, server, pids };
      const seen = (l: { msg?: string; pid?: unknown }) => {
        if (l.msg === 'listening' && typeof l.pid === 'number') pids.add(l.pid);
        if (l.msg === 'build warmed') warmed++;
      };
      // The lines so far, then every later one (synchronous: no line can fall between).
      for (const l of server.history()) seen(l);
      server.onLog(seen);
      const until = Date.now() + 20 * 60_000;
      // Each worker warms the build itself: wait for all of them.
      while ((warmed < w || pids.size < w) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      configs.push(c);
      log(`${w} worker(s): ${server.url}, primary ${server.pid}, workers ${[...pids].join(', ')}`);
    }

    // Which requests each endpoint answers 2xx (the same build behind every configuration).
    const headers = { authorization: `Bearer ${api_key}` };
    const { endpoints, weights } = await keepAnswering2xx({ url: configs[0]!.server.url, headers, connections: input.connections }, input.mix, input.candidates, 200, input.tmp, 'workers-preflight');
    log(`pre-flight: ${endpoints.length} of ${input.mix.length} endpoints answer 2xx; driven with those requests`);
    const schedule = scheduleOf(weights);
    const spec = (c: Config, seconds: number) => ({ url: c.server.url, headers, keys, connections: input.connections, mode: 'timed' as const, seconds, endpoints, schedule });

    for (const c of configs) if (input.warmup > 0) await runLoad(spec(c, input.warmup), input.tmp, `workers-warmup-${c.workers}`);

    const rounds: Record<string, unknown>[] = [];
    const perConfig = new Map<number, { rps_2xx: number; p95_ms: number; server_cores_busy: number; postgres_cores_busy: number; generator_cores_busy: number }[]>();
    for (let k = 1; k <= input.runs; k++) {
      const order = k % 2 === 1 ? configs : [...configs].reverse();
      const round: Record<string, unknown> = { round: k, order: order.map((c) => c.workers), load_average_before: loadAverage() };
      for (const c of order) {
        const cpu0 = cpuOf(c);
        const pg0 = familyCpuSeconds(pg.pid());
        const t0 = performance.now();
        const res = await runLoad(spec(c, input.seconds), input.tmp, `workers-${c.workers}-run-${k}`);
        const wall = (performance.now() - t0) / 1000;
        const ok = res.endpoints.reduce((a, e) => a + Object.entries(e.outcomes).filter(([key]) => /^2\d\d$/.test(key)).reduce((x, [, n]) => x + n, 0), 0);
        const r = {
          rps: res.total.rps,
          rps_2xx: r2(ok / res.elapsed_s),
          p95_ms: res.total.p95_ms,
          non2xx: res.endpoints.reduce((a, e) => a + Object.entries(e.outcomes).filter(([key]) => !/^2\d\d$/.test(key)).reduce((x, [, n]) => x + n, 0), 0),
          server_cores_busy: r2((cpuOf(c) - cpu0) / wall),
          postgres_cores_busy: r2((familyCpuSeconds(pg.pid()) - pg0) / wall),
          generator_cpu_s: res.generator_cpu_s,
          generator_cores_busy: r2(res.generator_cpu_s / res.elapsed_s),
        };
        round[`workers_${c.workers}`] = r;
        (perConfig.get(c.workers) ?? perConfig.set(c.workers, []).get(c.workers)!).push(r);
        log(`round ${k}, ${c.workers} worker(s): ${r.rps_2xx} 2xx/s, p95 ${r.p95_ms} ms, server ${r.server_cores_busy} cores, PostgreSQL ${r.postgres_cores_busy} cores, generator ${r.generator_cores_busy} cores, non-2xx ${r.non2xx}`);
      }
      const base = (round[`workers_${configs[0]!.workers}`] as { rps_2xx: number }).rps_2xx;
      for (const c of configs.slice(1)) round[`ratio_${c.workers}_to_${configs[0]!.workers}`] = r2((round[`workers_${c.workers}`] as { rps_2xx: number }).rps_2xx / base);
      rounds.push(round);
    }
    const summary = Object.fromEntries(
      configs.map((c) => {
        const v = perConfig.get(c.workers)!;
        return [
          `workers_${c.workers}`,
          {
            rps_2xx_median: r2(median(v.map((x) => x.rps_2xx))),
            p95_ms_median: r2(median(v.map((x) => x.p95_ms))),
            server_cores_busy_median: r2(median(v.map((x) => x.server_cores_busy))),
            postgres_cores_busy_median: r2(median(v.map((x) => x.postgres_cores_busy))),
            generator_cores_busy_median: r2(median(v.map((x) => x.generator_cores_busy))),
          },
        ];
      }),
    );
    const ratios = Object.fromEntries(
      configs.slice(1).map((c) => {
        const key = `ratio_${c.workers}_to_${configs[0]!.workers}`;
        return [key, r2(median(rounds.map((r) => r[key] as number)))];
      }),
    );
    const result = {
      benchmark: 'mixed-workers',
      command: input.command,
      when: new Date().toISOString(),
      git_commit: gitCommit(),
      machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
      note: 'the server workers, PostgreSQL and the load generator share the machine; the generator\'s own CPU is reported per run',
      ledger: 'postgres (shared by the workers)',
      load: { connections: input.connections, accounts: input.accounts, seconds: input.seconds, rounds: input.runs, warmup_s: input.warmup, closed_loop: true, endpoints_driven: endpoints.map((e) => e.name) },
      summary,
      ratios_median_of_rounds: ratios,
      rounds,
    };
    const file = join(input.results, `mixed-workers-${input.addresses}.json`);
    writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
    log(`wrote ${file}: ${JSON.stringify(ratios)} ${JSON.stringify(summary)}`);
  } finally {
    for (const c of configs) await c.server.stop();
    await pg.stop();
  }
}
