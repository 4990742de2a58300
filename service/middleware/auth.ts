import type { ParameterizedContext } from 'koa';
import { addressKey, type AuthFailureTable } from '../domain/auth-failures.ts';
import type { Ledger } from '../ledger/types.ts';
import type { Metrics } from '../metrics.ts';
import { ApiError } from './errors.ts';
import { remainingHeader } from './headers.ts';
import type { ApiState } from './state.ts';

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,200})$/;

/**
 * Resolves `Authorization: Bearer <key>` to an active account. Missing, malformed,
 * unknown and revoked keys, and closed accounts, all get the same 401 detail so the
 * response says nothing about which keys exist.
 *
 * Every 401 counts against the client's address (`failures`); an address over its bound
 * gets 429 before its key is looked at, whatever the key: at most AUTH_FAILURE_LIMIT guesses
 * per address per window. A valid key from that address is refused too until the window passes
 * (the key is not checked: checking it is the work being saved); valid keys from other
 * addresses never touch the table.
 */
export function authenticate(ledger: Ledger, failures: AuthFailureTable, metrics: Metrics) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    // Every answer to an authenticated route may carry account data: never cached.
    ctx.set('Cache-Control', 'no-store');
    const address = addressKey(ctx.socket.remoteAddress ?? '');
    const now = ctx.state.now.getTime();
    const waitMs = failures.retryAfterMs(address, now);
    if (waitMs > 0) {
      metrics.authThrottled.inc();
      const s = Math.max(1, Math.ceil(waitMs / 1000));
      throw new ApiError('rate_limited', `Too many failed authentications from your address; retry after ${s} s.`, undefined, { 'Retry-After': String(s) });
    }
    const unauthorized = (detail: string) => {
      failures.fail(address, now);
      return new ApiError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
    };
    const values = ctx.req.headersDistinct.authorization ?? [];
    // Node keeps the first of two Authorization headers; which one was meant is unknowable.
    if (values.length > 1) throw new ApiError('invalid_request', 'Send one Authorization header, not several.', [{ path: 'headers.authorization', message: `given ${values.length} times; send it once` }]);
    const header = ctx.get('authorization');
    if (header === '') throw unauthorized('Send your API key as "Authorization: Bearer <key>".');
    const m = BEARER.exec(header);
    const found = m ? await ledger.authenticateAccount(m[1]!, ctx.state.now) : undefined;
    const { principal, account } = found ?? {};
    if (!principal || !account || account.status !== 'active') throw unauthorized('The API key is malformed, unknown or revoked.');
    ctx.state.principal = principal;
    ctx.state.account = account;
    // Every metered response carries the credit headers, also when refused before charging.
    ctx.set('X-Credits-Cost', '0');
    ctx.set('X-Credits-Remaining', remainingHeader(account.remaining));
    await next();
  };
}
