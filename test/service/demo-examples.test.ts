import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Tier } from '../../schemas/plans.ts';
import { demoExamples, demoProperty, paceSeconds, type DemoExample } from '../../scripts/demo-requests.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, postJson, startTestServer, type TestServer } from './support.ts';

/**
 * The requests `make demo` prints, sent to a server over a published synthetic build: every
 * one of the 28 endpoints has an example, and every example answers 2xx. The key
 * is on the tier `make demo` creates (read from the Makefile) and the calls are paced as the
 * printed script paces them (the test clock moves by its sleep): no 429.
 */
const DEMO_TIER = /accounts -- create --tier (\w+)/.exec(readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8'))![1] as Tier;

let s: TestServer;
let key: string;
let examples: DemoExample[];

beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account(DEMO_TIER)).key;
  await publishSynthBuild(s.dataDir, { addresses: 2000, seed: 11 });
  examples = demoExamples(await demoProperty(s.dataDir));
}, 180_000);

afterAll(async () => {
  await s?.stop();
});

describe('the demo\'s printed examples', () => {
  it('cover all 28 endpoints and answer 2xx on the demo data', async () => {
    const status = new Map<string, number>();
    for (const e of examples) {
      const r = e.body ? await postJson(s.base, `/v1${e.path}`, key, e.body) : await call(s.base, e.route.method, `/v1${e.path}`, { key });
      status.set(e.route.operationId, r.status);
      s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(r.status, `${e.path}: ${JSON.stringify(r.json)}`).toBeLessThan(300);
    }
    expect([...status.keys()].sort()).toEqual(V1_ROUTES.map((r) => r.operationId).sort());
  });
});
