import type { ParameterizedContext } from 'koa';
import type { Ledger } from '../ledger/types.ts';
import { ApiError } from './errors.ts';
import { remainingHeader } from './headers.ts';
import type { ApiState } from './state.ts';

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,200})$/;

/**
 * Resolves `Authorization: Bearer <key>` to an active account. Missing, malformed,
 * unknown and revoked keys, and closed accounts, all get the same 401 detail so the
 * response says nothing about which keys exist.
 */
export function authenticate(ledger: Ledger) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const header = ctx.get('authorization');
    const unauthorized = (detail: string) => new ApiError('unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer realm="api"' });
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
