/**
 * A concrete request (`GET /v1/properties/123/sales?fields=uprn`, as test/support/endpoint-requests.ts
 * makes them and the demo prints them) sent through the typed client (clients/typescript): the path is
 * matched to its route's template in V1_ROUTES and to that operation in docs/openapi.json, split into
 * path and query parameters of the types the document declares, and sent with the client's GET/POST
 * on the template, so what reaches the server is the client's serialisation of them.
 *
 * It throws, before sending anything, when the path matches no documented route, or carries a query
 * parameter (or a body) the document does not declare for the operation: the tests that send their
 * requests through it fail when the document, the server and the client drift apart.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Problem, PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { V1_PREFIX, V1_ROUTES } from '../../service/routes/v1/index.ts';

/** What openapi-fetch answers: the 2xx body in `data`, the problem+json body of any other status in `error`. */
export interface ClientReply {
  data?: unknown;
  error?: Problem;
  response: Response;
}

type Value = string | number | boolean;
type Params = Record<string, Value | Value[]>;
interface DocSchema { type?: string; items?: DocSchema }
interface DocParameter { name: string; in: string; schema?: DocSchema }
interface DocOperation { parameters?: DocParameter[]; requestBody?: { required?: boolean } }

const DOC = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, DocOperation> & { parameters?: DocParameter[] }>;
};

/** Each route's template as a pattern over the path after /v1 (`{uprn}` matches one segment). */
const TEMPLATES = V1_ROUTES.map((route) => ({
  route,
  names: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}$`),
}));

/** A parameter's text as the document types it (what a typed caller would hand the client). */
function typed(text: string, schema: DocSchema | undefined, what: string): Value {
  switch (schema?.type) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n) || (schema.type === 'integer' && !Number.isInteger(n))) {
        throw new Error(`${what}=${JSON.stringify(text)} is not the ${schema.type} the document declares`);
      }
      return n;
    }
    case 'boolean':
      if (text !== 'true' && text !== 'false') throw new Error(`${what}=${JSON.stringify(text)} is not the boolean the document declares`);
      return text === 'true';
    default:
      return text;
  }
}

/** A concrete request as the typed values of its documented parameters: what a typed caller (the client, an MCP tool) is given. */
export interface TypedRequest {
  route: (typeof V1_ROUTES)[number];
  path: Params;
  query: Params;
}

/**
 * `method path` (a path under /v1, with its query) matched to its route and split into the path and
 * query parameters docs/openapi.json declares, each of its declared type. Throws when the request is
 * not one the document describes.
 */
export function typedRequest(method: 'GET' | 'POST', path: string, body?: unknown): TypedRequest {
  const url = new URL(path, 'http://client-call.invalid');
  const rest = url.pathname.startsWith(`${V1_PREFIX}/`) ? url.pathname.slice(V1_PREFIX.length) : undefined;
  const match = rest === undefined ? undefined : TEMPLATES.find((t) => t.route.method === method && t.pattern.test(rest));
  const op = match && DOC.paths[match.route.path]?.[method.toLowerCase()];
  if (!match || !op) throw new Error(`${method} ${url.pathname} matches no documented route (V1_ROUTES and docs/openapi.json)`);
  const { route, names, pattern } = match;
  const where = `${method} ${route.path}`;
  const declared = new Map([...(DOC.paths[route.path]!.parameters ?? []), ...(op.parameters ?? [])].map((p) => [`${p.in}:${p.name}`, p]));

  const pathParams: Params = {};
  const segments = pattern.exec(rest!)!.slice(1);
  names.forEach((name, i) => {
    const p = declared.get(`path:${name}`);
    if (!p) throw new Error(`path parameter ${name} is not in docs/openapi.json for ${where}`);
    pathParams[name] = typed(decodeURIComponent(segments[i]!), p.schema, name);
  });

  const query: Params = {};
  for (const name of new Set(url.searchParams.keys())) {
    const p = declared.get(`query:${name}`);
    if (!p) throw new Error(`query parameter ${name} is not in docs/openapi.json for ${where}`);
    const values = url.searchParams.getAll(name);
    if (p.schema?.type === 'array') {
      query[name] = values.map((v) => typed(v, p.schema!.items, name));
    } else if (values.length > 1) {
      // The typed client cannot send a scalar parameter twice; such requests (a deliberate 400) stay on raw paths.
      throw new Error(`query parameter ${name} is repeated in ${path}, but is not an array in docs/openapi.json for ${where}`);
    } else {
      query[name] = typed(values[0]!, p.schema, name);
    }
  }

  if (body !== undefined && !op.requestBody) throw new Error(`${where} takes no request body in docs/openapi.json`);
  if (body === undefined && op.requestBody?.required) throw new Error(`${where} requires a request body in docs/openapi.json`);
  return { route, path: pathParams, query };
}

/**
 * Sends `method path` (a path under /v1, with its query; `body` the JSON value of a POST) with the
 * typed client `api`. Throws synchronously when the request is not one the document describes.
 */
export function clientCall(api: PropertyIntelligenceClient, method: 'GET' | 'POST', path: string, body?: unknown): Promise<ClientReply> {
  const { route, path: pathParams, query } = typedRequest(method, path, body);
  // The one cast: openapi-fetch types GET/POST per literal path template (each its own parameter
  // and body types), and the template here is only known at run time. It was checked above to be
  // a route of V1_ROUTES and an operation of docs/openapi.json (which schema.d.ts is generated from;
  // `make client-check` fails when they differ), and every parameter checked against the document.
  const send = (method === 'GET' ? api.GET : api.POST) as (
    template: string,
    init: { params: { path: Params; query: Params }; body?: unknown },
  ) => Promise<ClientReply>;
  return send(route.path, { params: { path: pathParams, query }, ...(body !== undefined ? { body } : {}) });
}
