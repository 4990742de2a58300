import type { ParameterizedContext } from 'koa';
import type { Metrics } from '../metrics.ts';
import { redactKeys } from './redact.ts';
import type { ApiState } from './state.ts';

/**
 * One log line and the request metrics per request. Sits outside the error handler so
 * it sees the final status. Logs the route template and account id, never the key (nor
 * anything key-like in the path: redact.ts). The request ids are on the child logger.
 */
export function accessLog(metrics: Metrics) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = ctx.state.routeId ?? 'unmatched';
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      metrics.latency.observe({ method: ctx.method, route }, seconds);
      ctx.state.log?.info(
        { method: ctx.method, route, path: redactKeys(ctx.path), status: ctx.status, ms: Math.round(seconds * 1e4) / 10, account_id: ctx.state.principal?.account_id },
        'request',
      );
    }
  };
}
