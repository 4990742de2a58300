/**
 * Builds the Koa application (never listens: see server.ts). The chain, outermost first:
 * request id → access log and metrics → error handler (problem+json) → query limit (outside
 * /v1) → router; each /v1 route then runs auth (throttled per address after failures) → rate
 * limit → query limit → validation → Idempotency-Key (metered routes) → build check (data
 * endpoints) → credit reserve → handler → commit (with the kept answer) or release. `POST /mcp`
 * (service/mcp/) runs auth, then makes each tool call as one of those /v1 requests.
 */
import Koa from 'koa';
import type { Config } from '../schemas/config.ts';
import { inProcessLimiter, type RateLimiter } from './ledger/rate-limiter.ts';
import type { Ledger } from './ledger/types.ts';
import type { Logger } from './log.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { accessLog } from './middleware/access-log.ts';
import { AuthFailureTable } from './domain/auth-failures.ts';
import { authenticate } from './middleware/auth.ts';
import { credits } from './middleware/credits.ts';
import type { ServingBuild } from './build/warmer.ts';
import { requireBuild } from './middleware/data.ts';
import { errorHandler } from './middleware/errors.ts';
import { idempotency } from './middleware/idempotency.ts';
import { queryLimit } from './middleware/limits.ts';
import { rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { Router, type Ctx, type Middleware } from './middleware/router.ts';
import type { ApiState } from './middleware/state.ts';
import { validate } from './middleware/validate.ts';
import { addMcpRoute } from './mcp/http.ts';
import { renderOpenApi } from './openapi.ts';
import { addAccountKeyRoute } from './routes/account-key.ts';
import { addConsoleRoutes } from './routes/console.ts';
import { addOpsRoutes } from './routes/ops.ts';
import type { RouteDef } from './routes/types.ts';
import { V1_PREFIX, V1_ROUTES } from './routes/v1/index.ts';

export type Clock = () => Date;

export interface AppDeps {
  config: Pick<Config, 'BODY_LIMIT_BYTES' | 'QUERY_LIMIT_BYTES' | 'AUTH_FAILURE_LIMIT' | 'AUTH_FAILURE_WINDOW_MS' | 'AUTH_FAILURE_ADDRESSES'>;
  ledger: Ledger;
  /** Defaults to the in-process sliding window (one process); PostgreSQL's for replicas. */
  limiter?: RateLimiter;
  clock: Clock;
  /** The serving build and its resources (the build warmer: service/build/warmer.ts). */
  builds: ServingBuild;
  logger: Logger;
  /** Defaults to the 28 endpoints of the registry. */
  routes?: readonly RouteDef[];
}

export interface App {
  koa: Koa<ApiState>;
  metrics: Metrics;
}

/** Runs the handler with the validated input and the request's build; its return value is the 200 JSON body. */
function handle(route: RouteDef, deps: AppDeps): Middleware {
  return async (ctx: Ctx) => {
    const { input, principal, account, now, requestId: id, data } = ctx.state;
    if (!input || !principal || !account) throw new Error('handler reached without auth and validation');
    if (route.needsBuild && !data) throw new Error('data route reached without a build');
    const setHeader = (name: string, value: string) => void ctx.set(name, value);
    const body = await route.handler({ ...input, principal, account, now, data, build: data?.build, ledger: deps.ledger, requestId: id, setHeader });
    // Which data answered: with the same inputs, the same build gives the same answer.
    if (data) ctx.set('X-Build-Id', data.build.id);
    ctx.status = 200;
    ctx.body = body;
  };
}

export function buildApp(deps: AppDeps): App {
  const { config, ledger, clock, builds, logger } = deps;
  const metrics = createMetrics(() => builds.current()?.id, () => ledger.health(), () => builds.resources()?.storeOpen());
  const limiter = deps.limiter ?? inProcessLimiter();
  const router = new Router();
  const authFailures = new AuthFailureTable({ limit: config.AUTH_FAILURE_LIMIT, windowMs: config.AUTH_FAILURE_WINDOW_MS, capacity: config.AUTH_FAILURE_ADDRESSES });
  // One authentication (and one failure table) for /v1, /mcp and the key rotation alike.
  const auth = authenticate(ledger, authFailures, metrics);

  for (const route of deps.routes ?? V1_ROUTES) {
    const chain: Middleware[] = [
      auth,
      rateLimit(limiter, metrics),
      queryLimit(config.QUERY_LIMIT_BYTES),
      validate(route, config.BODY_LIMIT_BYTES),
    ];
    // Every metered route takes an Idempotency-Key; a replay needs no build.
    if (route.cost > 0) chain.push(idempotency(ledger));
    if (route.needsBuild) chain.push(requireBuild(builds));
    chain.push(credits(ledger, metrics, route.cost), handle(route, deps));
    router.addMetered(route.method, `${V1_PREFIX}${route.path}`, ...chain);
  }
  addOpsRoutes(router, { data: builds, openapi: renderOpenApi(), ledger });
  // MCP (service/mcp/): every tool call is made as its /v1 request above, metered there.
  addMcpRoute(router, auth, config.BODY_LIMIT_BYTES, deps.routes ?? V1_ROUTES);
  addAccountKeyRoute(router, { ledger, limiter, metrics, authenticate: auth });
  addConsoleRoutes(router);

  const koa = new Koa<ApiState>({ proxy: false });
  // Koa's own error printing is replaced by errorHandler + the structured log.
  koa.silent = true;
  koa.use(requestId(logger, clock));
  koa.use(accessLog(metrics));
  koa.use(errorHandler);
  koa.use(queryLimit(config.QUERY_LIMIT_BYTES, (path) => path.startsWith(`${V1_PREFIX}/`)));
  koa.use(router.middleware());
  return { koa, metrics };
}
