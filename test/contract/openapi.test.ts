/**
 * The OpenAPI document: generated from the zod schemas and the registry, committed as
 * docs/openapi.json, served at /v1/openapi.json. Fails when any of the three drift
 * (regenerate with `npx tsx service/openapi.ts --write`).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../schemas/api/problem.ts';
import { buildOpenApi, OPENAPI_PATH, renderOpenApi } from '../../service/openapi.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { call, startTestServer, type TestServer } from '../service/support.ts';

type Json = any;
const doc: Json = buildOpenApi();

/** Follow a local `#/a/b` reference. */
function resolveRef(ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce((node: Json, key) => node?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
}

function* refs(node: Json): Generator<string> {
  if (Array.isArray(node)) for (const n of node) yield* refs(n);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') yield v;
      else yield* refs(v);
    }
  }
}

/**
 * The error responses each operation must document, by this test's own rule (not the
 * generator's): every call can be malformed, unauthorised, rate limited or fail inside;
 * a metered call can find credits exhausted or the ledger unable to record it, and its
 * Idempotency-Key reused on another request (422) or held by a running one (409); a data
 * endpoint (all but the account's) can lack a build, and find nothing except search (an empty
 * list); a JSON body can be too large or not JSON.
 */
function expectedErrors(route: { operationId: string; method: string }): Record<string, string[]> {
  // Every /v1 call's query string is size-checked (414).
  const e: Record<string, string[]> = { '400': ['invalid_request'], '401': ['unauthorized'], '414': ['uri_too_long'], '429': ['rate_limited'], '500': ['internal'] };
  // The account endpoints read the ledger and pass the rate limiter like the rest, either of
  // which may be out of reach (the PostgreSQL ledger and shared limiter); they are free and
  // read no build.
  if (['getAccount', 'getAccountUsage'].includes(route.operationId)) return { ...e, '503': ['ledger_unavailable', 'rate_limit_unavailable'] };
  e['402'] = ['credits_exhausted'];
  e['409'] = ['idempotency_key_in_use'];
  e['422'] = ['idempotency_key_mismatch'];
  e['503'] = ['data_unavailable', 'ledger_unavailable', 'rate_limit_unavailable'];
  if (route.operationId !== 'searchAddresses') e['404'] = ['not_found'];
  if (route.method === 'POST') Object.assign(e, { '413': ['payload_too_large'], '415': ['unsupported_media_type'] });
  return e;
}

describe('OpenAPI document', () => {
  it('the committed docs/openapi.json is what the schemas generate', () => {
    expect(readFileSync(OPENAPI_PATH, 'utf8'), 'docs/openapi.json is stale: run npx tsx service/openapi.ts --write').toBe(renderOpenApi());
  });

  it('the document follows the registry: a changed cost or schema changes it', () => {
    const changed = V1_ROUTES.map((r) => (r.operationId === 'getStrMarket' ? { ...r, cost: 4 } : r));
    expect(JSON.stringify(buildOpenApi(changed))).not.toBe(JSON.stringify(doc));
    const noQuery = V1_ROUTES.map((r) => (r.operationId === 'searchAddresses' ? { ...r, query: undefined } : r));
    // Without a query schema, only the Idempotency-Key header every metered call takes.
    expect((buildOpenApi(noQuery) as Json).paths['/addresses/search'].get.parameters.map((p: Json) => p.name)).toEqual(['Idempotency-Key']);
  });

  it('every metered operation takes an optional Idempotency-Key header; free ones do not', () => {
    for (const route of V1_ROUTES) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      const header = (op.parameters ?? []).find((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
      if (route.cost > 0) expect(header, route.operationId).toMatchObject({ required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
      else expect(header, route.operationId).toBeUndefined();
    }
  });

  it('is OpenAPI 3.1, version 1.1, served under /v1 with the bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.1');
    expect(doc.servers).toEqual([{ url: '/v1' }]);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it('has every endpoint with its credit cost and every error response', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]: [string, Json]) => Object.entries(item).map(([m, op]: [string, Json]) => ({ key: `${m.toUpperCase()} ${path}`, op })));
    expect(ops).toHaveLength(28);
    for (const route of V1_ROUTES) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op.operationId).toBe(route.operationId);
      expect(op['x-credits-cost']).toBe(route.cost);
      expect(op.responses['200']).toBeDefined();
      const statuses = Object.keys(op.responses).filter((s) => s !== '200').sort();
      const expected = expectedErrors(route);
      expect(statuses, route.operationId).toEqual(Object.keys(expected).sort());
      for (const s of statuses) {
        const resp = op.responses[s].$ref ? resolveRef(op.responses[s].$ref) : op.responses[s];
        expect(resp.content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
        // Codes sharing a status (the 503s) are all named in its description.
        const shared = expected[s]!;
        if (shared.length > 1) for (const c of shared) expect(resp.description, `${route.operationId} ${s}`).toContain(`\`${c}\``);
      }
      for (const p of op.parameters ?? []) if (p.in === 'path') expect(route.path).toContain(`{${p.name}}`);
      if (route.body) expect(op.requestBody.content['application/json'].schema.type).toBe('object');
    }
  });

  it('documents all 28 endpoints as served: none marked pending, each with its 200 body and a 503 with Retry-After', () => {
    expect(V1_ROUTES).toHaveLength(28);
    for (const route of V1_ROUTES) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      expect(op['x-status'], route.operationId).toBeUndefined();
      expect(op.description, route.operationId).not.toMatch(/Not served yet/);
      expect(op.responses['200'].content['application/json'].schema, route.operationId).toBeDefined();
      if (!route.needsBuild) continue;
      const r503 = op.responses['503'].$ref ? resolveRef(op.responses['503'].$ref) : op.responses['503'];
      expect(Object.keys(r503.headers), route.operationId).toContain('Retry-After');
    }
  });

  it('documents the spec parameters with their defaults and limits', () => {
    const search = doc.paths['/addresses/search'].get.parameters;
    expect(search.find((p: Json) => p.name === 'q')).toMatchObject({ required: true, schema: { minLength: 2 } });
    // "capped at 50": a larger limit is served at 50 (X-Limit-Capped), so no maximum refuses it.
    const limit = search.find((p: Json) => p.name === 'limit');
    expect(limit).toMatchObject({ required: false, schema: { default: 10, minimum: 1 } });
    expect(limit.description).toMatch(/capped at 50/);
    const hmo = doc.paths['/valuations/{uprn}/hmo'].get.parameters;
    expect(hmo.find((p: Json) => p.name === 'finish_quality').schema).toMatchObject({ default: 'average', enum: ['below_average', 'average', 'above_average', 'very_high'] });
    for (const b of ['living_room', 'parking', 'outside_space']) expect(hmo.find((p: Json) => p.name === b).schema).toMatchObject({ default: 'true', enum: ['true', 'false'] });
    const market = doc.paths['/str/market'].get.parameters;
    expect(market.find((p: Json) => p.name === 'price_tier')).toMatchObject({ explode: true, schema: { type: 'array' } });
    expect(market.find((p: Json) => p.name === 'radius_m').schema.maximum).toBe(5_000);
    const str = doc.paths['/valuations/str-estimate'].post.requestBody.content['application/json'].schema;
    // bedrooms: required except with uprn (then the property record's), so not in `required`; the rule is in its description.
    expect(str.required ?? []).not.toContain('bedrooms');
    expect(str.properties.bedrooms.description).toMatch(/uprn/);
    expect(str.properties.include_comparables.default).toBe(false);
  });

  it('every $ref resolves', () => {
    for (const ref of refs(doc)) expect(resolveRef(ref), ref).toBeDefined();
  });

  describe('served', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer();
    });
    afterAll(() => s.stop());
    it('GET /v1/openapi.json serves the committed document, without a key', async () => {
      const r = await call(s.base, 'GET', '/v1/openapi.json');
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.json).toEqual(JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')));
    });
  });
});
