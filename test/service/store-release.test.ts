/**
 * Once a build is warm the warmer releases its DuckDB store (ADR 0015, step 1): every per-build
 * resource has been built from it and no request queries it. Over real servers and a real
 * published build: the release is visible to an operator (/metrics, the "build warmed" log line),
 * answers do not change, a data swap after it works; and over the build's real resources: a
 * resource opened after the release reopens the store (one open for racing loads) and answers
 * as one opened with the store never released, and a release during a load waits for it.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tier } from '../../schemas/plans.ts';
import { demoExamples, demoProperty, paceSeconds, type DemoExample } from '../../scripts/demo-requests.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { buildOptions } from '../../service/build/warmer.ts';
import { loadConfig } from '../../service/config.ts';
import { fileDataSource } from '../../service/build/source.ts';
import { createPropertyIntelligenceClient, type PropertyIntelligenceClient } from '../../clients/typescript/index.ts';
import { lookupsInHeapView } from '../../bench/support/lookups-in-heap.ts';
import { clientCall } from '../support/client-call.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, startTestServer, type TestServer } from './support.ts';

const MAKEFILE = readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8');
const DEMO_TIER = /accounts -- create --tier (\w+)/.exec(MAKEFILE)![1] as Tier;
const DEMO_ADDRESSES = Number(/^ADDRESSES \?= (\d+)$/m.exec(MAKEFILE)![1]);
const DEMO_SEED = Number(/^SEED \?= (\d+)$/m.exec(MAKEFILE)![1]);

/** The `data_store_open` gauge as an operator scrapes it (undefined when absent). */
async function storeGauge(s: TestServer): Promise<number | undefined> {
  const m = /^data_store_open (\d+)$/m.exec((await call(s.metricsBase, 'GET', '/metrics')).text);
  return m ? Number(m[1]) : undefined;
}

const warmedLines = (s: TestServer) =>
  s.logs.map((l) => JSON.parse(l) as { msg: string; build_id?: string; store_released?: boolean }).filter((l) => l.msg === 'build warmed');

async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

let released: TestServer;
let kept: TestServer;
let examples: DemoExample[];

beforeAll(async () => {
  [released, kept] = await Promise.all([startTestServer(), startTestServer({ env: { KEEP_STORE_OPEN: '1' } })]);
  for (const s of [released, kept]) await publishSynthBuild(s.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED });
  examples = demoExamples(await demoProperty(released.dataDir));
  for (const s of [released, kept]) await until(() => warmedLines(s).length === 1, 120_000);
}, 300_000);

afterAll(async () => {
  await released?.stop();
  await kept?.stop();
});

describe('the DuckDB store after the warm-up', () => {
  it('is released once the build is warm: the /metrics gauge reads 0 and the "build warmed" line says so; KEEP_STORE_OPEN=1 keeps it', async () => {
    expect(warmedLines(released)[0]!.store_released).toBe(true);
    expect(await storeGauge(released)).toBe(0);
    expect(warmedLines(kept)[0]!.store_released).toBe(false);
    expect(await storeGauge(kept)).toBe(1);
  });

  it('every demo example answers the same with the store released as with it kept open', async () => {
    const keys = await Promise.all([released, kept].map(async (s) => createPropertyIntelligenceClient(s.base, (await s.account(DEMO_TIER)).key)));
    const [onReleased, onKept] = keys as [PropertyIntelligenceClient, PropertyIntelligenceClient];
    let compared = 0;
    for (const e of examples) {
      const a = await clientCall(onReleased, e.route.method, `/v1${e.path}`, e.body);
      const b = await clientCall(onKept, e.route.method, `/v1${e.path}`, e.body);
      for (const s of [released, kept]) s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
      expect(a.response.status, e.path).toBeLessThan(300);
      expect(a.response.status, e.path).toBe(b.response.status);
      // The account's own identity differs between the two servers' ledgers; everything else is the build's.
      expect(JSON.stringify(a.data).replaceAll(/acc_[A-Za-z0-9_-]+/g, 'acc'), e.path).toBe(JSON.stringify(b.data).replaceAll(/acc_[A-Za-z0-9_-]+/g, 'acc'));
      compared++;
    }
    expect(compared).toBe(examples.length);
    // No answer needed the store back.
    expect(await storeGauge(released)).toBe(0);
  });

  it('a resource opened after the release reopens the store (one open for loads racing), answers as before, and the store is released again', async () => {
    const build = fileDataSource(released.dataDir).current()!;
    const late = new BuildResources(build);
    const reference = new BuildResources(build);
    try {
      const store = await late.store.get();
      late.releaseStore(0);
      expect(store.isOpen).toBe(false);
      expect(store.tables.has('schools')).toBe(true);
      // Two loads racing after the release: one reopen between them.
      const [schools, lookups] = await Promise.all([late.schools.get(), late.lookups.get()]);
      expect(store.opens).toBe(2);
      expect(store.isOpen).toBe(false);
      const [refSchools, refLookups] = await Promise.all([reference.schools.get(), reference.lookups.get()]);
      expect(schools).toEqual(refSchools);
      // Every table is a file on each build's own page cache (the per-area ones too): compare their rows.
      expect(lookups.files.map((f) => [...f.scan()])).toEqual(refLookups.files.map((f) => [...f.scan()]));
      expect(lookups.files).toHaveLength(12);
      expect(lookups.sales?.size ?? 0).toBeGreaterThan(0);
    } finally {
      await late.close();
      await reference.close();
    }
  }, 120_000);

  it('a store reopened after the release stays open for its linger after the last use, then is released again', async () => {
    const late = new BuildResources(fileDataSource(released.dataDir).current()!);
    try {
      const store = await late.store.get();
      late.releaseStore(400);
      expect(store.isOpen).toBe(false);
      expect((await late.schools.get())?.schools.length ?? 0).toBeGreaterThan(0);
      // Open still: a load retried right after (a resource failing per request) would not reopen it.
      expect(store.isOpen).toBe(true);
      await until(() => !store.isOpen, 10_000);
      expect(store.opens).toBe(2);
    } finally {
      await late.close();
    }
  }, 120_000);

  it('KEEP_STORE_OPEN takes 0 or 1, anything else stops the start with the variable named', () => {
    expect(loadConfig({}).KEEP_STORE_OPEN).toBe(false);
    expect(loadConfig({ KEEP_STORE_OPEN: '1' }).KEEP_STORE_OPEN).toBe(true);
    expect(() => loadConfig({ KEEP_STORE_OPEN: 'yes' })).toThrow(/KEEP_STORE_OPEN/);
  });

  it('PAGE_CACHE_MB sizes each build\'s page cache (64 MB unless set); 0 or a non-number stops the start with the variable named', () => {
    expect(new BuildResources(fileDataSource(released.dataDir).current()!, buildOptions(loadConfig({}))).caches.pages.bytes).toBe(64 * 1048576);
    expect(new BuildResources(fileDataSource(released.dataDir).current()!, buildOptions(loadConfig({ PAGE_CACHE_MB: '16' }))).caches.pages.bytes).toBe(16 * 1048576);
    expect(() => loadConfig({ PAGE_CACHE_MB: '0' })).toThrow(/PAGE_CACHE_MB/);
    expect(() => loadConfig({ PAGE_CACHE_MB: 'lots' })).toThrow(/PAGE_CACHE_MB/);
  });

  it('a release during a load waits for it: the load reads the derived tables it made, and the store closes after it', async () => {
    // As an older ETL published it (no lookup files): its lookup tables are made in the store, then read.
    const build = fileDataSource(released.dataDir).current()!;
    const views = tempDir('pi-store-release-');
    const dir = lookupsInHeapView(build.dir, views.dir);
    const late = new BuildResources({ id: build.id, dir, manifest: JSON.parse(readFileSync(resolve(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> });
    try {
      const store = await late.store.get();
      const loading = late.lookups.get();
      // A close between making them and reading them would lose them.
      await until(() => (store as unknown as { holds: number }).holds > 0, 10_000);
      late.releaseStore(0);
      expect(store.isOpen).toBe(true);
      const lookups = await loading;
      expect(lookups.has.has('sales')).toBe(true);
      expect(store.opens).toBe(1);
      expect(store.isOpen).toBe(false);
    } finally {
      await late.close();
      views.cleanup();
    }
  }, 120_000);

  it('a new build published after the release is served, and its own store released after its warm-up', async () => {
    const first = warmedLines(released)[0]!.build_id;
    const next = await publishSynthBuild(released.dataDir, { addresses: 1000, seed: 3 });
    expect(next.build_id).not.toBe(first);
    await until(() => warmedLines(released).length === 2, 120_000);
    expect(warmedLines(released)[1]).toMatchObject({ build_id: next.build_id, store_released: true });
    expect(await storeGauge(released)).toBe(0);
    const { key } = await released.account(DEMO_TIER);
    const search = examples.find((e) => e.path.startsWith('/addresses/search'))!;
    const r = await call(released.base, 'GET', `/v1${search.path}`, { key });
    expect(r.status).toBe(200);
    expect(r.headers['x-build-id']).toBe(next.build_id);
  }, 180_000);
});
