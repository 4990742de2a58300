import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/**
 * Refuses over-long query strings with 414 `uri_too_long` before any work is done (as an
 * overlong request line is refused by the parser). (Header size and
 * count are enforced by Node's HTTP parser: see server.ts.) On /v1 routes it runs after
 * auth and the rate limit, so this 400 carries the credit and rate-limit headers like any
 * other; `skip` names the paths left to that per-route check.
 */
export function queryLimit(maxBytes: number, skip: (path: string) => boolean = () => false) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    if (!skip(ctx.path) && Buffer.byteLength(ctx.querystring) > maxBytes) {
      throw new ApiError('uri_too_long', `The query string exceeds ${maxBytes} bytes.`);
    }
    await next();
  };
}
