import type { ParameterizedContext } from 'koa';
import { RateLimiterUnavailableError, type RateLimiter } from '../ledger/rate-limiter.ts';
import type { Metrics } from '../metrics.ts';
import { ApiError } from './errors.ts';
import { rateLimitHeaders } from './headers.ts';
import type { ApiState } from './state.ts';

/**
 * Per-key sliding window at the account's tier limit, before any credit is touched:
 * a 429 costs nothing. An accepted request's record (file ledger) is durable before its answer
 * is sent, whatever the answer. Runs after auth, so ctx.state.principal and account are set. A shared
 * limiter that cannot be reached fails closed: 503, the request is not served.
 */
export function rateLimit(limiter: RateLimiter, metrics: Metrics) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const { principal, account } = ctx.state;
    if (!principal || !account) throw new Error('rateLimit runs after authenticate');
    let d;
    try {
      d = await limiter.hit(principal.key_id, account.rate_limit, ctx.state.now.getTime(), principal.account_id);
    } catch (err) {
      if (!(err instanceof RateLimiterUnavailableError)) throw err;
      ctx.state.log.error({ err: err.cause }, 'rate limiter unreachable: request refused');
      throw new ApiError('rate_limit_unavailable', 'The rate limiter cannot be reached, so this call was not served and nothing was charged. Retry shortly.', undefined, {
        'Retry-After': '5',
      });
    }
    const headers = rateLimitHeaders(d);
    for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
    if (!d.allowed) {
      metrics.rateLimited.inc({ route: ctx.state.routeId });
      const per = d.windowMs === 1000 ? 'second' : `${d.windowMs / 1000} seconds`;
      throw new ApiError('rate_limited', `Rate limit of ${d.limit} requests per ${per} reached; retry after ${headers['Retry-After']} s.`, undefined, headers);
    }
    try {
      await next();
    } finally {
      // The accepted request is on record before its answer leaves (a restart counts it).
      await d.durable;
    }
  };
}
