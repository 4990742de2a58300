/**
 * What a tool call over MCP costs the server beside the REST call it stands for: the production
 * server in its own process over a bench build, the same request (`GET /v1/properties/{uprn}`,
 * the cheapest endpoint, so the envelope shows most) sent in alternating batches as REST and as
 * the `property` tool through the SDK's Client over Streamable HTTP at /mcp. Server CPU (user +
 * system, from /proc) per call, the median of the batches, and the ratio within each pair of
 * batches (measured side by side, so a busy machine moves both alike).
 *
 *   npx tsx bench/mcp-overhead.ts [--addresses 10000] [--seed 42] [--calls 200] [--rounds 5]
 *
 * Writes bench/results/mcp-overhead.json and .md.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { demoProperty } from '../scripts/demo-requests.ts';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { tempDir } from '../test/support/tmp.ts';
import { ensureBenchBuild } from './support/bench-build.ts';
import { describeMachine, gitCommit, loadAverage } from './support/machine.ts';
import { cpuSeconds } from './support/proc.ts';
import { startServerProcess } from './support/server-process.ts';
import { arg, median, r2 } from './support/stats.ts';

const ROOT = resolve(import.meta.dirname, '..');
const N = arg('addresses', 10_000);
const SEED = arg('seed', 42);
const CALLS = arg('calls', 200);
const ROUNDS = arg('rounds', 5);
const log = (msg: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const { dir: tmp, cleanup } = tempDir('pi-bench-mcp-');
const dataDir = join(tmp, 'data');
mkdirSync(dataDir);
const bb = await ensureBenchBuild(N, SEED, log);
symlinkSync(realpathSync(bb.buildDir), join(dataDir, 'current'));
const ledger = await openFileLedger({ dir: ledgerDir(dataDir) });
const { api_key: key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench-mcp', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
await ledger.close();
const { uprn } = await demoProperty(dataDir);

const server = await startServerProcess({ dataDir });
await server.waitFor((l) => l.msg === 'build warmed', 15 * 60_000, true);
const client = new Client({ name: 'bench-mcp', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));

const rest = async () => {
  const res = await fetch(`${server.url}/v1/properties/${uprn}`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`REST ${res.status}`);
  await res.text();
};
const tool = async () => {
  const r = await client.callTool({ name: 'property', arguments: { uprn } });
  if (r.isError) throw new Error(`tool error: ${JSON.stringify(r.content)}`);
};
/** Server CPU ms and client wall ms per call over one batch. */
async function batch(fn: () => Promise<void>): Promise<{ cpu_ms: number; wall_ms: number }> {
  const c0 = cpuSeconds(server.pid);
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  const wall = performance.now() - t0;
  const c1 = cpuSeconds(server.pid);
  return { cpu_ms: ((c1.user_s + c1.sys_s - c0.user_s - c0.sys_s) * 1000) / CALLS, wall_ms: wall / CALLS };
}

const loadBefore = loadAverage();
for (let i = 0; i < 3; i++) { await batch(rest); await batch(tool); } // warm both paths (JIT), untimed
const rounds: { rest: { cpu_ms: number; wall_ms: number }; mcp: { cpu_ms: number; wall_ms: number } }[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const pair = i % 2 === 0 ? { rest: await batch(rest), mcp: await batch(tool) } : { mcp: await batch(tool), rest: await batch(rest) };
  rounds.push(pair);
  log(`round ${i + 1}: server CPU per call REST ${r2(pair.rest.cpu_ms)} ms, MCP ${r2(pair.mcp.cpu_ms)} ms`);
}
await client.close();
await server.stop();

const result = {
  benchmark: 'mcp-overhead',
  command: `npx tsx bench/mcp-overhead.ts ${process.argv.slice(2).join(' ')}`.trim(),
  when: new Date().toISOString(),
  git_commit: gitCommit(),
  machine: { ...describeMachine(), load_average_before: loadBefore, load_average_after: loadAverage() },
  build: { addresses: N, seed: SEED },
  calls_per_batch: CALLS,
  rounds,
  median: {
    rest_cpu_ms: r2(median(rounds.map((r) => r.rest.cpu_ms))),
    mcp_cpu_ms: r2(median(rounds.map((r) => r.mcp.cpu_ms))),
    cpu_ratio: r2(median(rounds.map((r) => r.mcp.cpu_ms / r.rest.cpu_ms))),
    rest_wall_ms: r2(median(rounds.map((r) => r.rest.wall_ms))),
    mcp_wall_ms: r2(median(rounds.map((r) => r.mcp.wall_ms))),
  },
};
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const out = join(ROOT, 'bench', 'results', 'mcp-overhead');
writeFileSync(`${out}.json`, `${JSON.stringify(result, null, 2)}\n`);
const m = result.median;
const md = [
  '# MCP tool call against its REST call', '',
  `${result.when.slice(0, 16).replace('T', ' ')} UTC, commit \`${result.git_commit}\`: \`${result.command}\`, ${N.toLocaleString('en-GB')} addresses. ${ROUNDS} rounds of ${CALLS} sequential \`GET /v1/properties/{uprn}\` as REST and as the \`property\` tool (Streamable HTTP, one Client), alternating. Load average ${loadBefore.join(' / ')} before.`, '',
  '| | server CPU ms per call (median) | client wall ms per call (median) |', '|---|---|---|',
  `| REST | ${m.rest_cpu_ms} | ${m.rest_wall_ms} |`,
  `| MCP tool (the /mcp envelope + the same REST call) | ${m.mcp_cpu_ms} | ${m.mcp_wall_ms} |`, '',
  `Median of the per-round ratios, MCP / REST server CPU: ${m.cpu_ratio}.`,
].join('\n');
writeFileSync(`${out}.md`, `${md}\n`);
console.log(md);
cleanup();
process.exit(0);
