/**
 * What the durable rate window costs a metered request (issue 45): the same server and
 * requests with the in-memory window and with the ledger-backed one (a `hit` record per
 * accepted request), alternating rounds in one run. Reports the server process's CPU per
 * request (process.cpuUsage: client and server share the process, so it is an upper bound
 * on the server's share) and the median latency, both as medians over rounds.
 *
 *   npx tsx bench/hit-overhead.ts [--rounds 5] [--requests 2000] [--concurrency 8]
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { buildApp } from '../service/app.ts';
import { fileDataSource } from '../service/build/source.ts';
import { startBuildWarmer } from '../service/build/warmer.ts';
import { loadConfig } from '../service/config.ts';
import { openFileLedger } from '../service/ledger/file-ledger.ts';
import { inProcessLimiter, ledgerBackedLimiter } from '../service/ledger/rate-limiter.ts';
import { createLogger } from '../service/log.ts';
import { V1_ROUTES } from '../service/routes/v1/index.ts';
import { closeGracefully, createHttpServer, listen } from '../service/server.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './support/stats.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' } } });
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const account = V1_ROUTES.find((r) => r.operationId === 'getAccount')!;

function get(port: number, key: string): Promise<number> {
  return new Promise((res, rej) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/account', headers: { authorization: `Bearer ${key}` }, agent: false }, (r) => {
      r.resume();
      r.on('end', () => res(r.statusCode ?? 0));
    });
    req.on('error', rej);
    req.end();
  });
}

async function round(kind: 'memory' | 'ledger'): Promise<{ cpuMsPerReq: number; p50Ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'pi-hit-bench-'));
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const logger = createLogger('silent');
  const ledger = await openFileLedger({ dir: join(dir, 'ledger') });
  const { api_key } = await ledger.createAccount({ tier: 'enterprise', rateLimit: { limit: 10_000_000, windowMs: 10_000 } }, new Date());
  const limiter = kind === 'ledger' ? ledgerBackedLimiter(ledger) : inProcessLimiter();
  const builds = startBuildWarmer(fileDataSource(dir), logger);
  const { koa } = buildApp({ config, ledger, limiter, clock: () => new Date(), builds, logger, routes: [account] });
  const server = createHttpServer(koa.callback(), config);
  const port = await listen(server, 0, '127.0.0.1');
  const lat: number[] = [];
  let next = 0;
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) {
        const t = process.hrtime.bigint();
        if ((await get(port, api_key)) !== 200) throw new Error('not 200');
        lat.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  await closeGracefully(server, 1_000);
  await builds.close();
  await ledger.close();
  rmSync(dir, { recursive: true, force: true });
  lat.sort((a, b) => a - b);
  return { cpuMsPerReq: (cpu.user + cpu.system) / 1000 / REQUESTS, p50Ms: lat[lat.length >> 1]! };
}

const out: Record<'memory' | 'ledger', { cpu: number[]; p50: number[] }> = { memory: { cpu: [], p50: [] }, ledger: { cpu: [], p50: [] } };
for (let i = 0; i < ROUNDS; i++) {
  for (const kind of i % 2 === 0 ? (['memory', 'ledger'] as const) : (['ledger', 'memory'] as const)) {
    const r = await round(kind);
    out[kind].cpu.push(r.cpuMsPerReq);
    out[kind].p50.push(r.p50Ms);
  }
}
for (const kind of ['memory', 'ledger'] as const) {
  console.log(`${kind.padEnd(6)} CPU/request median ${median(out[kind].cpu).toFixed(3)} ms (runs ${out[kind].cpu.map((x) => x.toFixed(3)).join(', ')}); p50 latency median ${median(out[kind].p50).toFixed(2)} ms`);
}
console.log(`ratio ledger/memory: CPU ${(median(out.ledger.cpu) / median(out.memory.cpu)).toFixed(2)}, p50 ${(median(out.ledger.p50) / median(out.memory.p50)).toFixed(2)}`);
