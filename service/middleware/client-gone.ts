import type { ParameterizedContext } from 'koa';
import type { ApiState } from './state.ts';

/**
 * A client that has gone away (closed or reset its connection, or half-closed it, which
 * Node's HTTP server treats as an abort): nothing more can be written to it. Node destroys
 * the request and ends the socket the moment it sees the client's FIN or RST.
 */
export function clientGone(ctx: ParameterizedContext<ApiState>): boolean {
  const socket = ctx.req.socket;
  // A request whose body was read in full is destroyed by Node as a matter of course: only
  // an incomplete one says the client left.
  return ctx.res.destroyed || socket.destroyed || !socket.writable || (ctx.req.destroyed && !ctx.req.complete);
}

/** Thrown where a request is abandoned because its client has gone (middleware/credits.ts). */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  constructor(readonly during: string) {
    super(`the client closed the connection ${during}`);
  }
}

/** Errors a request stream raises when its client goes away mid-body. */
const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * True when `err` is the client going away, not a server fault: a ClientClosedError, or a
 * socket error raised while the client is indeed gone. Logged as a 499, never as a 500.
 */
export function isClientClosed(ctx: ParameterizedContext<ApiState>, err: unknown): boolean {
  if (err instanceof ClientClosedError) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ABORT_CODES.has(code) && clientGone(ctx);
}

/** The access log's and metrics' status for a client that left before its answer: nginx's 499. */
export const CLIENT_CLOSED_STATUS = 499;
