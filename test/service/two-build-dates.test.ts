import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolve } from 'node:path';
import type { Tier } from '../../schemas/plans.ts';
import { demoExamples, demoProperty, paceSeconds, type DemoExample } from '../../scripts/demo-requests.ts';
import { V1_ROUTES } from '../../service/routes/v1/index.ts';
import { publishSynthBuild } from '../support/published.ts';
import { startTestServer, type TestServer } from './support.ts';

/**
 * Windows end where the data ends (DESIGN §3, docs/api.md "Windows and as-of"): the same
 * sources built on two dates 15 months apart answer every one of the 28 example requests
 * `make demo` prints identically, apart from the build id, the request id and the account id
 * (each server has its own ledger). The region is
 * the demo's (its ADDRESSES and SEED); its data end in 2025-08 (the generator's default), the
 * first build is made the day after the month it ends in, the second 15 months later.
 */
const MAKEFILE = readFileSync(resolve(import.meta.dirname, '../../Makefile'), 'utf8');
const DEMO_TIER = /accounts -- create --tier (\w+)/.exec(MAKEFILE)![1] as Tier;
const DEMO_ADDRESSES = Number(/^ADDRESSES \?= (\d+)$/m.exec(MAKEFILE)![1]);
const DEMO_SEED = Number(/^SEED \?= (\d+)$/m.exec(MAKEFILE)![1]);
const EARLY = new Date('2025-10-01T00:00:00Z');
const LATE = new Date('2027-01-01T00:00:00Z');

interface Side { s: TestServer; key: string; accountId: string; buildId: string }
const sides: Side[] = [];
let examples: DemoExample[];

async function side(now: Date): Promise<Side> {
  const s = await startTestServer();
  const { key, id } = await s.account(DEMO_TIER);
  const { build_id } = await publishSynthBuild(s.dataDir, { addresses: DEMO_ADDRESSES, seed: DEMO_SEED, now });
  return { s, key, accountId: id, buildId: build_id };
}

beforeAll(async () => {
  sides.push(await side(EARLY), await side(LATE));
  examples = demoExamples(await demoProperty(sides[0]!.s.dataDir));
}, 600_000);

afterAll(async () => {
  for (const x of sides) await x.s.stop();
});

/** The answer with its build's id, the request id and the account id (each server's own) replaced by placeholders. */
async function answer(x: Side, e: DemoExample): Promise<{ status: number; body: string }> {
  const r = await fetch(`${x.s.base}/v1${e.path}`, {
    method: e.route.method,
    headers: { authorization: `Bearer ${x.key}`, ...(e.body ? { 'content-type': 'application/json' } : {}) },
    ...(e.body ? { body: JSON.stringify(e.body) } : {}),
  });
  x.s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
  const text = await r.text();
  const requestId = r.headers.get('x-request-id');
  let body = text.replaceAll(x.buildId, '<build>').replaceAll(x.accountId, '<account>');
  if (requestId) body = body.replaceAll(requestId, '<request>');
  return { status: r.status, body };
}

/** `path: a → b` for each leaf of two JSON values that differs (at most 8), for a readable failure. */
function leavesThatDiffer(a: unknown, b: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 8) return out;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) leavesThatDiffer((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`, out);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${path}: ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
  return out;
}

describe('one region built on two dates 15 months apart', () => {
  it('the two builds are different builds of the same sources', () => {
    expect(sides[0]!.buildId).not.toBe(sides[1]!.buildId);
    expect(sides[0]!.buildId.slice(0, 8)).toBe('20251001');
    expect(sides[1]!.buildId.slice(0, 8)).toBe('20270101');
  });

  it('answers all 28 example requests identically apart from build and request ids', async () => {
    expect(examples.map((e) => e.route.operationId).sort()).toEqual(V1_ROUTES.map((r) => r.operationId).sort());
    const differ: string[] = [];
    for (const e of examples) {
      const [a, b] = [await answer(sides[0]!, e), await answer(sides[1]!, e)];
      expect(a.status, `${e.path}: ${a.body.slice(0, 300)}`).toBeLessThan(300);
      if (a.status !== b.status || a.body !== b.body) differ.push(`${e.route.method} ${e.path} (${a.status}, ${b.status}): ${leavesThatDiffer(JSON.parse(a.body), JSON.parse(b.body)).join('; ')}`);
    }
    expect(differ, differ.join('\n')).toEqual([]);
  });
});

/** Rows of one query over the published Parquet of a data dir's current build. */
async function overParquet(dataDir: string, sql: (file: (table: string) => string) => string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const file = (table: string) => `read_parquet('${join(dataDir, 'current', `${table}.parquet`).replaceAll("'", "''")}')`;
    return (await conn.runAndReadAll(sql(file))).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** The sales of the last 12 months of Price Paid in the build (the 12 months to its latest sale's month), with the home's areas. */
/**
 * The sales of the data's last 12 months with their place: a matched sale at its home, an
 * unmatched one at the postcode it was recorded at, where the postcode directory (ONSPD) has
 * it (docs/open-data.md: every sale counts in its area).
 */
const RECENT = (file: (t: string) => string) => `
  WITH placed AS (
    SELECT s.uprn, s.price, s.date, p.postcode, p.sector, p.outcode, p.la_code
    FROM ${file('sales')} s JOIN ${file('properties')} p USING (uprn) WHERE s.price > 0
    UNION ALL
    SELECT NULL, u.price, u.date, u.postcode, pc.sector, pc.outcode, pc.la_code
    FROM ${file('sales_unmatched')} u JOIN ${file('postcodes')} pc ON pc.postcode = u.postcode AND pc.source = 'onspd' AND pc.la_code IS NOT NULL
    WHERE u.price > 0
  ),
  last AS (SELECT date_trunc('month', max(date)) AS m FROM placed)
  SELECT placed.* FROM placed, last WHERE date_trunc('month', placed.date) > last.m - INTERVAL 12 MONTH`;

describe('the build made 15 months after its data end', () => {
  const late = () => sides[1]!;
  const get = async (path: string) => {
    const r = await fetch(`${late().s.base}/v1${path}`, { headers: { authorization: `Bearer ${late().key}` } });
    late().s.clock.advance(paceSeconds(DEMO_TIER) * 1000);
    return { status: r.status, body: await r.json() as any };
  };

  it('status lists each source\'s as-of month and how it was decided; Price Paid\'s is its latest sale\'s month', async () => {
    const [last] = await overParquet(late().s.dataDir, (f) => `SELECT strftime(max(date), '%Y-%m') AS m FROM ${f('sales')}`);
    expect(last!.m).toBe('2025-08');
    const r = await fetch(`${late().s.base}/v1/status`);
    const body = await r.json() as { source_as_of: Record<string, { month: string | null; decided_by: string }> };
    expect(body.source_as_of.price_paid).toEqual({ month: last!.m, date: expect.stringMatching(/^2025-08-\d{2}$/), decided_by: expect.stringContaining('latest date of transfer') });
    expect(body.source_as_of.rental_evidence!.month).toBe('2025-08');
    // The calendar's dates are nights ahead of the scrape: its as-of is the listings' scrape.
    expect(body.source_as_of.airbnb_calendar!.month).toBe(body.source_as_of.airbnb_listings!.month);
    const early = await (await fetch(`${sides[0]!.s.base}/v1/status`)).json() as typeof body;
    expect(early.source_as_of).toEqual(body.source_as_of);
  });

  it('Bristol (E06000023) gets an index of its own, to Price Paid\'s latest month, over the sales SQL counts', async () => {
    const [bristol] = await overParquet(late().s.dataDir, (f) => `SELECT count(*)::INT AS n FROM (${RECENT(f)}) WHERE la_code = 'E06000023'`);
    expect(bristol!.n).toBeGreaterThanOrEqual(10);
    const r = await get('/prices/trends?local_authority=E06000023');
    expect(r.status).toBe(200);
    expect(r.body.as_of_month).toBe('2025-08');
    expect(r.body.index_area).toMatchObject({ level: 'district', code: 'E06000023', widened: false, enough_sales: true, reason: null });
    expect(r.body.sales_12m).toBe(bristol!.n);
  });

  it('every sector\'s, outcode\'s and local authority\'s median_price_12m counts and medians the sales of its last 12 months', async () => {
    const want = await overParquet(late().s.dataDir, (f) => `
      SELECT code, count(*)::INT AS n, median(price)::DOUBLE AS median
      FROM (${RECENT(f)}) CROSS JOIN LATERAL (VALUES (sector), (outcode), (la_code)) AS l(code)
      WHERE code IS NOT NULL GROUP BY code ORDER BY code`);
    expect(want.length).toBeGreaterThan(20);
    for (const w of want) {
      const r = await get(`/areas/${encodeURIComponent(String(w.code))}`);
      expect(r.status, String(w.code)).toBe(200);
      expect(r.body.prices.median_price_12m, String(w.code)).toEqual({ value: w.median, sample_size: w.n });
    }
  });

  it('every postcode with sales in the last 12 months has them in sales_12m', async () => {
    const want = await overParquet(late().s.dataDir, (f) => `SELECT postcode, count(*)::INT AS n FROM (${RECENT(f)}) WHERE postcode IS NOT NULL GROUP BY postcode ORDER BY postcode`);
    expect(want.length).toBeGreaterThan(100);
    for (const w of want) {
      const r = await get(`/postcodes/${encodeURIComponent(String(w.postcode))}`);
      expect(r.status, String(w.postcode)).toBe(200);
      expect(r.body.sales_12m, String(w.postcode)).toBe(w.n);
    }
  });
});
