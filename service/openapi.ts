/**
 * The OpenAPI 3.1 document, generated from the route registry and its zod schemas:
 * every endpoint with its parameters, body, 200 response, every error response
 * (problem+json), its credit cost (`x-credits-cost`) and the bearer security scheme.
 *
 *   npx tsx service/openapi.ts --write   regenerates the committed docs/openapi.json
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DOC_EXAMPLE, exampleRequest } from '../schemas/api/examples.ts';
import { ERROR_CODES, ProblemSchema, problemType, type ErrorCode } from '../schemas/api/problem.ts';
import { toJsonSchema, type Json } from './json-schema.ts';
import { V1_PREFIX, V1_ROUTES } from './routes/v1/index.ts';
import type { RouteDef } from './routes/types.ts';

export const OPENAPI_PATH = resolve(import.meta.dirname, '../docs/openapi.json');

/** zod → JSON Schema 2020-12, named schemas hoisted into components.schemas. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', components: Json): Json {
  const text = JSON.stringify(toJsonSchema(schema, io)).replaceAll('"#/$defs/', '"#/components/schemas/');
  const { $defs, ...rest } = JSON.parse(text) as Json & { $defs?: Json };
  if ($defs) Object.assign(components, $defs);
  return rest;
}

const ERROR_TEXT: Record<ErrorCode, string> = {
  invalid_request: 'Invalid parameters or body; `errors` lists every bad field. No credits charged.',
  unauthorized: 'Missing, malformed, unknown or revoked API key.',
  credits_exhausted: 'The call costs more credits than remain. Upgrade (credits are available at once), or wait for the cycle to renew; the Free tier\'s one-time allowance never renews.',
  not_found: 'Unknown UPRN, or no data for the location.',
  not_covered: 'The place lies outside what the endpoint\'s source covers (Scottish sale prices are not open data; GIAS covers England); the detail names the source and why. No credits charged.',
  method_not_allowed: 'Wrong method for this path; see the Allow header.',
  request_timeout: 'The request headers or body did not arrive in time; the connection is closed.',
  payload_too_large: 'The JSON body exceeds the size limit.',
  uri_too_long: 'The query string, or the whole request line, exceeds its size limit.',
  unsupported_media_type: 'The body is not sent as uncompressed UTF-8 application/json.',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still running; see Retry-After, then retry to get its answer. No credits charged.',
  idempotency_key_mismatch: 'This Idempotency-Key was already used with a different request (method, path, query or body). No credits charged.',
  request_header_fields_too_large: 'The request headers exceed the size limit.',
  rate_limited: 'Rate limit reached; see Retry-After. No credits charged.',
  internal: 'Unexpected server error; quote the request id.',
  data_unavailable: 'No published data build is loaded. No credits charged.',
  ledger_unavailable: 'The credit ledger cannot record the call (disk full, read-only or failing storage; with the shared PostgreSQL ledger, the database cannot be reached), so it is not served; see Retry-After. No credits charged.',
  rate_limit_unavailable: 'The shared rate limiter cannot be reached; the call is refused rather than let through unlimited. See Retry-After. No credits charged.',
};

/** The error responses an operation can give. */
export function errorCodesOf(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ['invalid_request', 'unauthorized', 'uri_too_long'];
  if (route.cost > 0) codes.push('credits_exhausted', 'idempotency_key_mismatch', 'idempotency_key_in_use');
  if (route.mayNotFind) codes.push('not_found');
  if (route.mayNotCover) codes.push('not_covered');
  if (route.body) codes.push('payload_too_large', 'unsupported_media_type');
  codes.push('rate_limited', 'internal');
  if (route.needsBuild) codes.push('data_unavailable');
  // Metered calls when the ledger cannot record; any call when a shared ledger cannot authenticate.
  codes.push('ledger_unavailable', 'rate_limit_unavailable');
  return codes;
}

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });
/** Headers of every metered response, declared once in components.headers. */
const METERED_HEADERS: Record<string, Json> = {
  'X-Request-Id': header('The server\'s own id of this request (a UUID, unique), also in the body of errors, the logs and the request\'s ledger debit.'),
  'X-Client-Request-Id': header('Your own `X-Request-Id`, echoed when you sent a plain one (8-64 of `A-Z a-z 0-9 . _ -`); kept beside the server\'s id, never in its place.'),
  'Cache-Control': header('`no-store`: answers to authenticated calls are never cached.'),
  'X-Credits-Cost': header('Credits charged by this call (0 unless the response is 2xx).', { type: 'integer' }),
  'X-Credits-Remaining': header('Credits left this cycle after this call, or `unlimited`.'),
  'RateLimit-Policy': header('draft-ietf-httpapi-ratelimit-headers: `"default";q=<limit>;w=<window seconds>`.'),
  RateLimit: header('draft-ietf-httpapi-ratelimit-headers: `"default";r=<remaining>;t=<seconds>`.'),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer' }),
  'Idempotent-Replayed': header('`true` when this is the kept answer to an earlier request with the same Idempotency-Key (then `X-Credits-Cost` is 0).'),
  'X-Build-Id': header('The published data build that answered (see `/v1/status`); the same build and inputs give the same answer.'),
};
const headerRefs = (names: string[]) => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const METERED = ['X-Request-Id', 'X-Client-Request-Id', 'Cache-Control', 'X-Credits-Cost', 'X-Credits-Remaining', 'RateLimit-Policy', 'RateLimit'];

/** A plausible detail per code for the documented example (the real ones name the case). */
const EXAMPLE_DETAIL: Record<ErrorCode, string> = {
  invalid_request: '1 invalid field; see errors.',
  unauthorized: 'The API key is malformed, unknown or revoked.',
  credits_exhausted: 'This call costs 50 credits and 12 remain this cycle. Upgrade (the new allowance is available at once), or wait for the cycle to renew.',
  not_found: 'No property with UPRN 1.',
  not_covered: 'EH9 is outside the data\'s coverage: Scottish sale prices are not open data (Registers of Scotland does not publish them under an open licence; HM Land Registry Price Paid covers England and Wales only).',
  method_not_allowed: 'DELETE is not allowed here; use GET.',
  request_timeout: 'The request did not arrive in time.',
  payload_too_large: 'The request body exceeds 65536 bytes.',
  uri_too_long: 'The query string exceeds 4096 bytes.',
  unsupported_media_type: 'Send the request body as JSON with "Content-Type: application/json".',
  idempotency_key_in_use: 'A request with this Idempotency-Key is still running. Retry after it ends to get its answer.',
  idempotency_key_mismatch: 'This Idempotency-Key was used with a different request (method, path, query or body). Use a new key for a new request.',
  request_header_fields_too_large: 'The request headers exceed the size limit.',
  rate_limited: 'Rate limit of 6 requests per 10 seconds reached; retry after 3 s.',
  internal: 'The server could not complete the request. Quote the request id when reporting it.',
  data_unavailable: 'No published data build is loaded yet.',
  ledger_unavailable: 'This call cannot be metered right now (the credit ledger cannot record it), so it was not served and nothing was charged. Retry shortly.',
  rate_limit_unavailable: 'The rate limiter cannot be reached, so this call was not served and nothing was charged. Retry shortly.',
};

/** The documented example of a problem: the body the server sends for `code`. */
function problemExample(code: ErrorCode): Json {
  const { status, title } = ERROR_CODES[code];
  return {
    type: problemType(code),
    title,
    status,
    detail: EXAMPLE_DETAIL[code],
    code,
    request_id: '01JF3Q8Z6Y2W9X4V7T5R3P1N0M',
    ...(code === 'invalid_request' ? { errors: [{ path: 'query.limit', message: 'Too small: expected number to be >=1' }] } : {}),
  };
}

/** One reusable response per error code, in components.responses. */
function errorResponses(): Json {
  return Object.fromEntries(
    (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [
      code,
      {
        description: ERROR_TEXT[code],
        headers: headerRefs(code === 'rate_limited' || code === 'idempotency_key_in_use' || code === 'data_unavailable' || code === 'ledger_unavailable' || code === 'rate_limit_unavailable' ? [...METERED, 'Retry-After'] : code === 'unauthorized' ? ['X-Request-Id', 'X-Client-Request-Id', 'Cache-Control'] : METERED),
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(code) } },
      },
    ]),
  );
}

/**
 * The values of the operation's one example request (schemas/api/examples.ts), by parameter:
 * its path parameters read off the template, its query as sent.
 */
function exampleValues(route: RouteDef): { path: Map<string, string>; query: URLSearchParams; body?: object } {
  const ex = exampleRequest(route.path, DOC_EXAMPLE);
  const [pathPart = '', queryPart = ''] = ex.path.split('?');
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${route.path.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const found = pattern.exec(pathPart)?.slice(1) ?? [];
  return { path: new Map(names.map((n, i) => [n, decodeURIComponent(found[i] ?? '')])), query: new URLSearchParams(queryPart), ...(ex.body ? { body: ex.body } : {}) };
}

/** A parameter's example in its schema's type (an array parameter's items split at commas). */
function typedExample(schema: Json, value: string): unknown {
  if (schema.type === 'number' || schema.type === 'integer') return Number(value);
  if (schema.type === 'array') return value.split(',');
  return value;
}

function operation(route: RouteDef, components: Json): Json {
  const parameters: Json[] = [];
  const example = exampleValues(route);
  const addParams = (where: 'path' | 'query', schema: z.ZodType | undefined) => {
    if (!schema) return;
    const js = jsonSchema(schema, 'input', components) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, s] of Object.entries(js.properties ?? {})) {
      // Only the example request's parameters carry an example, so "Try it out" prefills one
      // location form, never several at once (a 400: "give the location in exactly one way").
      const { description, example: _shared, ...rest } = s;
      const value = where === 'path' ? example.path.get(name) : example.query.get(name);
      if (value !== undefined && value !== null) rest.example = typedExample(rest, value);
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        ...(description ? { description } : {}),
        ...(rest.type === 'array' ? { style: 'form', explode: true } : {}),
        schema: rest,
      });
    }
  };
  addParams('path', route.params);
  addParams('query', route.query);
  if (route.cost > 0) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any unique string (1–255 printable ASCII characters, e.g. a UUID). A retry with the same key and the same request within 24 h gets the first 2xx answer again (`Idempotent-Replayed: true`) and is not charged again; the same key with another request is a 422; while the first request runs, a 409 with Retry-After. Non-2xx answers are not kept.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }

  const responses: Json = {
    '200': {
      description: 'Success',
      headers: headerRefs([...METERED, ...(route.needsBuild ? ['X-Build-Id'] : []), ...(route.cost > 0 ? ['Idempotent-Replayed'] : [])]),
      content: { 'application/json': { schema: jsonSchema(route.response, 'output', components) } },
    },
  };
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of errorCodesOf(route)) {
    const status = String(ERROR_CODES[code].status);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of byStatus) {
    // One response per status: two codes sharing a status (the 503s, the 404s) are described together.
    responses[status] = codes.length === 1
      ? { $ref: `#/components/responses/${codes[0]}` }
      : {
          description: codes.map((c) => `\`${c}\`: ${ERROR_TEXT[c]}`).join(' '),
          headers: headerRefs([...METERED, 'Retry-After']),
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' }, example: problemExample(codes[0]!) } },
        };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description ? `${route.description}\n\n` : ''}Cost: ${route.cost === 0 ? 'free' : `${route.cost} credit${route.cost === 1 ? '' : 's'}`}.`,
    tags: [route.tag],
    'x-credits-cost': route.cost,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input', components), ...(example.body ? { example: example.body } : {}) } } } } : {}),
    responses,
  };
}

export function buildOpenApi(routes: readonly RouteDef[] = V1_ROUTES): Json {
  const components: Json = {};
  jsonSchema(ProblemSchema, 'output', components);
  const paths: Record<string, Json> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r, components);
  return {
    // No jsonSchemaDialect: OpenAPI 3.1's default dialect is already JSON Schema 2020-12 (with
    // its OAS vocabulary), and swagger-ui shows a red banner for any explicit value.
    openapi: '3.1.0',
    info: {
      title: 'Property Intelligence API',
      version: '1.1',
      description:
        'Credit-metered REST API over UK property data. Every operation states its credit cost in `x-credits-cost`; credits are charged only on 2xx responses. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: V1_PREFIX }],
    security: [{ bearerAuth: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'Your API key: `Authorization: Bearer pi_live_…`.' } },
      schemas: components,
      responses: errorResponses(),
      headers: METERED_HEADERS,
    },
  };
}

/** The document as committed: stable key order, two-space indent, final newline. */
export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename) && process.argv.includes('--write')) {
  writeFileSync(OPENAPI_PATH, renderOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
