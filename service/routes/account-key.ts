/**
 * POST /v1/account/key/rotate: the signed-in account gets a new key, shown once in this
 * answer, and every key it had is revoked at once (the accounts CLI's rotate-key, for a
 * customer without shell access: the console uses it). Free, but authenticated and rate
 * limited like any call; not one of the 28 metered endpoints, so not in their registry.
 */
import type { Ledger } from '../ledger/types.ts';
import type { RateLimiter } from '../ledger/rate-limiter.ts';
import type { Metrics } from '../metrics.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { ApiError } from '../middleware/errors.ts';
import { rateLimitHeaders } from '../middleware/headers.ts';
import type { Middleware, Router } from '../middleware/router.ts';
import { V1_PREFIX } from './v1/index.ts';

export const ROTATE_KEY_PATH = `${V1_PREFIX}/account/key/rotate`;
/**
 * The per-key window alone would not bound rotation (each new key starts a window of its own),
 * so rotations are also counted per account.
 */
export const ROTATIONS_PER_ACCOUNT = { limit: 5, windowMs: 3_600_000 };

export function addAccountKeyRoute(router: Router, deps: { ledger: Ledger; limiter: RateLimiter; metrics: Metrics; authenticate: Middleware }): void {
  router.add('POST', ROTATE_KEY_PATH, deps.authenticate, rateLimit(deps.limiter, deps.metrics), async (ctx) => {
    const accountId = ctx.state.principal!.account_id;
    const d = await deps.limiter.hit(`rotate:${accountId}`, ROTATIONS_PER_ACCOUNT, ctx.state.now.getTime());
    if (!d.allowed) {
      const headers = rateLimitHeaders(d);
      throw new ApiError('rate_limited', `An account may rotate its key ${ROTATIONS_PER_ACCOUNT.limit} times an hour; retry after ${headers['Retry-After']} s.`, undefined, headers);
    }
    const { api_key } = await deps.ledger.rotateKey(accountId, ctx.state.now);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 200;
    ctx.body = { account_id: accountId, api_key, note: 'Shown once: store it now. Every earlier key of this account was revoked.' };
  });
}
