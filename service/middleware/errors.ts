import type { ParameterizedContext } from 'koa';
import { ERROR_CODES, problemType, type ErrorCode, type FieldError, type Problem } from '../../schemas/api/problem.ts';
import { BlockFileError } from '../../lib/files/block-file.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import { CLIENT_CLOSED_STATUS, isClientClosed } from './client-gone.ts';
import { redactKeys } from './redact.ts';
import type { ApiState } from './state.ts';

/** An error the API answers with on purpose: a code from DESIGN.md §3 and a safe detail. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(`${code}: ${detail}`);
  }
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** Seconds a client should wait after a 503 ledger_unavailable (the ledger retries every second). */
const LEDGER_RETRY_AFTER_S = 5;

export function ledgerUnavailable(): ApiError {
  return new ApiError(
    'ledger_unavailable',
    'This call cannot be metered right now (the credit ledger cannot record it), so it was not served and nothing was charged. Retry shortly.',
    undefined,
    { 'Retry-After': String(LEDGER_RETRY_AFTER_S) },
  );
}

/** The problem body; whatever in it came from the request has key-like text redacted. */
export function problemBody(code: ErrorCode, detail: string, requestId: string, errors?: FieldError[]): Problem {
  const { status, title } = ERROR_CODES[code];
  const safe = errors?.map((e) => ({ path: redactKeys(e.path), message: redactKeys(e.message) }));
  return { type: problemType(code), title, status, detail: redactKeys(detail), code, request_id: requestId, ...(safe ? { errors: safe } : {}) };
}

export function sendProblem(ctx: ParameterizedContext<ApiState>, err: ApiError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.status = err.status;
  ctx.type = 'application/problem+json';
  ctx.body = JSON.stringify(problemBody(err.code, err.detail, ctx.state.requestId, err.errors));
}

/**
 * Turns every thrown error into problem+json. ApiErrors carry their own code; anything
 * else is a bug or a failed dependency: a generic 500, the details only in the log.
 */
export async function errorHandler(ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> {
  try {
    await next();
  } catch (err) {
    if (isClientClosed(ctx, err)) {
      // Nobody to answer: not a server fault, so no 500, no stack; 499 in the log and metrics.
      ctx.status = CLIENT_CLOSED_STATUS;
      ctx.state.log.info({ code: (err as { code?: string }).code ?? 'client_closed', detail: (err as Error).message }, 'client closed the connection');
      return;
    }
    if (err instanceof ApiError) {
      sendProblem(ctx, err);
      // Expected outcomes: the code is enough; stacks are for real failures only.
      if (err.status >= 500) ctx.state.log.warn({ code: err.code, detail: err.detail }, 'request refused');
      return;
    }
    if (err instanceof LedgerUnavailableError) {
      // A shared ledger that cannot be reached while authenticating or reading a balance.
      ctx.state.log.error({ err: err.cause }, 'ledger unreachable: request refused');
      sendProblem(ctx, ledgerUnavailable());
      return;
    }
    if (err instanceof BlockFileError) {
      // A serving file read where it lies was cut short or is not what it claims (issue 46): the
      // build cannot answer this, but it is no bug of the request's; never a row from elsewhere.
      ctx.state.log.error({ err }, 'a serving file cannot be read: request refused');
      sendProblem(ctx, new ApiError('data_unavailable', 'The current data build cannot be read for this request; try again later.', undefined, { 'Retry-After': '60' }));
      return;
    }
    ctx.state.log.error({ err }, 'unhandled error');
    sendProblem(ctx, new ApiError('internal', 'The server could not complete the request. Quote the request id when reporting it.'));
  }
}
