/**
 * A metered lookup's latency against the physical limit, in one run: the property record's
 * server-side p95 at 25% of its flat-out rate, with the file ledger and with the PostgreSQL
 * ledger (a real PostgreSQL 15 on the same disk, started for the run), beside the disk's
 * own `fdatasync` latency measured by this bench in the same run (4 KB appended and
 * fdatasynced, 1,000 times, in the same directory as the ledger, before and after each
 * ledger's runs). The rule stays: a charge is durable before its response, so the floor of
 * a metered call's latency is one flush. Target (issue 23): file ledger p95 ≤ fdatasync p95 + 2 ms.
 *
 *   npx tsx bench/latency-disk.ts [--addresses 1000000] [--seconds 15] [--flat-rate 4000]
 *
 * Flat out: the ok/s the server sustains under open-loop arrivals at `--flat-rate` (far above
 * its capacity, at most 64 in flight). Server latency from the access log (`ms`).
 * Writes bench/results/latency-disk-<N>.json. Figures from a busy machine are not final.
 */
import { closeSync, mkdirSync, openSync, fdatasyncSync, readFileSync, realpathSync, symlinkSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ledgerDir, openFileLedger, openPgLedger } from '../service/ledger/index.ts';
import { endpointRequests, readEndpointInputs } from '../test/support/endpoint-requests.ts';
import { startPostgres, type PgServer } from '../test/support/postgres.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { openLoopInChild } from './support/open-loop.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, summary } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const N = arg('addresses', 1_000_000);
const SECONDS = arg('seconds', 15);
const FLAT_RATE = arg('flat-rate', 4000);
const ROUTE = 'GET /v1/properties/{uprn}';

/** The disk's own flush latency: 4 KB appended and fdatasynced, `n` times, in `dir`. */
function fdatasyncLatency(dir: string, n = 1000) {
  const path = join(dir, 'fdatasync-probe');
  const fd = openSync(path, 'w');
  const buf = Buffer.alloc(4096, 7);
  const ms: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      writeSync(fd, buf);
      const t = performance.now();
      fdatasyncSync(fd);
      ms.push(performance.now() - t);
    }
  } finally {
    closeSync(fd);
    unlinkSync(path);
  }
  return summary(ms);
}

const machine = describeMachine();
const bb = await ensureBenchBuild(N, arg('seed', 42), log);
const buildDir = realpathSync(bb.buildDir);
const { dir: tmp, cleanup } = tempDir('pi-bench-latency-disk-');
const requests = endpointRequests(await readEndpointInputs(buildDir, 60_000), 60_000).get(ROUTE)!.map((r) => r.path);
const rows: Record<string, unknown>[] = [];
let pg: PgServer | undefined;
try {
  for (const kind of ['file', 'postgres'] as const) {
    const dataDir = join(tmp, `data-${kind}`);
    mkdirSync(dataDir);
    symlinkSync(buildDir, join(dataDir, 'current'));
    const rateLimit = { limit: 1_000_000_000, windowMs: 10_000 };
    let env: Record<string, string> = {};
    let key: string;
    if (kind === 'file') {
      const l = await openFileLedger({ dir: ledgerDir(dataDir) });
      key = (await l.createAccount({ tier: 'enterprise', name: 'bench-latency-disk', rateLimit }, new Date())).api_key;
      await l.close();
    } else {
      pg = await startPostgres();
      const l = await openPgLedger({ url: pg.url });
      key = (await l.createAccount({ tier: 'enterprise', name: 'bench-latency-disk', rateLimit }, new Date())).api_key;
      await l.close();
      env = { LEDGER_URL: pg.url };
    }
    const server = await startServerProcess({ dataDir, env });
    try {
      await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
      const serverMs: number[] = [];
      let on = false;
      server.onLog((l) => {
        if (on && l.msg === 'request' && String(l.route) === ROUTE) serverMs.push(Number(l.ms));
      });
      const headers = { authorization: `Bearer ${key}` };
      const fsyncBefore = fdatasyncLatency(kind === 'file' ? ledgerDir(dataDir) : tmp);
      await openLoopInChild({ url: server.url, paths: requests.slice(-2000), headers, rate: 100, seconds: 5 }, tmp, `${kind}-warm`);
      const flat = await openLoopInChild({ url: server.url, paths: requests.slice(0, 20_000), headers, rate: FLAT_RATE, seconds: Math.max(5, SECONDS / 2), maxInFlight: 64 }, tmp, `${kind}-flat`);
      const flatRps = flat.ok / Math.max(5, SECONDS / 2);
      const rate = Math.max(1, Math.round(flatRps / 4));
      on = true;
      const client = await openLoopInChild({ url: server.url, paths: requests.slice(20_000), headers, rate, seconds: SECONDS }, tmp, `${kind}-25pct`);
      await new Promise((r) => setTimeout(r, 300)); // the last access-log lines
      on = false;
      const fsyncAfter = fdatasyncLatency(kind === 'file' ? ledgerDir(dataDir) : tmp);
      const srv = summary(serverMs);
      const fsyncP95 = Math.max(fsyncBefore.p95_ms, fsyncAfter.p95_ms);
      const row = {
        ledger: kind,
        flat_out_ok_per_s: Math.round(flatRps),
        rate_25pct: rate,
        server: srv,
        client,
        fdatasync_before: fsyncBefore,
        fdatasync_after: fsyncAfter,
        target_ms: Math.round((fsyncP95 + 2) * 100) / 100,
        meets_target: srv.p95_ms <= fsyncP95 + 2,
        load_average: loadAverage(),
      };
      rows.push(row);
      log(`${kind}: flat out ${row.flat_out_ok_per_s}/s; at ${rate}/s server p95 ${srv.p95_ms} ms (p50 ${srv.p50_ms}, p99 ${srv.p99_ms}); fdatasync p95 ${fsyncBefore.p95_ms} / ${fsyncAfter.p95_ms} ms; target ${row.target_ms} ms: ${row.meets_target ? 'met' : 'missed'}`);
    } finally {
      await server.stop();
    }
  }
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string };
  const out = { benchmark: 'latency-disk', when: new Date().toISOString(), commit: gitCommit(), machine, addresses: N, build_id: manifest.build_id, seconds: SECONDS, rows };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `latency-disk-${N}.json`), `${JSON.stringify(out, null, 2)}\n`);
  log(`wrote bench/results/latency-disk-${N}.json`);
} finally {
  await pg?.stop();
  cleanup();
}
