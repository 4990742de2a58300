/**
 * Faults with several replicas sharing one real PostgreSQL (`make reliability`): the
 * production server as a cluster of 3 workers (`WORKERS=3 LEDGER_URL=… service/server.ts`,
 * its own processes) under steady load of metered calls (the property record) from keep-alive
 * clients, each request with its own X-Request-Id so the ledger's debits can be matched to
 * what the clients received.
 *
 *  1. 20 workers SIGKILLed under load (the primary replaces each);
 *  2. PostgreSQL restarted under load;
 *  3. the rate limiter stuck (its table locked by another session past the timeout);
 *  4. PostgreSQL paused (SIGSTOP to the whole server, as a network partition looks), then resumed.
 *
 * After each: no 500 ever; every 2xx charged exactly once (nothing served free); no request
 * answered 4xx or 429 charged; a charge whose response was not a 2xx exists only for a
 * request in doubt (its connection died with a worker, or its commit reached PostgreSQL but
 * the answer did not come back in time, answered 503): counted and reported, as the crash
 * test does; the usage report's call count equals the debits; service comes back unaided.
 * Self-paced: each step waits for served calls to happen, never for a fixed throughput.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../etl/pipeline/run.ts';
import { openPgLedger } from '../../service/ledger/index.ts';
import { postgresUnavailable, startPostgres, type PgServer } from '../support/postgres.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { tempDir } from '../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KILLS = Number(process.env.REPLICA_KILLS ?? 20);
const why = postgresUnavailable();
if (why) console.warn(`replica fault tests skipped: ${why}`);

interface Outcome {
  id: string;
  status: number | 'error';
  code?: string;
}

function get(agent: Agent, port: number, path: string, key: string, id: string): Promise<Outcome> {
  return new Promise((res) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${key}`, 'x-request-id': id } }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => (body += c.toString()));
      r.on('end', () => {
        let code: string | undefined;
        if ((r.statusCode ?? 0) >= 400) {
          try {
            code = (JSON.parse(body) as { code?: string }).code;
          } catch {}
        }
        res({ id, status: r.statusCode ?? 0, ...(code ? { code } : {}) });
      });
      r.on('error', () => res({ id, status: 'error' }));
    });
    req.setTimeout(30_000, () => req.destroy());
    req.on('error', () => res({ id, status: 'error' }));
    req.end();
  });
}

/** The cluster: the primary and the pids of its live workers (from their "listening" lines). */
async function startCluster(env: Record<string, string>): Promise<{ port: number; workers: Set<number>; child: ChildProcess; waitWorkers(n: number): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'service/server.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
  const workers = new Set<number>();
  let port = 0;
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let msg: { msg?: string; port?: number; pid?: number; worker_pid?: number };
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.msg === 'listening') {
      port = msg.port!;
      workers.add(msg.pid!);
      for (const w of waiters.splice(0)) w();
    }
    if (msg.msg === 'worker died: starting a replacement') workers.delete(msg.worker_pid!);
  });
  const waitWorkers = async (n: number) => {
    const until = Date.now() + 180_000;
    while (workers.size < n) {
      if (Date.now() > until || child.exitCode !== null) throw new Error(`cluster did not reach ${n} workers: ${err}`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 500);
      });
    }
  };
  await waitWorkers(3);
  return { port, workers, child, waitWorkers };
}

describe.skipIf(why !== undefined)('replicas sharing PostgreSQL, under faults', () => {
  let pgs: PgServer;
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  let key = '';
  let accountId = '';
  let uprns: string[] = [];
  const tmp = tempDir('pi-replica-faults-');
  const outcomes: Outcome[] = [];
  let seq = 0;
  let running = false;
  let loops: Promise<void>[] = [];
  const agents: Agent[] = [];

  const served = () => outcomes.filter((o) => o.status === 200).length;
  /** Waits until `n` more calls have been served (the load is self-paced). */
  const waitServed = async (n: number, what: string) => {
    const target = served() + n;
    const until = Date.now() + 180_000;
    while (served() < target) {
      if (Date.now() > until) {
        const last: Record<string, number> = {};
        for (const o of outcomes.slice(-200)) last[`${o.status} ${o.code ?? ''}`] = (last[`${o.status} ${o.code ?? ''}`] ?? 0) + 1;
        throw new Error(`${what}: service did not come back (${served()} of ${target} served; the last 200 answers: ${JSON.stringify(last)})`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const startLoad = (clients = 6) => {
    running = true;
    loops = Array.from({ length: clients }, (_, c) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return (async () => {
        let n = c;
        while (running) {
          const o = await get(agent, cluster.port, `/v1/properties/${uprns[n++ % uprns.length]}`, key, `load-${c}-${seq++}`);
          outcomes.push(o);
          if (o.status !== 200) await new Promise((r) => setTimeout(r, 20)); // no hot loop while refused
        }
      })();
    });
  };
  const stopLoad = async () => {
    running = false;
    await Promise.all(loops);
    for (const a of agents.splice(0)) a.destroy();
  };

  /** The invariants over everything that happened so far (with the load stopped, so the ledger and the clients agree on what is finished). */
  async function checkLedger(label: string) {
    await stopLoad();
    const ledger = await openPgLedger({ url: pgs.url });
    try {
      const debits = (await ledger.records()).filter((r) => r.t === 'debit');
      const charged = new Map<string, number>();
      // Matched by the caller's id (cr): the server's own (r) is a fresh UUID per request.
      for (const d of debits) if (d.t === 'debit' && d.cr) charged.set(d.cr, (charged.get(d.cr) ?? 0) + 1);
      const byId = new Map(outcomes.map((o) => [o.id, o]));
      for (const [id, times] of charged) expect(times, `${label}: ${id} charged once`).toBe(1);
      const ok = outcomes.filter((o) => o.status === 200);
      for (const o of ok) expect(charged.get(o.id), `${label}: 2xx ${o.id} charged`).toBe(1);
      expect(outcomes.filter((o) => o.status === 500), `${label}: no 500`).toHaveLength(0);
      let inDoubt = 0;
      for (const id of charged.keys()) {
        const o = byId.get(id);
        if (!o || o.status === 200) continue;
        // Charged without a 2xx: only a request in doubt (connection lost, or its commit's
        // answer lost in a PostgreSQL outage and answered 503), never a 4xx or a 429.
        expect(o.status === 'error' || (o.status === 503 && o.code === 'ledger_unavailable'), `${label}: ${id} (${o.status} ${o.code}) charged`).toBe(true);
        inDoubt++;
      }
      const usage = await ledger.usage({ account_id: accountId, from: '2000-01-01', to: '2100-01-01' }, new Date());
      expect(usage.total_calls, `${label}: usage equals the debits`).toBe(debits.length);
      expect(usage.total_calls, `${label}: usage equals the 2xx count plus the in-doubt`).toBe(ok.length + inDoubt);
      const tally: Record<string, number> = {};
      for (const o of outcomes) tally[`${o.status}${o.code ? ` ${o.code}` : ''}`] = (tally[`${o.status}${o.code ? ` ${o.code}` : ''}`] ?? 0) + 1;
      process.stdout.write(`${label}: ${JSON.stringify(tally)}; ${debits.length} charged = ${ok.length} 2xx + ${inDoubt} in doubt\n`);
      return { tally, inDoubt };
    } finally {
      await ledger.close();
    }
  }

  beforeAll(async () => {
    pgs = await startPostgres();
    const dataDir = join(tmp.dir, 'data');
    const sources = await synthRegion(500, 5);
    await runBuild({ dataDir, sourcesDir: sources, log: quietLog });
    const { readFileSync } = await import('node:fs');
    uprns = readFileSync(join(sources, 'truth', 'properties.csv'), 'utf8').split('\n').slice(1, 41).map((l) => l.split(',')[0]!);
    const ledger = await openPgLedger({ url: pgs.url });
    const created = await ledger.createAccount({ tier: 'enterprise', name: 'faults', rateLimit: { limit: 1_000_000, windowMs: 10_000 } }, new Date());
    await ledger.close();
    key = created.api_key;
    accountId = created.account.account_id;
    cluster = await startCluster({ WORKERS: '3', LEDGER_URL: pgs.url, PORT: '0', METRICS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    startLoad();
    await waitServed(20, 'start');
  }, 600_000);

  afterAll(async () => {
    await stopLoad();
    if (cluster && cluster.child.exitCode === null) {
      const exited = new Promise((r) => cluster.child.once('exit', r));
      cluster.child.kill('SIGTERM');
      await exited;
    }
    await pgs?.stop();
    tmp.cleanup();
  }, 120_000);

  it(`${KILLS} replica SIGKILLs under load: every 2xx charged exactly once`, async () => {
    const killed = new Set<number>();
    for (let i = 0; i < KILLS; i++) {
      // At least two live workers, so the service goes on through each kill; replacements
      // start while the next kills happen.
      await cluster.waitWorkers(2);
      await waitServed(10, `kill ${i}`);
      const live = [...cluster.workers].filter((p) => !killed.has(p));
      const victim = live[Math.floor(Math.random() * live.length)]!;
      killed.add(victim);
      cluster.workers.delete(victim);
      process.kill(victim, 'SIGKILL');
    }
    await cluster.waitWorkers(3);
    await waitServed(20, 'after the kills');
    await checkLedger('replica SIGKILLs');
    expect(killed.size).toBe(KILLS);
  }, 900_000);

  it('PostgreSQL restarted under load: 503 ledger_unavailable, nothing free, recovers unaided', async () => {
    startLoad();
    await waitServed(20, 'before the restart');
    const before = outcomes.length;
    await pgs.restart();
    await waitServed(30, 'after the restart');
    const during = outcomes.slice(before);
    const refused = during.filter((o) => o.status === 503);
    expect(refused.every((o) => o.code === 'ledger_unavailable' || o.code === 'rate_limit_unavailable')).toBe(true);
    await checkLedger('PostgreSQL restart');
  }, 300_000);

  it('the rate limiter stuck past its timeout: 503 rate_limit_unavailable (fails closed), the ledger unharmed, recovers', async () => {
    startLoad();
    await waitServed(20, 'before the limiter outage');
    const before = outcomes.length;
    const blocker = new pg.Client({ connectionString: pgs.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE rate_hits IN ACCESS EXCLUSIVE MODE');
    // Self-paced: hold the lock until a call has been refused by the limiter.
    const until = Date.now() + 180_000;
    while (!outcomes.slice(before).some((o) => o.code === 'rate_limit_unavailable') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await blocker.query('ROLLBACK');
    await blocker.end();
    const during = outcomes.slice(before);
    expect(during.some((o) => o.status === 503 && o.code === 'rate_limit_unavailable')).toBe(true);
    await waitServed(30, 'after the limiter came back');
    await checkLedger('limiter outage');
  }, 300_000);

  it('PostgreSQL paused (SIGSTOP) under load: 503 after the timeout, no 500, nothing free, recovers after SIGCONT', async () => {
    startLoad();
    await waitServed(20, 'before the pause');
    const before = outcomes.length;
    pgs.pause();
    const until = Date.now() + 180_000;
    while (!outcomes.slice(before).some((o) => o.status === 503) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    pgs.resume();
    expect(outcomes.slice(before).some((o) => o.status === 503)).toBe(true);
    await waitServed(30, 'after SIGCONT');
    await checkLedger('PostgreSQL paused');
  }, 300_000);
});
