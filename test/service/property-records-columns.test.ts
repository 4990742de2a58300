import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFile, RecordFileWriter } from '../../lib/files/record-file-format.ts';
import { pagedRecordWriter, PROPERTY_RECORDS_PAGED_FILE } from '../../lib/files/paged-record-file.ts';
import { publishFromContext } from '../etl/search/fixture-build.ts';
import { stagedContext } from '../support/region.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// Its own file (own process): the record file is cached per process.
let s: TestServer;
let uprn: number;
beforeAll(async () => {
  s = await startTestServer();
  const ctx = await stagedContext(500, 11);
  const uprns = (await ctx.conn.runAndReadAll('SELECT uprn::DOUBLE AS u FROM properties ORDER BY uprn')).getRowObjectsJS().map((r) => Number(r.u));
  uprn = uprns[0]!;
  // The build's record files (paged and columnar) written again with `bedrooms` renamed
  // `beds`: every other column and value as the real stage wrote them.
  await publishFromContext(ctx, s.dataDir, '20251001T000000Z-eeeeee', (dir) => {
    const path = join(dir, PROPERTY_RECORDS_FILE);
    const real = new RecordFile(readFileSync(path), path);
    const rename = (name: string) => (name === 'bedrooms' ? 'beds' : name);
    const w = new RecordFileWriter(PROPERTY_RECORD_COLUMNS.map((c) => ({ name: rename(c.name), kind: c.kind })), uprns.length);
    for (const u of uprns) w.add(Object.fromEntries(Object.entries(real.get(u)!).map(([k, v]) => [rename(k), v])));
    w.finish(path);
    const paged = pagedRecordWriter(join(dir, PROPERTY_RECORDS_PAGED_FILE), PROPERTY_RECORD_COLUMNS.map((c) => ({ name: rename(c.name), kind: c.kind })));
    for (const u of uprns) paged.add(u, PROPERTY_RECORD_COLUMNS.map((c) => real.get(u)![c.name]!));
    paged.finish();
  });
});
afterAll(async () => {
  await s.stop();
});

describe('a build whose record file lacks a declared column (bedrooms renamed beds)', () => {
  it('does not serve the record: 503 data_unavailable, charged nothing, never a record with bedrooms null', async () => {
    const { key } = await s.account('enterprise');
    for (const path of [`/v1/properties/${uprn}`, `/v1/risks/${uprn}`, `/v1/properties/${uprn}/epc`]) {
      const r = await call(s.base, 'GET', path, { key });
      expect(r.status, path).toBe(503);
      expect(r.json.code, path).toBe('data_unavailable');
      expect(r.headers['x-credits-cost'], path).toBe('0');
    }
  });

  it('logs why when the build opens, naming the column', async () => {
    const opened = () => s.logs.map((l) => JSON.parse(l) as { msg: string; resource?: string; err?: string })
      .find((l) => l.msg === 'per-build resource did not open' && l.resource === 'property records');
    for (let i = 0; i < 100 && !opened(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(opened()?.err).toMatch(/property-records\.rows: the record file lacks the column bedrooms \(it has beds, flood_zone, article_4, listed_building besides the declared ones\)/);
  });
});
