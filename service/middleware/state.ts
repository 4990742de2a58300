import type { BuildResources } from '../build/resources.ts';
import type { AccountView, KeyPrincipal, Reservation } from '../ledger/types.ts';
import type { Logger } from '../log.ts';

/** What the middleware chain learns about a request, in ctx.state. */
export interface ApiState {
  /** The server's own id for the request: a fresh UUID, unique. */
  requestId: string;
  /** The caller's `X-Request-Id`, when plain (8-64 of A-Z a-z 0-9 . _ -); kept beside the server's. */
  clientRequestId?: string;
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
