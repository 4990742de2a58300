/**
 * The process: read config, open the ledger (the file ledger takes its writer lock and
 * starts the admin socket; with LEDGER_URL the shared PostgreSQL ledger and rate limiter),
 * listen on PORT (and on METRICS_PORT for /metrics). With WORKERS > 1, a cluster primary runs that many such workers on one
 * port (replicas.ts). SIGTERM/SIGINT stop accepting connections, let in-flight
 * requests finish (up to SHUTDOWN_TIMEOUT_MS), then flush and close the ledger.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { ERROR_CODES, type ErrorCode } from '../schemas/api/problem.ts';
import type { Config } from '../schemas/config.ts';
import { buildApp, type Clock } from './app.ts';
import { buildOptions, startBuildWarmer } from './build/warmer.ts';
import { loadConfig } from './config.ts';
import { adminSocketPath, ledgerDir, openConfiguredLedger, startAdminServer } from './ledger/index.ts';
import type { Ledger } from './ledger/types.ts';
import { createLogger, type Logger } from './log.ts';
import { createMetricsServer } from './metrics-server.ts';
import { fileDataSource } from './build/source.ts';
import { problemBody } from './middleware/errors.ts';
import { isPrimary, runReplicas } from './replicas.ts';

/**
 * Node counts the request line in maxHeaderSize, so an overlong URL is a header overflow too:
 * it is the URL when the packet that overflowed starts the request and its first line has not
 * ended within the limit.
 */
function requestLineOverflows(packet: Buffer | undefined, headerLimit: number): boolean {
  if (!packet || !/^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1'))) return false;
  const end = packet.indexOf('\r\n');
  return end === -1 || end > headerLimit;
}

/** The problem+json answer to a request Node's parser refused or timed out, and why. */
function parserProblem(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, headerLimit: number): { code: ErrorCode; detail: string } {
  if (err.code === 'HPE_HEADER_OVERFLOW' && requestLineOverflows(err.rawPacket, headerLimit)) {
    return { code: 'uri_too_long', detail: `The request line (path and query) exceeds ${headerLimit} bytes.` };
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') return { code: 'request_header_fields_too_large', detail: `Request headers exceed ${headerLimit} bytes.` };
  // headersTimeout or requestTimeout: the client was too slow, the request was not malformed.
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { code: 'request_timeout', detail: 'The request did not arrive in time.' };
  return { code: 'invalid_request', detail: 'Malformed HTTP request.' };
}

/**
 * An HTTP server for a Koa callback with the header limits applied. Requests Node's
 * parser refuses (oversized or malformed headers, a header timeout) still get a
 * problem+json answer with its own X-Request-Id, like every other answer.
 */
export function createHttpServer(
  callback: Parameters<typeof createServer>[1],
  config: Pick<Config, 'HEADER_LIMIT_BYTES' | 'HEADER_COUNT_LIMIT' | 'KEEP_ALIVE_TIMEOUT_MS' | 'HEADERS_TIMEOUT_MS'>,
): Server {
  const server = createServer(
    {
      maxHeaderSize: config.HEADER_LIMIT_BYTES,
      requestTimeout: 30_000,
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      // How often Node looks for timed-out requests (its default, 30 s, would let a 10 s
      // header timeout run to 40 s).
      connectionsCheckingInterval: Math.max(100, Math.ceil(config.HEADERS_TIMEOUT_MS / 4)),
    },
    callback,
  );
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.maxHeadersCount = config.HEADER_COUNT_LIMIT;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const { code, detail } = parserProblem(err, config.HEADER_LIMIT_BYTES);
    const id = randomUUID();
    const text = JSON.stringify(problemBody(code, detail, id));
    const { status, title } = ERROR_CODES[code];
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stop accepting, wait for in-flight requests (at most `timeoutMs`), then drop the rest. */
export function closeGracefully(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export interface Running {
  port: number;
  /** Where /metrics is served (METRICS_HOST). */
  metricsPort: number;
  server: Server;
  ledger: Ledger;
  /** Graceful stop: in-flight requests finish, the ledger is flushed and unlocked. */
  stop(): Promise<void>;
}

export async function startServer(config: Config, opts: { clock?: Clock; logger?: Logger } = {}): Promise<Running> {
  const clock = opts.clock ?? (() => new Date());
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const opened = await openConfiguredLedger(config, clock);
  const { ledger, limiter } = opened;
  // The admin socket serves the file ledger's lock holder; PostgreSQL is reached directly.
  const admin = opened.kind === 'file' ? await startAdminServer(opened.ledger, config.ADMIN_SOCKET ?? adminSocketPath(ledgerDir(config.DATA_DIR))) : undefined;
  // Requests see the build the warmer has fully opened (the previous one until then).
  const warmer = startBuildWarmer(fileDataSource(config.DATA_DIR), logger, undefined, undefined, buildOptions(config));
  const { koa, metrics } = buildApp({ config, ledger, limiter, clock, builds: warmer, logger });
  const server = createHttpServer(koa.callback(), config);
  const port = await listen(server, config.PORT, config.HOST);
  const metricsServer = createMetricsServer(metrics);
  const metricsPort = await listen(metricsServer, config.METRICS_PORT, config.METRICS_HOST);
  logger.info({ port, metrics_port: metricsPort, pid: process.pid, ledger: opened.kind, data_dir: config.DATA_DIR, build_id: warmer.current()?.id ?? null }, 'listening');
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down: finishing in-flight requests');
      warmer.stop();
      await closeGracefully(server, config.SHUTDOWN_TIMEOUT_MS);
      await closeGracefully(metricsServer, 1_000);
      await warmer.close();
      await admin?.close();
      await limiter.close?.();
      await ledger.close();
      logger.info('stopped: ledger flushed');
    })());
  return { port, metricsPort, server, ledger, stop };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const logger = createLogger(config.LOG_LEVEL);
  if (config.WORKERS > 1 && isPrimary()) return runReplicas(config.WORKERS, logger);
  const running = await startServer(config, { logger });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'signal received');
      running.stop().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  main().catch((err: unknown) => {
    process.stderr.write(`failed to start: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
