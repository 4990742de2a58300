/**
 * Address search and the property record as production serves them: the server in its own
 * process (NODE_ENV=production, bench/support/server-process.ts) over the bench build, one
 * endpoint at a time under open-loop Poisson arrivals (bench/support/open-loop.ts, a second
 * process) at several fixed rates: the latency-load curve a capacity plan needs. Server-side
 * latency from the server's access log (`ms`), client-side from the generator.
 *
 *   npx tsx bench/latency-production.ts [--addresses 1000000] [--seconds 15]
 *       [--search-rates 25,50,100,150] [--property-rates 100,250,500,1000] [--server-node-args "..."]
 *
 * Unlike bench/search.ts (which serves from its own process, beside the generated data and
 * query sets), the server's heap here holds only what production holds.
 * Writes bench/results/latency-production-<N>.json.
 */
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { endpointRequests, readEndpointInputs } from '../test/support/endpoint-requests.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { openLoopInChild } from './support/open-loop.ts';
import { memory } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, argStr, mb, summary } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const rates = (name: string, dflt: string) => argStr(name, dflt).split(',').map(Number).filter((x) => x > 0);

const N = arg('addresses', 1_000_000);
const SECONDS = arg('seconds', 15);
const ENDPOINTS = [
  { name: 'search', route: 'GET /v1/addresses/search', rates: rates('search-rates', '25,50,100,150') },
  { name: 'property', route: 'GET /v1/properties/{uprn}', rates: rates('property-rates', '100,250,500,1000') },
];

const machine = describeMachine();
const bb = await ensureBenchBuild(N, arg('seed', 42), log);
const buildDir = realpathSync(bb.buildDir);
const { dir: tmp, cleanup } = tempDir('pi-bench-latency-');
const dataDir = join(tmp, 'data');
mkdirSync(dataDir);
symlinkSync(buildDir, join(dataDir, 'current'));
const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench-latency', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
await ledger.close();
const requests = endpointRequests(await readEndpointInputs(buildDir, 60_000), 60_000);

// --server-node-args: node flags for the server (e.g. GC settings), none by default as `npm start`.
const nodeArgs = argStr('server-node-args', '').split(' ').filter(Boolean);
const server = await startServerProcess({ dataDir, nodeArgs });
try {
  const warmed = await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
  log(`server pid ${server.pid}: build warmed in ${warmed.ms} ms, RSS ${mb(memory(server.pid).rss)} MB`);
  const serverMs: number[] = [];
  let route = '';
  server.onLog((l) => {
    if (l.msg === 'request' && String(l.route) === route) serverMs.push(Number(l.ms));
  });
  const results: Record<string, unknown>[] = [];
  for (const ep of ENDPOINTS) {
    const paths = requests.get(ep.route)!.map((r) => r.path);
    // Warm-up: the first requests of a route touch cold pages of the build's files.
    await openLoopInChild({ url: server.url, paths: paths.slice(-2000), headers: { authorization: `Bearer ${api_key}` }, rate: ep.rates[0]!, seconds: 5 }, tmp, `${ep.name}-warm`);
    for (const [k, rate] of ep.rates.entries()) {
      route = ep.route;
      serverMs.length = 0;
      const la = loadAverage();
      const client = await openLoopInChild({ url: server.url, paths: paths.slice(k * 5000), headers: { authorization: `Bearer ${api_key}` }, rate, seconds: SECONDS }, tmp, `${ep.name}-${rate}`);
      await new Promise((r) => setTimeout(r, 300)); // the last access-log lines
      route = '';
      const row = { endpoint: ep.name, server: summary(serverMs), ...client, load_average_before: la };
      results.push(row);
      log(`${ep.name} at ${rate} req/s: server p50 ${row.server.p50_ms} p95 ${row.server.p95_ms} p99 ${row.server.p99_ms} ms; client p95 ${client.client_p95_ms}; ok ${client.ok}/${client.sent}, dropped ${client.dropped}`);
    }
  }
  const rss = mb(memory(server.pid).rss);
  const manifest = JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')) as { build_id: string };
  const out = {
    benchmark: 'latency-production', when: new Date().toISOString(), commit: gitCommit(), machine, addresses: N, build_id: manifest.build_id,
    server: { command: server.command, rss_end_mb: rss }, seconds: SECONDS, results, load_average_after: loadAverage(),
  };
  writeFileSync(join(ROOT, 'bench', 'results', `latency-production-${N}.json`), `${JSON.stringify(out, null, 2)}\n`);
  log(`wrote bench/results/latency-production-${N}.json`);
} finally {
  await server.stop();
  cleanup();
}
