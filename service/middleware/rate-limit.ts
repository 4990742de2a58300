import type { ParameterizedContext } from 'koa';
import { SlidingWindowLimiter } from '../domain/rate-window.ts';
import type { Metrics } from '../metrics.ts';
import { ApiError } from './errors.ts';
import { rateLimitHeaders } from './headers.ts';
import type { ApiState } from './state.ts';

/**
 * Per-key sliding window at the account's tier limit, before any credit is touched:
 * a 429 costs nothing. Runs after auth, so ctx.state.principal and account are set.
 */
export function rateLimit(limiter: SlidingWindowLimiter, metrics: Metrics) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const { principal, account } = ctx.state;
    if (!principal || !account) throw new Error('rateLimit runs after authenticate');
    const d = limiter.hit(principal.key_id, account.rate_limit, ctx.state.now.getTime());
    const headers = rateLimitHeaders(d);
    for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
    if (!d.allowed) {
      metrics.rateLimited.inc({ route: ctx.state.routeId });
      const per = d.windowMs === 1000 ? 'second' : `${d.windowMs / 1000} seconds`;
      throw new ApiError('rate_limited', `Rate limit of ${d.limit} requests per ${per} reached; retry after ${headers['Retry-After']} s.`, undefined, headers);
    }
    await next();
  };
}
