import type { z } from 'zod';
import type { BuildInfo } from '../build/source.ts';
import type { BuildResources } from '../build/resources.ts';
import type { AccountView, KeyPrincipal, Ledger } from '../ledger/types.ts';

/** The parsed value of an optional request schema (undefined when the route declares none). */
type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: validated, parsed input, the caller's account and, for data routes, the build. */
export interface HandlerInput<P, Q, B, N extends boolean = boolean> {
  params: P;
  query: Q;
  body: B;
  principal: KeyPrincipal;
  account: AccountView;
  now: Date;
  ledger: Ledger;
  requestId: string;
  /** Sets a response header on the 2xx answer (e.g. to say a parameter was capped). */
  setHeader(name: string, value: string): void;
  /** Data routes: the resources of the build serving when the request started (one build per response). */
  data: N extends true ? BuildResources : undefined;
  /** Data routes: that build's id and manifest. */
  build: N extends true ? BuildInfo : undefined;
}

interface RouteMeta {
  method: 'GET' | 'POST';
  /** Relative to /v1, OpenAPI template syntax: `/properties/{uprn}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Credits charged on a 2xx response. */
  cost: number;
  /** Whether 404 not_found is a documented outcome. */
  mayNotFind?: boolean;
  /** Whether 404 not_covered is (a place outside its sources' coverage: routes/coverage.ts). */
  mayNotCover?: boolean;
}

/** One endpoint as the app, the OpenAPI document and the cost table read it (types erased). */
export interface RouteDef extends RouteMeta {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The 200 body. */
  response: z.ZodType;
  /** A data endpoint: 503 data_unavailable until a published build is loaded; gets `data`. */
  needsBuild: boolean;
  handler(input: HandlerInput<any, any, any>): unknown;
}

/** A served endpoint: its schemas, its credit cost and its handler, in one place. */
export interface RouteSpec<PS, QS, BS, RS extends z.ZodType, N extends boolean> extends RouteMeta {
  params?: PS;
  query?: QS;
  body?: BS;
  response: RS;
  needsBuild: N;
  /** Returns the 200 body; its type is the response schema's (a mismatch does not compile). */
  handler(input: HandlerInput<Parsed<PS>, Parsed<QS>, Parsed<BS>, N>): z.output<RS> | Promise<z.output<RS>>;
}

export function defineRoute<
  PS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  BS extends z.ZodType | undefined = undefined,
  RS extends z.ZodType = z.ZodType,
  N extends boolean = boolean,
>(def: RouteSpec<PS, QS, BS, RS, N>): RouteDef {
  return def as unknown as RouteDef;
}
