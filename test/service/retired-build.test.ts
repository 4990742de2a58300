import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource } from '../../service/build/source.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// A replaced build is closed only once the requests that took it have finished (or after a
// bound): its files are read where they lie, so closing them under a slow request would turn
// its answer into a 503.
const tmp = tempDir('pi-retired-');
let dataDir: string;
let uprn: number;

beforeAll(async () => {
  dataDir = tmp.dir;
  await publishSynthBuild(dataDir);
  const r = new BuildResources(fileDataSource(dataDir).current()!);
  const homes = (await (await r.store.get()).columns('lookup_comparables_all')) as { uprn: number[] };
  uprn = Number(homes.uprn[0]);
  await r.close();
}, 600_000);
afterAll(() => tmp.cleanup());

const fresh = () => new BuildResources(fileDataSource(dataDir).current()!);

describe('a replaced build and the requests that still hold it', () => {
  it('stays open while a request holds it and closes when the last one releases it', async () => {
    const r = fresh();
    const records = await r.records.get();
    const want = records.get(uprn);
    expect(want?.uprn).toBe(uprn);
    const releaseA = r.hold();
    const releaseB = r.hold();
    expect(r.held).toBe(2);
    let closed = false;
    const closing = r.closeWhenFree(60_000).then(() => (closed = true));
    releaseA();
    releaseA(); // a second call of one release changes nothing
    await new Promise((res) => setTimeout(res, 50));
    expect(closed).toBe(false);
    expect(r.held).toBe(1);
    expect(records.get(uprn)).toEqual(want); // the held request still reads the file
    releaseB();
    await closing;
    expect(r.held).toBe(0);
    expect(() => records.get(uprn)).toThrow(/closed/);
  });

  it('closes at once with nothing holding it, and after the bound whatever still holds it', async () => {
    const idle = fresh();
    const idleRecords = await idle.records.get();
    await idle.closeWhenFree(60_000);
    expect(() => idleRecords.get(uprn)).toThrow(/closed/);

    const stuck = fresh();
    const stuckRecords = await stuck.records.get();
    stuck.hold(); // never released
    await stuck.closeWhenFree(100);
    expect(() => stuckRecords.get(uprn)).toThrow(/closed/);
  });
});

describe('the data middleware', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await publishSynthBuild(s.dataDir);
  }, 600_000);
  afterAll(async () => s?.stop());

  it('holds the build for each data request and releases it after, answered or refused', async () => {
    const key = (await s.account('enterprise', { limit: 1_000_000, windowMs: 60_000 })).key;
    const ok = await call(s.base, 'GET', `/v1/properties/${uprn}`, { key });
    expect(ok.status).toBe(200);
    const bad = await call(s.base, 'GET', '/v1/properties/not-a-uprn', { key });
    expect(bad.status).toBe(400);
    expect(s.builds.resources()!.held).toBe(0);
  });
});
