import type { z } from 'zod';
import type { AccountView, KeyPrincipal, Ledger } from '../ledger/types.ts';
import type { BuildInfo } from '../middleware/data.ts';

/** What a handler receives: validated, typed input and the caller's account. */
export interface HandlerInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: KeyPrincipal;
  account: AccountView;
  now: Date;
  /** Set for routes with `needsBuild` (they are only reached when a build is loaded). */
  build: BuildInfo | undefined;
  ledger: Ledger;
  requestId: string;
}

/** One endpoint under /v1: its schemas, its credit cost and its handler, in one place. */
export interface RouteDef<P = any, Q = any, B = any> {
  method: 'GET' | 'POST';
  /** Relative to /v1, OpenAPI template syntax: `/properties/{uprn}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Credits charged on a 2xx response. */
  cost: number;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The 200 body, where its shape is fixed. */
  response?: z.ZodType;
  /** A data endpoint: 503 data_unavailable until a published build is loaded. */
  needsBuild: boolean;
  /** Whether 404 not_found is a documented outcome. */
  mayNotFind?: boolean;
  handler(input: HandlerInput<P, Q, B>): unknown | Promise<unknown>;
}

export function defineRoute<P = undefined, Q = undefined, B = undefined>(def: RouteDef<P, Q, B>): RouteDef<P, Q, B> {
  return def;
}
