import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/**
 * Reads a JSON request body: application/json only (415), at most `limit` bytes (413,
 * checked on Content-Length first and again while streaming), well-formed (400).
 */
export async function readJsonBody(ctx: ParameterizedContext<ApiState>, limit: number): Promise<unknown> {
  if (!ctx.is('application/json')) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  const tooLarge = () => {
    // The rest of the body is not read: do not reuse the connection.
    ctx.set('Connection', 'close');
    return new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`);
  };
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', [{ path: 'body', message: 'malformed JSON' }]);
  }
}
