/**
 * A real server for service tests: buildApp with the real file ledger in a temporary
 * DATA_DIR, listening on a free loopback port, with a controllable clock (move across
 * billing cycles and slide rate windows without sleeping) and the JSON log captured.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { z } from 'zod';
import { buildApp } from '../../service/app.ts';
import { loadConfig } from '../../service/config.ts';
import type { Tier } from '../../schemas/plans.ts';
import { ledgerDir, openFileLedger, type FileLedger } from '../../service/ledger/index.ts';
import { createLogger } from '../../service/log.ts';
import { createMetricsServer } from '../../service/metrics-server.ts';
import { fileDataSource } from '../../service/build/source.ts';
import { buildOptions, startBuildWarmer } from '../../service/build/warmer.ts';
import { defineRoute, type RouteDef } from '../../service/routes/types.ts';
import { createHttpServer, listen, closeGracefully } from '../../service/server.ts';
import { tempDir } from '../support/tmp.ts';

/** A clock the test moves; with `tickMs` every read also advances it (time flies). */
export class TestClock {
  tickMs = 0;
  constructor(public ms: number = Date.parse('2026-01-15T09:00:00Z')) {}
  now = (): Date => {
    const d = new Date(this.ms);
    this.ms += this.tickMs;
    return d;
  };
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestServer {
  base: string;
  /** The metrics listener (/metrics is not on the API port). */
  metricsBase: string;
  port: number;
  dataDir: string;
  ledger: FileLedger;
  clock: TestClock;
  logs: string[];
  /** The build warmer the app serves from (tests of what a request holds). */
  builds: import('../../service/build/warmer.ts').BuildWarmer;
  /** The HTTP server (tests of connections: how many are open). */
  server: import('node:http').Server;
  /** Prometheus text of the app's metrics. */
  metricsText(): Promise<string>;
  /** A new account of `tier` and its key. */
  account(tier: Tier, rateLimit?: { limit: number; windowMs: number }): Promise<{ id: string; key: string }>;
  stop(): Promise<void>;
}

export async function startTestServer(
  opts: { routes?: readonly RouteDef[]; env?: Record<string, string>; clock?: TestClock; snapshotEvery?: number; /** Default `${DATA_DIR}/ledger`. */ ledgerDir?: string } = {},
): Promise<TestServer> {
  const { dir, cleanup } = tempDir('pi-service-');
  // Every test client shares 127.0.0.1, and many tests send bad keys on purpose: the
  // failed-authentication throttle is off unless a test turns it on (auth-throttle.test.ts).
  const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', AUTH_FAILURE_LIMIT: '0', ...opts.env });
  const clock = opts.clock ?? new TestClock();
  const logs: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(line) });
  const ledger = await openFileLedger({ dir: opts.ledgerDir ?? ledgerDir(dir), clock: clock.now, ...(opts.snapshotEvery ? { snapshotEvery: opts.snapshotEvery } : {}) });
  const builds = startBuildWarmer(fileDataSource(dir), logger, undefined, undefined, buildOptions(config));
  const { koa, metrics } = buildApp({ config, ledger, clock: clock.now, builds, logger, ...(opts.routes ? { routes: opts.routes } : {}) });
  const server = createHttpServer(koa.callback(), config);
  const port = await listen(server, 0, '127.0.0.1');
  const metricsServer = createMetricsServer(metrics);
  const metricsPort = await listen(metricsServer, 0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${port}`,
    metricsBase: `http://127.0.0.1:${metricsPort}`,
    port,
    dataDir: dir,
    builds,
    ledger,
    clock,
    logs,
    server,
    metricsText: () => metrics.registry.metrics(),
    async account(tier, rateLimit) {
      const { account, api_key } = await ledger.createAccount({ tier, name: `test-${tier}`, ...(rateLimit ? { rateLimit } : {}) }, new Date(clock.ms));
      return { id: account.account_id, key: api_key };
    },
    async stop() {
      await closeGracefully(server, 1_000);
      await closeGracefully(metricsServer, 1_000);
      await builds.close();
      await ledger.close();
      cleanup();
    },
  };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

/**
 * One HTTP request on its own connection (no pooling: concurrent calls are truly
 * concurrent). Headers are sent exactly as given.
 */
export function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; headers?: Record<string, string>; body?: string | Buffer; /** The client's own address, e.g. 127.0.0.2 (any of 127/8 on Linux). */ localAddress?: string } = {},
): Promise<Reply> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}), ...opts.headers };
  if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export const postJson = (base: string, path: string, key: string, body: unknown): Promise<Reply> =>
  call(base, 'POST', path, { key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A metered test route that needs no build: GET /v1/test/<name> answers 200 `{ ok: true }` for `cost` credits. */
export const meteredRoute = (name: string, cost: number): RouteDef =>
  defineRoute({
    method: 'GET',
    path: `/test/${name}`,
    operationId: name,
    summary: `answers 200 for ${cost} credits`,
    tag: 'Test',
    cost,
    response: z.object({ ok: z.boolean() }),
    needsBuild: false,
    handler: () => ({ ok: true }),
  });

/** Writes `text` on a raw socket and resolves with the response's head and body, read until the server closes the connection. */
export function rawExchange(port: number, text: string | Buffer): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (c: Buffer) => (got += c.toString()));
    socket.on('end', () => {
      const at = got.indexOf('\r\n\r\n');
      resolve({ head: got.slice(0, at), body: got.slice(at + 4) });
    });
    socket.on('error', reject);
  });
}
