import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * The service's whole configuration, read once from the environment at start-up.
 * Every knob has a default; a bad value fails fast with the variable's name.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: int(0, 65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** /metrics is served on this port only, never on PORT; 0: a port the kernel picks (logged at start). */
  METRICS_PORT: int(0, 65_535).default(9464),
  /** Loopback by default: Prometheus scrapes from the same host (or set an internal address). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** JSON request bodies above this many bytes are refused with 413. */
  BODY_LIMIT_BYTES: int(1_024, 10 * 1024 * 1024).default(64 * 1024),
  /** Query strings above this many bytes are refused with 400. */
  QUERY_LIMIT_BYTES: int(256, 64 * 1024).default(4 * 1024),
  /** Total request-header bytes (Node's maxHeaderSize); above it Node answers 431. */
  HEADER_LIMIT_BYTES: int(1_024, 64 * 1024).default(16 * 1024),
  /** Most headers read per request (Node's maxHeadersCount). */
  HEADER_COUNT_LIMIT: int(10, 1_000).default(100),
  /** How long a client may take to send the request headers; past it: 408 and the connection closed. */
  HEADERS_TIMEOUT_MS: int(500, 29_000).default(10_000),
  /**
   * How long an idle keep-alive connection is kept open. Longer than a client's or load
   * balancer's own idle timeout (60 s is common), so the server is never the side that closes a
   * connection a client is just reusing (the client then sees ECONNRESET; Node's default is 5 s).
   */
  KEEP_ALIVE_TIMEOUT_MS: int(1_000, 600_000).default(65_000),
  /**
   * Failed authentications (401s) allowed per client address (an IPv6 /64) in any
   * AUTH_FAILURE_WINDOW_MS; past it the address gets 429 with Retry-After before its key is
   * checked, valid or not. 0 turns the throttle off.
   */
  AUTH_FAILURE_LIMIT: int(0, 1_000_000).default(20),
  AUTH_FAILURE_WINDOW_MS: int(1_000, 3_600_000).default(60_000),
  /** Most client addresses whose failures are tracked at once (least recently failed evicted): bounds memory under a flood from many addresses. */
  AUTH_FAILURE_ADDRESSES: int(100, 10_000_000).default(10_000),
  /** How long SIGTERM waits for in-flight requests before closing sockets. */
  SHUTDOWN_TIMEOUT_MS: int(0, 120_000).default(10_000),
  /** Unix socket for account administration while the server holds the ledger lock. */
  ADMIN_SOCKET: z.string().min(1).optional(),
  /** postgres://… : the ledger and rate limiter in PostgreSQL, shared by every replica; unset: the file ledger in DATA_DIR. */
  LEDGER_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  /**
   * 1: keep each build's DuckDB store open after its warm-up (ad hoc diagnosis; about 530 MB
   * more per process at 1M addresses). 0, the default: released once every resource is built
   * from it (ADR 0015), reopened on demand by a resource opened later.
   */
  KEEP_STORE_OPEN: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
  /**
   * Megabytes each build's page cache may hold in each process: the pages of the serving files
   * read where they lie (lib/files/block-file.ts, ADR 0015); the operating system's page cache
   * holds the files themselves once for every worker.
   */
  PAGE_CACHE_MB: int(1, 65536).default(64),
  /** Worker processes sharing PORT (node's cluster); more than 1 needs LEDGER_URL. */
  WORKERS: int(1, 64).default(1),
});

export type Config = z.infer<typeof ConfigSchema>;

/** Config with the cross-field rule applied: one file ledger cannot be shared by workers. */
export const CheckedConfigSchema = ConfigSchema.refine((c) => c.WORKERS === 1 || c.LEDGER_URL !== undefined, {
  path: ['WORKERS'],
  message: 'more than one worker needs a shared ledger: set LEDGER_URL=postgres://…',
});
