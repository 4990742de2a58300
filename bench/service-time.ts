/**
 * Each endpoint's service time: the production server in its own process over a bench build,
 * sent each endpoint's requests one at a time (no concurrency, so the figure is the work of
 * one request, not a queue), from the same generated requests as bench/mixed.ts. Server-side
 * latency from the access log (`ms`). Where bench/mixed.ts says an endpoint is slow under the
 * mix, this says whether it is slow alone.
 *
 *   npx tsx bench/service-time.ts [--addresses 1000000] [--seed 42] [--per-endpoint 300]
 *                                 [--only areas,trends]   (endpoints whose name contains one of these)
 *                                 [--node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"]  (flags for the server process)
 *
 * Writes bench/results/service-time-<N>.json and .md.
 */
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { V1_ROUTES } from '../service/routes/v1/index.ts';
import { endpointRequests, readEndpointInputs, type Req } from '../test/support/endpoint-requests.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { memory } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, argStr, mb, summaryWithMax } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const N = arg('addresses', 1_000_000);
const SEED = arg('seed', 42);
const PER = arg('per-endpoint', 300);
const ONLY = argStr('only', '').split(',').filter(Boolean);

function send(url: string, headers: Record<string, string>, method: string, r: Req): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((done, fail) => {
    const h = r.body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(r.body)) };
    const req = request({ hostname, port, path: r.path, method, headers: h }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end(r.body);
  });
}

const { dir: tmp, cleanup } = tempDir('pi-bench-service-time-');
const dataDir = join(tmp, 'data');
mkdirSync(dataDir);
const bb = await ensureBenchBuild(N, SEED, log);
const buildDir = realpathSync(bb.buildDir);
symlinkSync(buildDir, join(dataDir, 'current'));
const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench-service-time', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
await ledger.close();
const inputs = await readEndpointInputs(buildDir, Math.max(PER * 2, 2_000));
const cands = endpointRequests(inputs, Math.max(PER * 2, 2_000));

const server = await startServerProcess({ dataDir, nodeArgs: argStr('node-args', '').split(' ').filter(Boolean) });
const access: { route: string; status: number; ms: number }[] = [];
server.onLog((l) => l.msg === 'request' && access.push({ route: String(l.route), status: Number(l.status), ms: Number(l.ms) }));
await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
const rssWarm = memory(server.pid).rss;
log(`server ${server.url} warmed, RSS ${mb(rssWarm)} MB`);
const headers = { authorization: `Bearer ${api_key}` };
const machine = describeMachine();
const loadBefore = loadAverage();

const rows: Record<string, unknown>[] = [];
for (const route of V1_ROUTES) {
  const name = `${route.method} /v1${route.path}`;
  if (ONLY.length > 0 && !ONLY.some((o) => name.includes(o))) continue;
  const reqs = cands.get(name) ?? [];
  if (reqs.length === 0) continue;
  // Warm this endpoint's code path (JIT, first-touch pages) with a few requests, untimed.
  for (const r of reqs.slice(-10)) await send(server.url, headers, route.method, r);
  await new Promise((r) => setTimeout(r, 100));
  access.length = 0;
  const statuses: Record<string, number> = {};
  for (const r of reqs.slice(0, PER)) {
    const s = await send(server.url, headers, route.method, r);
    statuses[s] = (statuses[s] ?? 0) + 1;
  }
  await new Promise((r) => setTimeout(r, 200));
  const ok = access.filter((a) => a.route === name && a.status >= 200 && a.status < 300).map((a) => a.ms);
  const all = access.filter((a) => a.route === name).map((a) => a.ms);
  const row = { endpoint: name, requests: all.length, statuses, server_2xx: summaryWithMax(ok), server_all: summaryWithMax(all) };
  rows.push(row);
  log(`${name}: ${JSON.stringify(statuses)} 2xx p50 ${row.server_2xx.p50_ms} p95 ${row.server_2xx.p95_ms} p99 ${row.server_2xx.p99_ms} ms`);
}
const rssEnd = memory(server.pid).rss;
await server.stop();

const result = {
  benchmark: 'service-time',
  command: `npx tsx bench/service-time.ts ${process.argv.slice(2).join(' ')}`.trim(),
  when: new Date().toISOString(),
  git_commit: gitCommit(),
  machine: { ...machine, load_average_before: loadBefore, load_average_after: loadAverage() },
  build: { id: JSON.parse(readFileSync(join(buildDir, 'manifest.json'), 'utf8')).build_id, addresses: N, seed: SEED },
  per_endpoint: PER,
  server_rss_mb: { warmed: mb(rssWarm), end: mb(rssEnd) },
  endpoints: rows,
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const out = join(ROOT, 'bench', 'results', `service-time-${N}${ONLY.length ? '-only' : ''}`);
writeFileSync(`${out}.json`, `${JSON.stringify(result, null, 2)}\n`);
const md = [
  `# Service time per endpoint at ${N.toLocaleString('en-GB')} addresses`, '',
  `${result.when.slice(0, 16).replace('T', ' ')} UTC, commit \`${result.git_commit}\`: \`${result.command}\`. One request at a time, ${PER} per endpoint; server-side ms from the access log. Load average ${loadBefore.join(' / ')} before. Server RSS ${result.server_rss_mb.warmed} MB warmed, ${result.server_rss_mb.end} MB at the end.`, '',
  '| endpoint | requests | statuses | 2xx p50 | p95 | p99 | max ms |', '|---|---|---|---|---|---|---|',
  ...rows.map((r: any) => `| ${r.endpoint} | ${r.requests} | ${Object.entries(r.statuses).map(([k, c]) => `${c} × ${k}`).join(', ')} | ${r.server_2xx.p50_ms} | ${r.server_2xx.p95_ms} | ${r.server_2xx.p99_ms} | ${r.server_2xx.max_ms} |`),
].join('\n');
writeFileSync(`${out}.md`, `${md}\n`);
console.log(md);
cleanup();
process.exit(0);
