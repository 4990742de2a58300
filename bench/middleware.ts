/**
 * Added latency of the metering chain per request: a bare Koa route versus
 *   free     GET /v1/account          request id, log, auth, rate limit (no ledger write)
 *   metered  GET /v1/bench/metered    the same plus credit reserve and durable commit (fsync)
 * on a real server with the real file ledger in a temporary DATA_DIR.
 *
 * 1. Sequential: one keep-alive connection, each request timed with hrtime; p50/p99 and
 *    the difference to the bare route is the added latency.
 * 2. Load: autocannon, 10 connections for a few seconds each: requests/s and latency.
 *
 *   npx tsx bench/middleware.ts [--requests 3000] [--seconds 5]
 * Writes bench/results/middleware.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';
import Koa from 'koa';
import { buildApp } from '../service/app.ts';
import { loadConfig } from '../service/config.ts';
import { ledgerDir, openFileLedger } from '../service/ledger/index.ts';
import { createLogger } from '../service/log.ts';
import { z } from 'zod';
import { fileDataSource } from '../service/build/source.ts';
import { startBuildWarmer } from '../service/build/warmer.ts';
import { defineRoute } from '../service/routes/types.ts';
import { V1_ROUTES } from '../service/routes/v1/index.ts';
import { closeGracefully, createHttpServer, listen } from '../service/server.ts';
import { tempDir } from '../test/support/tmp.ts';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const REQUESTS = arg('requests', 3_000);
const SECONDS = arg('seconds', 5);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

function get(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((res, rej) => {
    request(url, { agent, headers }, (r) => {
      r.resume();
      r.on('end', () => (r.statusCode === 200 ? res(r.statusCode) : rej(new Error(`${url}: ${r.statusCode}`))));
    })
      .on('error', rej)
      .end();
  });
}

async function sequential(url: string, headers: Record<string, string>): Promise<{ p50_ms: number; p99_ms: number; mean_ms: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 300; i++) await get(agent, url, headers);
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = process.hrtime.bigint();
    await get(agent, url, headers);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  agent.destroy();
  ms.sort((a, b) => a - b);
  return { p50_ms: round(pct(ms, 50)), p99_ms: round(pct(ms, 99)), mean_ms: round(ms.reduce((a, b) => a + b, 0) / ms.length) };
}

async function main(): Promise<void> {
  const { dir, cleanup } = tempDir('pi-bench-');
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const ledger = await openFileLedger({ dir: ledgerDir(dir) });
  const { api_key } = await ledger.createAccount({ tier: 'enterprise', name: 'bench', rateLimit: { limit: 1_000_000_000, windowMs: 10_000 } }, new Date());
  const metered = defineRoute({ method: 'GET', path: '/bench/metered', operationId: 'benchMetered', summary: 'bench', tag: 'Bench', cost: 1, response: z.object({ ok: z.boolean() }), needsBuild: false, handler: () => ({ ok: true }) });
  const { koa } = buildApp({ config, ledger, clock: () => new Date(), builds: startBuildWarmer(fileDataSource(dir), createLogger('silent')), logger: createLogger('silent'), routes: [...V1_ROUTES, metered] });
  const full = createHttpServer(koa.callback(), config);
  const fullPort = await listen(full, 0, '127.0.0.1');

  const bareApp = new Koa();
  bareApp.use((ctx) => {
    ctx.body = { ok: true };
  });
  const bare: Server = createHttpServer(bareApp.callback(), config);
  const barePort = await listen(bare, 0, '127.0.0.1');

  const auth = { authorization: `Bearer ${api_key}` };
  const targets = {
    bare: { url: `http://127.0.0.1:${barePort}/bare`, headers: {} },
    free: { url: `http://127.0.0.1:${fullPort}/v1/account`, headers: auth },
    metered: { url: `http://127.0.0.1:${fullPort}/v1/bench/metered`, headers: auth },
  };

  const seq: Record<string, Awaited<ReturnType<typeof sequential>>> = {};
  for (const [name, t] of Object.entries(targets)) seq[name] = await sequential(t.url, t.headers);
  const added = (name: 'free' | 'metered') => ({ p50_ms: round(seq[name]!.p50_ms - seq.bare!.p50_ms), p99_ms: round(seq[name]!.p99_ms - seq.bare!.p99_ms) });

  const load: Record<string, { rps: number; p50_ms: number; p99_ms: number; non2xx: number; errors: number }> = {};
  for (const [name, t] of Object.entries(targets)) {
    const r = await autocannon({ url: t.url, connections: 10, duration: SECONDS, headers: t.headers });
    load[name] = { rps: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
  }

  const stats = ledger.stats();
  const result = {
    benchmark: 'middleware',
    when: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? null,
    sequential_requests: REQUESTS,
    sequential: seq,
    added_latency: { free_auth_ratelimit: added('free'), metered_auth_ratelimit_ledger: added('metered') },
    load_10_connections: { seconds: SECONDS, ...load },
    ledger: { records: stats.records, batches: stats.batches, fsyncs: stats.fsyncs },
  };
  const out = resolve(import.meta.dirname, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'middleware.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));

  await closeGracefully(full, 1_000);
  await closeGracefully(bare, 1_000);
  await ledger.close();
  cleanup();
}

await main();
