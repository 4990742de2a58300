import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// Its own file (own process): the record file is cached per process, and a process that
// already serves a build keeps answering from it while a newer one fails to open.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  const dir = await publishFromContext(await stagedContext(500, 11), s.dataDir, '20251001T000000Z-dddddd');
  rmSync(join(dir, 'property-records.bin'));
  rmSync(join(dir, 'property-records.rows'));
});
afterAll(async () => {
  await s.stop();
});

describe('GET /v1/properties/{uprn} on a build without its record file', () => {
  it('is a 503 data_unavailable, charged nothing', async () => {
    const { key } = await s.account('enterprise');
    const r = await call(s.base, 'GET', '/v1/properties/100000000001', { key });
    expect(r.status).toBe(503);
    expect(r.json.code).toBe('data_unavailable');
    expect(r.headers['x-credits-cost']).toBe('0');
  });
});
