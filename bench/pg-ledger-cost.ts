/**
 * What one metered request costs PostgreSQL: the PostgreSQL ledger and rate limiter driven
 * through the calls the middleware makes for a metered 2xx (auth.ts: authenticate + account;
 * rate-limit.ts: hit; credits.ts: reserve, commit, account), `--concurrency` at once over
 * `--accounts` enterprise accounts (the mixed bench's: 1e9 per 10 s, so every accepted time
 * stays in the window), against a real PostgreSQL on loopback (test/support/postgres.ts).
 * Reports requests/s, PostgreSQL CPU ms per request (postmaster and its children, from /proc;
 * every request here is a metered 2xx, so per request is per 2xx) and this client's CPU ms per
 * request. CPU time per request barely moves with other load on the machine, unlike req/s.
 *
 * `--variants 1:256,2:256,1:1` runs this code with those batching settings (pg/batcher.ts:
 * batches in flight per kind : calls per batch at most; `1:1` is one call at a time per kind);
 * default `2:256`, the shipped default.
 *
 * `--baseline DIR` also runs another version of the code (a `git archive <rev> service schemas`
 * unpacked in DIR, with a node_modules link), alternating with this one round by round, each
 * round on a fresh cluster: before/after in one run on a busy machine.
 *
 * `nice -n 19 npx tsx bench/pg-ledger-cost.ts [--seconds 10] [--runs 3] [--accounts 40]
 *   [--concurrency 40] [--baseline DIR] [--variants 2:256] [--statements] [--out FILE]`
 * (`--statements`: pg_stat_statements' top statements by time for the last round of each
 * version). Prints, and writes every round and the medians to `--out` (default
 * bench/results/pg-ledger-cost-c<concurrency>.json).
 */
import { writeFileSync } from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startPostgres } from '../test/support/postgres.ts';
import { loadAverage } from './support/machine.ts';
import { familyCpuSeconds } from './support/proc.ts';
import { median, r2 } from './support/stats.ts';
import type { Ledger } from '../service/ledger/types.ts';
import type { RateLimiter } from '../service/ledger/rate-limiter.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    accounts: { type: 'string', default: '40' },
    concurrency: { type: 'string', default: '40' },
    baseline: { type: 'string' },
    statements: { type: 'boolean', default: false },
    variants: { type: 'string', default: '2:256' },
    out: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const runs = Number(values.runs);
const nAccounts = Number(values.accounts);
const concurrency = Number(values.concurrency);

interface Batch {
  inFlight: number;
  maxBatch: number;
}
interface Impl {
  label: string;
  batch?: Batch;
  openPgLedger(o: { url: string; batch?: Batch }): Promise<Omit<Ledger, 'authenticateAccount'> & Partial<Pick<Ledger, 'authenticateAccount'>>>;
  pgRateLimiter(o: { url: string; batch?: Batch }): RateLimiter & { close(): Promise<void> };
}

async function load(label: string, root: string, batch?: Batch): Promise<Impl> {
  const l = (await import(resolve(root, 'service/ledger/pg-ledger.ts'))) as Pick<Impl, 'openPgLedger'>;
  const r = (await import(resolve(root, 'service/ledger/pg-rate-limiter.ts'))) as Pick<Impl, 'pgRateLimiter'>;
  return { label, ...(batch ? { batch } : {}), openPgLedger: l.openPgLedger, pgRateLimiter: r.pgRateLimiter };
}

const ENDPOINT = 'GET /v1/properties/{uprn}';
const rateLimit = { limit: 1_000_000_000, windowMs: 10_000 };

interface Round {
  rps: number;
  pg_ms_per_req: number;
  client_ms_per_req: number;
  /** PostgreSQL's CPU ms per request by process (backends, walwriter, autovacuum …) and user/kernel. */
  pg_split: Record<string, number>;
}

/** CPU seconds of the postmaster's live children by role (`postgres: walwriter`, a backend: `pi pi …`), user and kernel. */
function pgRoles(postmaster: number): Map<string, { user: number; sys: number }> {
  const out = new Map<string, { user: number; sys: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[1]) !== postmaster) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const role = /postgres: (?:pi pi|pi \w+) /.test(cmd) ? 'backends' : (/postgres: ([a-z ]+?)( worker|\s*$| )/.exec(cmd)?.[1] ?? 'other').trim();
      const t = out.get(role) ?? { user: 0, sys: 0 };
      t.user += Number(rest[11]) / 100;
      t.sys += Number(rest[12]) / 100;
      out.set(role, t);
    } catch {} // exited meanwhile
  }
  return out;
}

async function round(impl: Impl, statements: boolean): Promise<Round> {
  const pg = await startPostgres({
    settings: { max_connections: 400, ...(statements ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } : {}) },
  });
  try {
    const ledger = await impl.openPgLedger({ url: pg.url, ...(impl.batch ? { batch: impl.batch } : {}) });
    const limiter = impl.pgRateLimiter({ url: pg.url, ...(impl.batch ? { batch: impl.batch } : {}) });
    const keys: string[] = [];
    for (let a = 0; a < nAccounts; a++) keys.push((await ledger.createAccount({ tier: 'enterprise', name: `cost-${a}`, rateLimit }, new Date())).api_key);
    if (statements) pg.tool('psql', ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'pi', '-d', 'pi', '-c', 'CREATE EXTENSION pg_stat_statements']);

    const request = async (apiKey: string, i: number): Promise<void> => {
      const now = new Date();
      // As the middleware of each version calls the ledger (an older one has no authenticateAccount).
      const found = ledger.authenticateAccount
        ? await ledger.authenticateAccount(apiKey, now)
        : await (async () => {
            const principal = await ledger.authenticate(apiKey);
            const account = principal && (await ledger.account(principal.account_id, now));
            return principal && account && { principal, account };
          })();
      if (!found) throw new Error('authentication failed');
      const { principal, account } = found;
      const d = await limiter.hit(principal.key_id, account.rate_limit, now.getTime());
      if (!d.allowed) throw new Error('rate limited');
      const r = await ledger.reserve(principal.account_id, 1, now);
      if (!r.ok) throw new Error(`reserve refused: ${r.reason}`);
      const after = await ledger.commit(r.reservation, { endpoint: ENDPOINT, request_id: `r${i}` }, now);
      if (!after) await ledger.account(principal.account_id, now); // the balance header (credits.ts)
    };
    const drive = async (ms: number): Promise<number> => {
      let done = 0;
      const until = performance.now() + ms;
      await Promise.all(
        Array.from({ length: concurrency }, async (_, w) => {
          for (let i = 0; performance.now() < until; i++) {
            await request(keys[w % keys.length]!, i);
            done++;
          }
        }),
      );
      return done;
    };
    await drive(1_000); // warm: pools filled, statements prepared, windows populated
    if (statements) pg.tool('psql', ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'pi', '-d', 'pi', '-c', 'SELECT pg_stat_statements_reset()']);
    const pg0 = familyCpuSeconds(pg.pid());
    const roles0 = pgRoles(pg.pid());
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const done = await drive(seconds * 1000);
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const pgCpu = familyCpuSeconds(pg.pid()) - pg0;
    const pg_split: Record<string, number> = {};
    for (const [role, t] of pgRoles(pg.pid())) {
      const t0 = roles0.get(role) ?? { user: 0, sys: 0 };
      pg_split[`${role} user`] = r2(((t.user - t0.user) * 1000) / done);
      pg_split[`${role} kernel`] = r2(((t.sys - t0.sys) * 1000) / done);
    }
    if (statements) {
      const top = pg.tool('psql', [
        '-h', '127.0.0.1', '-p', String(pg.port), '-U', 'pi', '-d', 'pi', '-c',
        `SELECT calls, round(total_exec_time::numeric / ${done} * 1000, 1) AS exec_us_per_req, round(total_plan_time::numeric / ${done} * 1000, 1) AS plan_us_per_req, round(mean_exec_time::numeric * 1000, 1) AS mean_us, wal_records, wal_bytes, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 24`,
      ]);
      console.log(`${impl.label} statements (per request; nested statements inside functions included):\n${top.stdout}`);
    }
    await limiter.close();
    await ledger.close();
    return { rps: done / wall, pg_ms_per_req: (pgCpu * 1000) / done, client_ms_per_req: (c.user + c.system) / 1000 / done, pg_split };
  } finally {
    await pg.stop();
  }
}

const variants = values.variants.split(',').map((v): Batch => {
  const [inFlight, maxBatch] = v.split(':').map(Number);
  if (!(inFlight! >= 1 && maxBatch! >= 1)) throw new Error(`--variants: expected inFlight:maxBatch, got ${v}`);
  return { inFlight: inFlight!, maxBatch: maxBatch! };
});
const impls = [
  ...(await Promise.all(variants.map((b) => load(variants.length === 1 ? 'this' : `this ${b.inFlight}:${b.maxBatch}`, resolve('.'), b)))),
  ...(values.baseline ? [await load('baseline', values.baseline)] : []),
];
const loadBefore = loadAverage();
console.log(`load average before: ${loadBefore.join(' ')}; ${nAccounts} accounts, concurrency ${concurrency}, ${runs} × ${seconds} s per version`);
const samples = new Map<string, Round[]>(impls.map((i) => [i.label, []]));
for (let k = 0; k < runs; k++) {
  // Alternate which version goes first, so a drift in the machine's load favours neither.
  const order = k % 2 === 0 ? impls : [...impls].reverse();
  for (const impl of order) {
    const r = await round(impl, values.statements && k === runs - 1);
    samples.get(impl.label)!.push(r);
    console.log(`round ${k} ${impl.label}: ${Math.round(r.rps)} req/s, PostgreSQL ${r2(r.pg_ms_per_req)} ms CPU/req, client ${r2(r.client_ms_per_req)} ms CPU/req`);
    console.log(`  PostgreSQL ms/req by process: ${Object.entries(r.pg_split).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  }
}
const medians: Record<string, { rps: number; pg_ms_per_req: number; client_ms_per_req: number; rounds: number }> = {};
for (const [label, rs] of samples) {
  const m = { rps: Math.round(median(rs.map((r) => r.rps))), pg_ms_per_req: r2(median(rs.map((r) => r.pg_ms_per_req))), client_ms_per_req: r2(median(rs.map((r) => r.client_ms_per_req))), rounds: rs.length };
  medians[label] = m;
  console.log(`${label}: median ${m.rps} req/s, PostgreSQL ${m.pg_ms_per_req} ms CPU/req, client ${m.client_ms_per_req} ms CPU/req (${m.rounds} rounds)`);
}
const loadAfter = loadAverage();
console.log(`load average after: ${loadAfter.join(' ')}`);
const out = values.out ?? `bench/results/pg-ledger-cost-c${concurrency}.json`;
writeFileSync(
  out,
  `${JSON.stringify(
    {
      bench: 'pg-ledger-cost',
      at: new Date().toISOString(),
      load: { accounts: nAccounts, concurrency, seconds, runs, alternated: true, fresh_cluster_per_round: true },
      machine_load_average: { before: loadBefore, after: loadAfter },
      baseline: values.baseline ?? null,
      medians,
      rounds: Object.fromEntries(samples),
    },
    null,
    2,
  )}\n`,
);
console.log(`wrote ${out}`);
