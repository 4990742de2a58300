import { randomUUID } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import type { Logger } from '../log.ts';
import type { ApiState } from './state.ts';

/** A caller's own id is kept beside the server's when it is short and plain; otherwise dropped. */
const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * Every request gets the server's own id, a fresh UUID: unique, so logs, problem bodies and
 * ledger debits can be joined on it. A caller's `X-Request-Id` is never used in its place
 * (two callers, or one retrying, may send the same one); it is kept as `client_request_id` in
 * the log lines and the debit, and echoed as `X-Client-Request-Id`.
 */
export function requestId(logger: Logger, clock: () => Date) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const id = randomUUID();
    const given = ctx.get('x-request-id');
    const client = SAFE_ID.test(given) ? given : undefined;
    ctx.state.requestId = id;
    ctx.state.clientRequestId = client;
    ctx.state.log = logger.child({ request_id: id, ...(client ? { client_request_id: client } : {}) });
    ctx.state.routeId = 'unmatched';
    ctx.state.now = clock();
    ctx.set('X-Request-Id', id);
    if (client) ctx.set('X-Client-Request-Id', client);
    await next();
  };
}
