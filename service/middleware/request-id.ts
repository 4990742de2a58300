import { randomUUID } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import type { Logger } from '../log.ts';
import type { ApiState } from './state.ts';

/** A caller's own id is kept when it is short and plain; otherwise a fresh UUID. */
const SAFE_ID = /^[A-Za-z0-9._-]{8,64}$/;

export function requestId(logger: Logger, clock: () => Date) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const given = ctx.get('x-request-id');
    const id = SAFE_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ request_id: id });
    ctx.state.routeId = 'unmatched';
    ctx.state.now = clock();
    ctx.set('X-Request-Id', id);
    await next();
  };
}
