import type { BuildResources } from '../build/resources.ts';
import type { AccountView, KeyPrincipal, Reservation } from '../ledger/types.ts';
import type { Logger } from '../log.ts';

/** What the middleware chain learns about a request, in ctx.state. */
export interface ApiState {
  requestId: string;
  log: Logger;
  /** Route template for logs and metrics, e.g. "GET /v1/properties/{uprn}"; "unmatched" if none. */
  routeId: string;
  now: Date;
  principal?: KeyPrincipal;
  account?: AccountView;
  reservation?: Reservation;
  /** A claimed Idempotency-Key (middleware/idempotency.ts); `kept` once its answer is charged and kept. */
  idempotency?: { key: string; fingerprint: string; kept: boolean };
  input?: { params: unknown; query: unknown; body: unknown };
  /** Data routes: the serving build's resources when the request started (the whole request uses them). */
  data?: BuildResources;
}
