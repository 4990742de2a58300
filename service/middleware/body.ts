import type { ParameterizedContext } from 'koa';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/** Refuses bytes that are not UTF-8 instead of replacing them (and keeps a leading BOM out of JSON.parse's way). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const bodyRequired = () =>
  new ApiError('invalid_request', 'A JSON request body is required: send a JSON object.', [{ path: 'body', message: 'required' }]);

/**
 * Reads a JSON request body: application/json only, uncompressed, UTF-8 (415 otherwise;
 * bytes that are not UTF-8: 400), present and non-blank (400),
 * at most `limit` bytes (413, checked on Content-Length first and again while streaming),
 * well-formed (400).
 */
export async function readJsonBody(ctx: ParameterizedContext<ApiState>, limit: number): Promise<unknown> {
  // ctx.is() answers null when there is no body at all, whatever the Content-Type: the
  // JSON type without a body is a missing body (400), not a wrong media type (415).
  if (ctx.request.type === 'application/json' && ctx.is('application/json') === null) throw bodyRequired();
  if (!ctx.is('application/json')) {
    throw new ApiError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  // The body is read as UTF-8 JSON (RFC 8259 §8.1) and nothing else: a compressed body or
  // another charset would be read as garbage rather than refused.
  const encoding = ctx.get('content-encoding').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') {
    throw new ApiError('unsupported_media_type', `Content-Encoding "${encoding.slice(0, 40)}" is not accepted: send the JSON body uncompressed.`);
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError('unsupported_media_type', `charset=${charset.slice(0, 40)} is not accepted: send the JSON body as UTF-8.`);
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
  let text: string;
  try {
    text = UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid UTF-8.', [{ path: 'body', message: 'not UTF-8' }]);
  }
  if (text.trim() === '') throw bodyRequired();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', [{ path: 'body', message: 'malformed JSON' }]);
  }
}
