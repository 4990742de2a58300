/**
 * Every 2xx of every served endpoint, against a real published build, validated by its
 * route's response schema (strict: no undeclared fields); each served endpoint must answer
 * at least one 2xx, and each pending one must answer 503 data_unavailable with Retry-After.
 * Requests are made from the build's own rows (test/support/endpoint-requests.ts) and sent
 * through the typed client (test/support/client-call.ts: each on its route's documented template,
 * its parameters as docs/openapi.json declares them), which must hand every 2xx back as `data`.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { createPropertyIntelligenceClient, type PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { clientCall } from '../support/client-call.ts';
import { endpointRequests, readEndpointInputs, type Req } from '../support/endpoint-requests.ts';
import { publishSynthBuild } from '../support/published.ts';
import { startTestServer, type TestServer } from '../service/support.ts';

let s: TestServer;
let api: PropertyIntelligenceClient;
let requests: Map<string, Req[]>;

beforeAll(async () => {
  s = await startTestServer();
  api = createPropertyIntelligenceClient(s.base, (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key);
  await publishSynthBuild(s.dataDir, { addresses: 2000, seed: 11 });
  requests = endpointRequests(await readEndpointInputs(realpathSync(join(s.dataDir, 'current')), 200), 6);
});
afterAll(() => s?.stop());

/** A strict copy of an object schema (undeclared fields fail); other schemas as they are. */
const strict = (schema: z.ZodType): z.ZodType => (schema instanceof z.ZodObject ? schema.strict() : schema);

describe('2xx answers match their route\'s response schema', () => {
  for (const route of V1_ROUTES) {
    const endpoint = `${route.method} /v1${route.path}`;
    it(route.operationId, async () => {
      const reqs = requests.get(endpoint);
      expect(reqs?.length, `no requests made for ${endpoint}`).toBeGreaterThan(0);
      let ok = 0;
      for (const r of reqs!) {
        const reply = await clientCall(api, route.method, r.path, r.body === undefined ? undefined : JSON.parse(r.body));
        const sent = `${r.path} (sent as ${reply.response.url})`;
        expect([200, 404], `${sent}: ${JSON.stringify(reply.error ?? reply.data).slice(0, 300)}`).toContain(reply.response.status);
        if (reply.response.status !== 200) continue;
        ok++;
        expect(reply.error, sent).toBeUndefined();
        expect(reply.data, sent).toBeDefined();
        const parsed = strict(route.response).safeParse(reply.data);
        expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), sent).toEqual([]);
      }
      expect(ok, `${endpoint} answered no 2xx to ${reqs!.length} requests from the build's rows`).toBeGreaterThan(0);
    });
  }
});
