import { copyFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../etl/pipeline/context.ts';
import { PROPERTY_RECORDS_PAGED_FILE } from '../../lib/files/paged-record-file.ts';
import { PROPERTY_RECORDS_FILE } from '../../lib/files/record-file-format.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// Its own file (own process): each case has a server of its own, since a process that serves
// a build keeps its opened record file.
const servers: TestServer[] = [];
let ctx: BuildContext;
let uprns: number[];

beforeAll(async () => {
  ctx = await stagedContext(500, 11);
  uprns = (await ctx.conn.runAndReadAll('SELECT uprn::DOUBLE AS u FROM properties ORDER BY uprn')).getRowObjectsJS().map((r) => Number(r.u));
});
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function serve(change: (dir: string) => void): Promise<{ s: TestServer; key: string; dir: string }> {
  const s = await startTestServer();
  servers.push(s);
  const dir = await publishFromContext(ctx, s.dataDir, `20251001T000000Z-${(0xb0 + servers.length).toString(16)}b0b0`, change);
  return { s, key: (await s.account('enterprise')).key, dir };
}

function expectUnavailable(r: { status: number; headers: Record<string, unknown>; json: { code?: string } }): void {
  expect(r.status).toBe(503);
  expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(r.json.code).toBe('data_unavailable');
  expect(r.headers['x-credits-cost']).toBe('0');
}

describe('a broken paged record file: a clear error, never a wrong answer or a crash', () => {
  it('a foreign file in its place (the columnar .bin copied over it): 503, and the log says why, naming the file', async () => {
    const { s, key } = await serve((dir) => copyFileSync(join(dir, PROPERTY_RECORDS_FILE), join(dir, PROPERTY_RECORDS_PAGED_FILE)));
    expectUnavailable(await call(s.base, 'GET', `/v1/properties/${uprns[0]}`, { key }));
    const failed = () => s.logs.map((l) => JSON.parse(l) as { msg: string; resource?: string; err?: string })
      .find((l) => l.msg === 'per-build resource did not open' && l.resource === 'property records');
    for (let i = 0; i < 100 && !failed(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(failed()?.err).toMatch(/property-records\.rows is not a keyed-rows file/);
  });

  it('truncated in place while served: the pages it lost answer 503, those read before still answer right', async () => {
    const { s, key, dir } = await serve(() => undefined);
    const first = await call(s.base, 'GET', `/v1/properties/${uprns[0]}`, { key });
    expect(first.status).toBe(200);
    truncateSync(join(dir, PROPERTY_RECORDS_PAGED_FILE), 4096);
    expectUnavailable(await call(s.base, 'GET', `/v1/properties/${uprns[uprns.length - 1]}`, { key }));
    expect(s.logs.some((l) => l.includes('a serving file cannot be read') && l.includes('shorter than'))).toBe(true);
    // The server is up, and the page it had read answers as before.
    const again = await call(s.base, 'GET', `/v1/properties/${uprns[0]}`, { key });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
  });

  it('a build published before the paged file (only the .bin) is served from the heap as before', async () => {
    const { s, key } = await serve((dir) => rmSync(join(dir, PROPERTY_RECORDS_PAGED_FILE)));
    const rows = (await ctx.conn.runAndReadAll('SELECT uprn, address, postcode, bedrooms FROM properties ORDER BY uprn')).getRowObjectsJson();
    for (const r of rows.filter((_, i) => i % 25 === 0)) {
      const got = await call(s.base, 'GET', `/v1/properties/${String(r.uprn)}`, { key });
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({ uprn: Number(r.uprn), address: r.address, postcode: r.postcode, bedrooms: r.bedrooms === null ? null : Number(r.bedrooms) });
    }
  });
});
