import type { ParameterizedContext } from 'koa';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import type { AccountView, Ledger } from '../ledger/types.ts';
import type { Metrics } from '../metrics.ts';
import { PLANS } from '../../schemas/plans.ts';
import { ClientClosedError, clientGone } from './client-gone.ts';
import { ApiError, ledgerUnavailable } from './errors.ts';
import { answerOf } from './idempotency.ts';
import { remainingHeader } from './headers.ts';
import type { ApiState } from './state.ts';

/**
 * Reserve the route's cost before the handler, commit it (durably, before the body is
 * sent) on a 2xx, release it otherwise. Free routes (cost 0) skip the ledger, so they
 * keep working at the cap. A client gone before the commit is not charged (released, logged
 * as 499); with a claimed Idempotency-Key the answer is kept with the charge.
 */
export function credits(ledger: Ledger, metrics: Metrics, cost: number) {
  return async (ctx: ParameterizedContext<ApiState>, next: () => Promise<unknown>): Promise<void> => {
    const { principal } = ctx.state;
    if (!principal) throw new Error('credits runs after authenticate');
    if (cost === 0) {
      await next();
      return;
    }

    const r = await ledger.reserve(principal.account_id, cost, ctx.state.now);
    if (!r.ok) {
      if (r.reason === 'unknown_account') throw new ApiError('unauthorized', 'The API key is malformed, unknown or revoked.');
      if (r.reason === 'unavailable') throw ledgerUnavailable();
      ctx.set('X-Credits-Remaining', String(r.remaining));
      throw new ApiError('credits_exhausted', exhaustedDetail(cost, r.remaining, ctx.state.account?.tier));
    }
    const reservation = r.reservation;
    // After a charge or release the balance header is fresh; if the ledger cannot say, the
    // header keeps the value auth set.
    const remaining = async (after?: AccountView | void) => {
      try {
        ctx.set('X-Credits-Remaining', remainingHeader((after ?? (await ledger.account(principal.account_id, ctx.state.now)))?.remaining ?? null));
      } catch {}
    };
    try {
      await next();
    } catch (err) {
      await ledger.release(reservation);
      await remaining();
      throw err;
    }
    if (ctx.status < 200 || ctx.status >= 300) {
      await ledger.release(reservation);
      await remaining();
      return;
    }
    // Two turns of the event loop, so a close that has reached the machine (a client that
    // sent its request and hung up at once) is read before deciding: measured, this cut the
    // charges for answers nobody received from ~700 to ~290 in 1,000 (docs/ledger.md).
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    if (clientGone(ctx)) {
      // Nobody can receive the answer: no charge.
      await ledger.release(reservation);
      throw new ClientClosedError('before its charge');
    }
    const idem = ctx.state.idempotency;
    const answer = idem && answerOf(ctx, idem.fingerprint);
    if (answer) ctx.body = answer.body; // the bytes kept are the bytes sent
    let after: AccountView | void;
    try {
      const meta = { endpoint: ctx.state.routeId, request_id: ctx.state.requestId, ...(ctx.state.clientRequestId ? { client_request_id: ctx.state.clientRequestId } : {}), ...(idem ? { idempotency_key: idem.key } : {}) };
      after = await ledger.commit(reservation, meta, ctx.state.now, answer);
      if (idem) idem.kept = true;
    } catch (err) {
      // The charge is not durable, so the answer is not served: 503 (or 500 for anything
      // but a failed write). Release is idempotent: it returns the hold only if unsettled.
      await ledger.release(reservation);
      await remaining();
      if (!(err instanceof LedgerUnavailableError)) throw err;
      ctx.state.log.error({ err: err.cause }, 'ledger write failed: request refused');
      throw ledgerUnavailable();
    }
    metrics.creditsSpent.inc({ route: ctx.state.routeId }, cost);
    ctx.set('X-Credits-Cost', String(cost));
    // The window that remains: the client left while the charge was being made durable.
    // Charged (it cannot be undone), so said where support can see and refund it.
    if (clientGone(ctx)) {
      metrics.chargedClientGone.inc({ route: ctx.state.routeId });
      ctx.state.log.warn({ cost }, 'charged, but the client closed the connection while the charge was being made durable');
    }
    await remaining(after);
  };
}

/**
 * The free tier's allowance is granted once and never renews (schemas/plans.ts), so its 402
 * says so and points to the upgrade instead of to a renewal that will not come.
 */
function exhaustedDetail(cost: number, remaining: number, tier: keyof typeof PLANS | undefined): string {
  if (tier && PLANS[tier].oneTime) {
    return (
      `This call costs ${cost} credits and ${remaining} remain of the ${PLANS[tier].name} tier's one-time allowance of ${PLANS[tier].allowance} credits, which does not renew. ` +
      'Upgrade to a paid tier (Starter or above) to continue: the new allowance is available at once.'
    );
  }
  return `This call costs ${cost} credits and ${remaining} remain this cycle. Upgrade (the new allowance is available at once), or wait for the cycle to renew.`;
}
