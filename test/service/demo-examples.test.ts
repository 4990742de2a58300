import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Tier } from '../../schemas/plans.ts';
import { demoExamples, demoProperty, paceSeconds, type DemoExample } from '../../scripts/demo-requests.ts';
import { DOC_EXAMPLE } from '../../schemas/api/examples.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { createPropertyIntelligenceClient, type PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { clientCall } from '../support/client-call.ts';
import { publishSynthBuild } from '../support/published.ts';
import { buildSql } from './build-sql.ts';
import { startTestServer, type TestServer } from './support.ts';

/** Great-circle metres, written out here (not the service's own distance). */
const haversine = (lat1: number, lng1: number, lat2: number, lng2: number): number => {
  const r = (x: number) => (x * Math.PI) / 180;
  const a = Math.sin(r(lat2 - lat1) / 2) ** 2 + Math.cos(r(lat1)) * Math.cos(r(lat2)) * Math.sin(r(lng2 - lng1) / 2) ** 2;
  return 12_742_000 * Math.asin(Math.sqrt(a));
};

/**
 * The requests `make demo` prints, sent to a server over a published synthetic build: every
 * one of the 28 endpoints has an example, and every example answers 2xx. The key
 * is on the tier `make demo` creates (read from the Makefile) and the calls are paced as the
 * printed script paces them (the test clock moves by its sleep): no 429. Each is sent through the
 * typed client (test/support/client-call.ts), on its route's documented template with its
 * parameters as docs/openapi.json declares them: an example the document does not describe fails.
 */
const MAKEFILE = readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8');
const DEMO_TIER = /accounts -- create --tier (\w+)/.exec(MAKEFILE)![1] as Tier;
/** The region `make demo` generates (its ADDRESSES and SEED defaults). */
const DEMO_ADDRESSES = Number(/^ADDRESSES \?= (\d+)$/m.exec(MAKEFILE)![1]);
const DEMO_SEED = Number(/^SEED \?= (\d+)$/m.exec(MAKEFILE)![1]);

/**
 * Numbers in an answer written with more than 4 decimals (`978.665631459995`), as
 * `operation path=value`; coordinates (7 decimals as the sources give them, ~1 cm) aside.
 */
function unroundedNumbers(node: unknown, path: string): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => unroundedNumbers(v, `${path}[${i}]`));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => unroundedNumbers(v, `${path}.${k}`));
  if (typeof node !== 'number' || Number.isInteger(node)) return [];
  const decimals = String(node).split('.')[1]?.length ?? 0;
  const coordinate = /\.(lat|lng|latitude|longitude)$/.test(path);
  return decimals > (coordinate ? 7 : 4) ? [`${path}=${node}`] : [];
}

let s: TestServer;
let api: PropertyIntelligenceClient;
let examples: DemoExample[];

beforeAll(async () => {
  s = await startTestServer();
  api = createPropertyIntelligenceClient(s.base, (await s.account(DEMO_TIER)).key);
  await publishSynthBuild(s.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED });
  examples = demoExamples(await demoProperty(s.dataDir));
}, 180_000);

afterAll(async () => {
  await s?.stop();
});

describe('the demo\'s printed examples', () => {
  it('cover all 28 endpoints and answer 2xx on the demo data', async () => {
    const status = new Map<string, number>();
    const unrounded: string[] = [];
    for (const e of examples) {
      const r = await clientCall(api, e.route.method, `/v1${e.path}`, e.body);
      status.set(e.route.operationId, r.response.status);
      unrounded.push(...unroundedNumbers(r.data, e.route.operationId));
      s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(r.response.status, `${e.path} (sent as ${r.response.url}): ${JSON.stringify(r.error ?? r.data)}`).toBeLessThan(300);
    }
    expect([...status.keys()].sort()).toEqual(V1_ROUTES.map((r) => r.operationId).sort());
    // Money in whole pounds or pence, rates and shares at 4 decimals at most (docs/api.md).
    expect(unrounded).toEqual([]);
  });

  it('the schools example finds schools: the postcode of the open school SQL finds nearest the demo property', async () => {
    const p = await demoProperty(s.dataDir);
    const db = await buildSql(s.dataDir);
    try {
      const open = await db.q(`SELECT postcode, lat, lng FROM schools WHERE status LIKE 'Open%' AND postcode IS NOT NULL AND lat IS NOT NULL`);
      expect(open.length).toBeGreaterThan(0);
      const d = (r: Record<string, unknown>) => haversine(p.lat, p.lng, Number(r.lat), Number(r.lng));
      const nearest = open.reduce((a, b) => (d(b) < d(a) ? b : a));
      expect(p.school_postcode).toBe(nearest.postcode);
      const e = examples.find((x) => x.route.operationId === 'getSchools')!;
      expect(e.path).toBe(`/schools?postcode=${encodeURIComponent(String(nearest.postcode))}`);
      const r = await clientCall(api, 'GET', `/v1${e.path}`);
      s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(r.response.status).toBe(200);
      expect((r.data as { count: number }).count).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('the OpenAPI document\'s example values are the demo property\'s, and each answers 2xx on the demo data', async () => {
    const p = await demoProperty(s.dataDir);
    expect(DOC_EXAMPLE).toEqual(p);
    // Every parameter example the document shows, by parameter name, is one of these.
    const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'));
    const shown = new Map<string, Set<string>>();
    for (const ops of Object.values(doc.paths) as Record<string, { parameters?: { name: string; schema?: { example?: unknown } }[] }>[]) {
      for (const op of Object.values(ops)) {
        for (const prm of op.parameters ?? []) {
          const ex = prm.schema?.example;
          if (ex !== undefined) shown.set(prm.name, (shown.get(prm.name) ?? new Set()).add(String(ex)));
        }
      }
    }
    expect(shown.get('uprn')).toEqual(new Set([p.uprn]));
    expect(shown.get('outcode')).toEqual(new Set([p.outcode]));
    expect([...shown.get('postcode')!].every((v) => v === p.postcode || v === p.sector || v === p.school_postcode)).toBe(true);
    for (const path of [
      `/v1/properties/${p.uprn}`, `/v1/postcodes/${encodeURIComponent(p.postcode)}`, `/v1/areas/${encodeURIComponent(p.sector)}`,
      `/v1/areas/${p.outcode}`, `/v1/areas/${p.la_code}`, `/v1/prices/trends?local_authority=${p.la_code}`, `/v1/yields?postcode=${encodeURIComponent(p.sector)}`,
    ]) {
      const r = await clientCall(api, 'GET', path);
      s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(r.response.status, `${path} (sent as ${r.response.url}): ${JSON.stringify(r.error ?? r.data).slice(0, 200)}`).toBe(200);
    }
  });
});

describe('the demo\'s printed examples on an open-data build (make demo OPEN_DATA=1)', () => {
  let o: TestServer;
  let openApi: PropertyIntelligenceClient;
  let openExamples: DemoExample[];
  beforeAll(async () => {
    o = await startTestServer();
    openApi = createPropertyIntelligenceClient(o.base, (await o.account(DEMO_TIER)).key);
    const { manifest } = await publishSynthBuild(o.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED, openData: true });
    expect(manifest.quality.address_source).toMatchObject({ kind: 'open_data' });
    openExamples = demoExamples(await demoProperty(o.dataDir));
  }, 180_000);
  afterAll(async () => {
    await o?.stop();
  });

  it('all 28 answer 2xx where the certificates give the home an address', async () => {
    for (const e of openExamples) {
      const r = await clientCall(openApi, e.route.method, `/v1${e.path}`, e.body);
      o.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(r.response.status, `${e.path}: ${JSON.stringify(r.error ?? r.data).slice(0, 200)}`).toBeLessThan(300);
    }
    expect(openExamples.map((e) => e.route.operationId).sort()).toEqual(V1_ROUTES.map((r) => r.operationId).sort());
  });
});
