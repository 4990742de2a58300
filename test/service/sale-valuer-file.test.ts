import { cpSync, mkdtempSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache, BlockFileError } from '../../lib/files/block-file.ts';
import { KeyedRowsFile, KeyedRowsWriter, PAGE } from '../../lib/files/keyed-rows-file.ts';
import { SALE_EVIDENCE_COLUMNS, SALE_EVIDENCE_FILE, SALE_EVIDENCE_POSTCODES_FILE, type SaleEvidenceExtra } from '../../lib/files/sale-evidence-file.ts';
import { VALUATION_HOMES_FILE, type ValuationHomesExtra } from '../../lib/files/valuation-homes-file.ts';
import { SaleEvidence } from '../../service/domain/valuation-models/sale.ts';
import { FileEvidence } from '../../service/valuers/sale-evidence-file.ts';
import { BuildStore } from '../../service/store/store.ts';
import { SaleValuer } from '../../service/valuers/sale-valuer.ts';
import { publishSynthBuild } from '../support/published.ts';
import { call, startTestServer, type TestServer } from './support.ts';

// The sale valuer over its per-home file (issue 46, ADR 0015 step 4) and its evidence files
// (step 6) against the in-heap model, over a real ETL build: the model made from the store
// alone, as every older build is served, is the expectation.
const tmp = mkdtempSync(join(tmpdir(), 'sale-valuer-file-'));
let buildDir: string;
let buildId: string;
let store: BuildStore;
let heap: SaleValuer;
let uprns: number[];

beforeAll(async () => {
  const built = await publishSynthBuild(join(tmp, 'published'), { addresses: 2000, seed: 11 });
  buildId = built.build_id;
  buildDir = join(tmp, 'published', 'builds', buildId);
  store = await BuildStore.open(buildDir);
  heap = await SaleValuer.open(store);
  uprns = ((await store.columns('valuation_homes')).uprn as number[]).slice();
}, 180_000);
afterAll(() => {
  store?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const open = (dir = buildDir, cache = new BlockCache(8 * PAGE)) => SaleValuer.open(store, new Set(), { dir, cache });
const copy = (name: string) => {
  const dir = join(tmp, name);
  cpSync(buildDir, dir, { recursive: true });
  return dir;
};

describe('the sale valuer over valuation-homes.rows and sale-evidence.rows of a real ETL build', () => {
  it('values every UPRN exactly as the in-heap model, through a 32 KB cache, and knows no other', async () => {
    const cache = new BlockCache(8 * PAGE);
    const file = await open(buildDir, cache);
    expect(heap.evidence).toBeInstanceOf(SaleEvidence);
    expect(file.evidence).toBeInstanceOf(FileEvidence);
    expect(uprns.length).toBeGreaterThan(1500);
    const methods = new Set<string>();
    for (const u of uprns) {
      const want = heap.value(u);
      expect(want).toBeDefined();
      expect(file.value(u), `UPRN ${u}`).toEqual(want);
      expect(file.valuation(u)).toEqual(heap.valuation(u));
      const e = want!.estimate;
      methods.add(e.value === null ? 'none' : e.method);
    }
    // Every rung of the cascade was compared, and the homes were read from the file.
    expect([...methods].sort()).toEqual(['comparables', 'last_sold_growth', 'none', 'sqft_estimate']);
    expect(cache.stats.misses).toBeGreaterThan(10);
    for (const u of [0, uprns[0]! - 1, uprns[uprns.length - 1]! + 1, 1e15]) expect(file.value(u)).toBeUndefined();
    expect(file.evidence.size).toBe(heap.evidence.size);
    expect(file.asOfMonth).toBe(heap.asOfMonth);
    file.close();
  });
});

describe('valuation-homes.rows names the store\'s ids', () => {
  it('every home\'s path, postcode and age band id, and each id\'s path and band, as the service\'s dense ranks (valuation_homes.sql) give them', async () => {
    const file = KeyedRowsFile.open(join(buildDir, VALUATION_HOMES_FILE), new BlockCache(64 * PAGE));
    try {
      const want = await store.columns('valuation_homes');
      const ids = { path: new Set<number>(), age: new Set<number>() };
      want.uprn!.forEach((u, i) => {
        const [row] = file.get(u as number);
        expect({ path_id: row?.path_id, postcode_id: row?.postcode_id, age_id: row?.age_id }, `UPRN ${u}`)
          .toEqual({ path_id: want.path_id![i], postcode_id: want.postcode_id![i], age_id: want.age_id![i] });
        ids.path.add(want.path_id![i] as number);
        ids.age.add(want.age_id![i] as number);
      });
      // Many paths and bands, and a home without a band among them (the synthetic region leaves some out).
      expect(ids.path.size).toBeGreaterThan(20);
      expect(ids.age.size).toBeGreaterThan(3);
      const extra = file.meta.extra as unknown as ValuationHomesExtra;
      const keys = await store.rows('valuation_home_keys');
      expect(extra.paths).toEqual(keys.filter((k) => k.kind === 'path').sort((a, b) => a.id - b.id).map((k) => [k.a, k.b, k.c, k.d]));
      expect(extra.ages).toEqual(keys.filter((k) => k.kind === 'age').sort((a, b) => a.id - b.id).map((k) => k.a));
      expect(extra.ages).toContain(null);
    } finally {
      file.close();
    }
  });
});

describe('a valuation-homes file that is missing, foreign, cut short or changed under it', () => {
  it('a build without one (an older ETL\'s) values from the store', async () => {
    const dir = copy('older');
    rmSync(join(dir, VALUATION_HOMES_FILE));
    const v = await open(dir);
    for (const u of uprns.slice(0, 200)) expect(v.value(u)).toEqual(heap.value(u));
  });

  it('refuses a file cut short, a keyed-rows file of another kind, and one that is not a keyed-rows file, naming it', async () => {
    const dir = copy('bad');
    const path = join(dir, VALUATION_HOMES_FILE);
    truncateSync(path, PAGE * 3);
    await expect(open(dir)).rejects.toThrow(BlockFileError);
    const other = new KeyedRowsWriter(path, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: true });
    other.add(1, [100]);
    other.finish();
    await expect(open(dir)).rejects.toThrow(/valuation-homes\.rows is not a valuation-homes file/);
    writeFileSync(path, Buffer.alloc(5000, 7));
    await expect(open(dir)).rejects.toThrow(/valuation-homes\.rows is not a keyed-rows file/);
  });

  it('a file truncated while open throws on the pages it lost; one renamed over it answers from the opened one', async () => {
    const dir = copy('changed');
    const path = join(dir, VALUATION_HOMES_FILE);
    const renamed = await open(dir, new BlockCache(2 * PAGE));
    writeFileSync(`${path}.other`, 'not the homes');
    renameSync(`${path}.other`, path);
    for (const u of uprns.slice(0, 300)) expect(renamed.value(u)).toEqual(heap.value(u));
    renamed.close();

    const dir2 = copy('truncated');
    const truncated = await open(dir2, new BlockCache(2 * PAGE));
    truncateSync(join(dir2, VALUATION_HOMES_FILE), PAGE);
    expect(() => truncated.value(uprns[uprns.length - 1]!)).toThrow(BlockFileError);
    truncated.close();
  });
});

describe('sale-evidence files that are missing, foreign, cut short or changed under them', () => {
  const evidenceFile = (values: Partial<SaleEvidenceExtra>, path: string) => {
    const extra = { kind: 'sale-evidence', cell_m: 250, as_of_month: heap.asOfMonth, size_beta: 0.2, type_log: [0, 0, 0, 0], age_log: Array(12).fill(0), sales: 1, ...values };
    const w = new KeyedRowsWriter(path, { key: { name: 'cell', kind: 'num' }, columns: [...SALE_EVIDENCE_COLUMNS], unique: false, extra });
    w.add(1, [0, 0, 1, heap.asOfMonth, 12, 12, 1, 1]);
    w.finish();
  };

  it('a build without them (an older ETL\'s) values with the evidence in the heap, the homes from their file', async () => {
    const dir = copy('no-evidence');
    rmSync(join(dir, SALE_EVIDENCE_FILE));
    rmSync(join(dir, SALE_EVIDENCE_POSTCODES_FILE));
    const v = await open(dir);
    expect(v.evidence).toBeInstanceOf(SaleEvidence);
    for (const u of uprns.slice(0, 300)) expect(v.value(u)).toEqual(heap.value(u));
    v.close();
  });

  it('refuses a cell file cut short, of another kind, not a keyed-rows file, of another month or model, and one without its postcodes file, naming it', async () => {
    const dir = copy('bad-evidence');
    const path = join(dir, SALE_EVIDENCE_FILE);
    const pcPath = join(dir, SALE_EVIDENCE_POSTCODES_FILE);
    truncateSync(path, PAGE);
    await expect(open(dir)).rejects.toThrow(BlockFileError);
    const other = new KeyedRowsWriter(path, { key: { name: 'cell', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: false });
    other.add(1, [100]);
    other.finish();
    await expect(open(dir)).rejects.toThrow(/sale-evidence\.rows is not a sale-evidence file/);
    writeFileSync(path, Buffer.alloc(5000, 7));
    await expect(open(dir)).rejects.toThrow(/sale-evidence\.rows is not a keyed-rows file/);
    evidenceFile({ as_of_month: heap.asOfMonth - 1 }, path);
    await expect(open(dir)).rejects.toThrow(new RegExp(`brings values to month ${heap.asOfMonth - 1}, the build's index to ${heap.asOfMonth}`));
    evidenceFile({ size_beta: 0.3 }, path);
    await expect(open(dir)).rejects.toThrow(/made with size elasticity 0\.3, the model's is 0\.2/);
    evidenceFile({ age_log: [0] }, path);
    await expect(open(dir)).rejects.toThrow(/its cell size, effects or sale count are missing/);
    evidenceFile({}, path);
    rmSync(pcPath);
    await expect(open(dir)).rejects.toThrow(/sale-evidence-postcodes\.rows is missing beside sale-evidence\.rows/);
    const foreign = new KeyedRowsWriter(pcPath, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: false });
    foreign.add(1, [100]);
    foreign.finish();
    await expect(open(dir)).rejects.toThrow(/sale-evidence-postcodes\.rows is not a sale-evidence postcodes file/);
    truncateSync(pcPath, 10);
    await expect(open(dir)).rejects.toThrow(BlockFileError);
  });

  it('a cell file truncated while open throws on the pages it lost; one renamed over it answers from the opened one', async () => {
    const dir = copy('evidence-changed');
    const path = join(dir, SALE_EVIDENCE_FILE);
    const renamed = await open(dir, new BlockCache(2 * PAGE));
    writeFileSync(`${path}.other`, 'not the evidence');
    renameSync(`${path}.other`, path);
    for (const u of uprns.slice(0, 300)) expect(renamed.value(u)).toEqual(heap.value(u));
    renamed.close();

    const dir2 = copy('evidence-truncated');
    const truncated = await open(dir2, new BlockCache(2 * PAGE));
    truncateSync(join(dir2, SALE_EVIDENCE_FILE), PAGE);
    // Some home's nearest sales lie past the first page.
    expect(() => {
      for (const u of uprns) truncated.value(u);
    }).toThrow(BlockFileError);
    truncated.close();
  });
});

describe('GET /valuations/{uprn}/sale on a build whose sale-evidence file is cut short', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const dir = join(s.dataDir, 'builds', buildId);
    cpSync(buildDir, dir, { recursive: true });
    truncateSync(join(dir, SALE_EVIDENCE_FILE), 3 * PAGE);
    symlinkSync(join('builds', buildId), join(s.dataDir, 'current.tmp'));
    renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 503 data_unavailable as problem+json, charging nothing', async () => {
    const { key } = await s.account('enterprise');
    const uprn = uprns[0]!;
    let r = await call(s.base, 'GET', `/v1/valuations/${uprn}/sale`, { key });
    for (let i = 0; i < 100 && r.status === 503 && /No published data build/.test(r.json.detail); i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await call(s.base, 'GET', `/v1/valuations/${uprn}/sale`, { key });
    }
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    expect(r.json.detail).toMatch(/GET \/valuations\/\{uprn\}\/sale/);
    expect(r.headers['x-credits-cost']).toBe('0');
  });
});

describe('GET /valuations/{uprn}/sale on a build whose valuation-homes file is cut short', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const dir = join(s.dataDir, 'builds', buildId);
    cpSync(buildDir, dir, { recursive: true });
    truncateSync(join(dir, VALUATION_HOMES_FILE), 3 * PAGE);
    symlinkSync(join('builds', buildId), join(s.dataDir, 'current.tmp'));
    renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 503 data_unavailable as problem+json, charging nothing; the property record answers with no estimate', async () => {
    const { key } = await s.account('enterprise');
    const uprn = uprns[0]!;
    let r = await call(s.base, 'GET', `/v1/valuations/${uprn}/sale`, { key });
    for (let i = 0; i < 100 && r.status === 503 && /No published data build/.test(r.json.detail); i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await call(s.base, 'GET', `/v1/valuations/${uprn}/sale`, { key });
    }
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    expect(r.json.detail).toMatch(/GET \/valuations\/\{uprn\}\/sale/);
    expect(r.headers['x-credits-cost']).toBe('0');
    const p = await call(s.base, 'GET', `/v1/properties/${uprn}`, { key });
    expect(p.status).toBe(200);
    expect(p.json.service_estimate).toBeNull();
  });
});
