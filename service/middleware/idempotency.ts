import { createHash } from 'node:crypto';
import type { ParameterizedContext } from 'koa';
import type { IdempotentAnswer, Ledger } from '../ledger/types.ts';
import { ApiError } from './errors.ts';
import type { ApiState } from './state.ts';

/** Printable ASCII, 1 to 255 characters, not blank (Stripe allows 255). */
const KEY = /^[\x20-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Seconds a client should wait before retrying a key still held by a running request. */
const IN_USE_RETRY_AFTER_S = 1;

/** Response headers that describe this delivery, not the answer: never kept, never replayed. */
const NOT_KEPT = new Set(['x-request-id', 'x-client-request-id', 'ratelimit', 'ratelimit-policy', 'retry-after', 'x-credits-cost', 'x-credits-remaining', 'content-length', 'connection', 'date', 'keep-alive']);

/**
 * The request as the API understood it: method, route, path, the query in canonical order
 * and encoding, and the validated body (so `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are one
 * request). Two requests with one key and different fingerprints are a 422.
 */
export function fingerprint(ctx: ParameterizedContext<ApiState>): string {
  const query = new URLSearchParams(ctx.querystring);
  query.sort();
  const body = ctx.state.input?.body;
  return createHash('sha256')
    .update(JSON.stringify([ctx.method, ctx.state.routeId, ctx.path, query.toString(), body === undefined ? null : canonicalJson(body)]))
    .digest('hex');
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The 2xx this request answered, as kept with its charge (credits.ts), its body as the bytes sent. */
export function answerOf(ctx: ParameterizedContext<ApiState>, fp: string): IdempotentAnswer {
  const b: unknown = ctx.body;
  const body = typeof b === 'string' ? b : Buffer.isBuffer(b) ? b.toString('utf8') : JSON.stringify(b ?? null);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.response.headers)) if (!NOT_KEPT.has(k) && v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return { fingerprint: fp, status: ctx.status, headers, body, created_at: ctx.state.now.toISOString() };
}

/**
 * Idempotency-Key on a metered route (docs/ledger.md "Idempotency keys"), after validation
 * (the fingerprint covers the validated body) and before the credit reserve: a retry of a
 * kept 2xx is answered from the ledger, free; the same key on another request is a 422; a
 * key held by a request still running is a 409 with Retry-After. A claimed key is kept with
 * the charge (credits.ts) or, if the request ends any other way, released here.
 */
export function idempotency(ledger: Ledger) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const { principal } = ctx.state;
    if (!principal) throw new Error('idempotency runs after authenticate');
    const key = headerKey(ctx);
    if (key === undefined) return void (await next());
    const fp = fingerprint(ctx);
    const claim = await ledger.claimIdempotency(principal.account_id, key, fp, ctx.state.now);
    switch (claim.kind) {
      case 'replay': {
        const { answer } = claim;
        for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
        ctx.set(REPLAYED_HEADER, 'true');
        ctx.set('X-Credits-Cost', '0');
        ctx.status = answer.status;
        ctx.body = answer.body;
        return;
      }
      case 'mismatch':
        throw new ApiError(
          'idempotency_key_mismatch',
          `This ${IDEMPOTENCY_KEY_HEADER} was used with a different request (method, path, query or body). Use a new key for a new request.`,
        );
      case 'in_flight':
        throw new ApiError('idempotency_key_in_use', `A request with this ${IDEMPOTENCY_KEY_HEADER} is still running. Retry after it ends to get its answer.`, undefined, {
          'Retry-After': String(IN_USE_RETRY_AFTER_S),
        });
    }
    ctx.state.idempotency = { key, fingerprint: fp, kept: false };
    try {
      await next();
    } finally {
      if (!ctx.state.idempotency.kept) await ledger.releaseIdempotency(principal.account_id, key);
    }
  };
}

/** The key, undefined when not sent; a malformed or repeated one is a 400. */
function headerKey(ctx: ParameterizedContext<ApiState>): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const bad = (message: string) => new ApiError('invalid_request', `The ${IDEMPOTENCY_KEY_HEADER} header is invalid: ${message}.`, [{ path: `header.${IDEMPOTENCY_KEY_HEADER}`, message }]);
  let sent = 0;
  for (let i = 0; i < ctx.req.rawHeaders.length; i += 2) if (ctx.req.rawHeaders[i]!.toLowerCase() === 'idempotency-key') sent++;
  if (sent > 1 || typeof raw !== 'string') throw bad('send it once');
  if (raw.trim() === '') throw bad('empty');
  if (raw.length > 255) throw bad('longer than 255 characters');
  if (!KEY.test(raw)) throw bad('only printable ASCII characters are allowed');
  return raw;
}
