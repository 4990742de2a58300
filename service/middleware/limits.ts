import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/**
 * Refuses over-long query strings with 400 before any work is done. (Header size and
 * count are enforced by Node's HTTP parser: see server.ts.)
 */
export function queryLimit(maxBytes: number) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    if (Buffer.byteLength(ctx.querystring) > maxBytes) {
      throw new ApiError('invalid_request', `The query string exceeds ${maxBytes} bytes.`, [{ path: 'query', message: `longer than ${maxBytes} bytes` }]);
    }
    await next();
  };
}
