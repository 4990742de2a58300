import { DuckDBInstance } from '@duckdb/node-api';
import { copyFileSync, cpSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { DESIGNATIONS_FILE } from '../../lib/files/designations-file.ts';
import { PAGE } from '../../lib/files/keyed-rows-file.ts';
import { LOOKUP_FILES } from '../../lib/files/lookup-tables-format.ts';
import { BuildResources } from '../../service/build/resources.ts';
import { fileDataSource, type BuildInfo } from '../../service/build/source.ts';
import { LookupFileError } from '../../service/lookups/lookup-files.ts';
import { DesignationIndex, FileDesignations, loadDesignations, openDesignations, type DesignationFeature } from '../../service/records/designations.ts';
import { publishSynthBuild } from '../support/published.ts';
import { tempDir } from '../support/tmp.ts';
import { call, startTestServer, type TestServer } from './support.ts';
import { doctoredCopy } from '../support/doctored-build.ts';

/**
 * The features containing each UPRN read from the ETL's designations.rows (issue 46, ADR 0015
 * step 6) against the published table: every UPRN of a real ETL build, on a page cache far
 * smaller than the file; the in-heap index an older build is served from; the file's faults.
 */
const tmp = tempDir();
let build: BuildInfo;
/** Every row of the published table, by UPRN, read with DuckDB here: the expectation. */
const expected = new Map<number, DesignationFeature[]>();

beforeAll(async () => {
  await publishSynthBuild(join(tmp.dir, 'dd'));
  build = fileDataSource(join(tmp.dir, 'dd')).current()!;
  const db = await DuckDBInstance.create(':memory:');
  try {
    const conn = await db.connect();
    const rows = (await conn.runAndReadAll(`SELECT uprn::DOUBLE AS uprn, dataset, entity::DOUBLE AS entity, reference, name, flood_risk_level::DOUBLE AS flood_risk_level
      FROM read_parquet('${join(build.dir, 'uprn_designations.parquet')}') ORDER BY uprn, dataset, entity NULLS LAST, reference NULLS LAST`)).getRowObjectsJS();
    for (const r of rows) {
      const u = Number(r.uprn);
      const f = { dataset: r.dataset, entity: r.entity, reference: r.reference, name: r.name, flood_risk_level: r.flood_risk_level } as DesignationFeature;
      (expected.get(u) ?? expected.set(u, []).get(u)!).push(f);
    }
    conn.closeSync();
  } finally {
    db.closeSync();
  }
}, 300_000);
afterAll(() => tmp.cleanup());

/** A copy of the build with `doctor` applied to its folder and manifest (test/support/doctored-build.ts). */
const copyBuild = (name: string, doctor: (dir: string, manifest: Record<string, unknown>) => void): BuildInfo => doctoredCopy(build, tmp.dir, name, doctor);

describe('designations.rows: the features containing each UPRN, read where they lie', () => {
  it('the build lists the file; every UPRN of the table answers its features in order, on an 8-page cache; others none', async () => {
    expect(expected.size).toBeGreaterThan(50);
    expect((build.manifest.artifacts as Record<string, { file: string }>).designations?.file).toBe(DESIGNATIONS_FILE.file);
    const d = await openDesignations(build, new BlockCache(8 * PAGE));
    try {
      expect(d).toBeInstanceOf(FileDesignations);
      for (const [u, want] of expected) expect(d!.get(u), String(u)).toEqual(want);
      for (const u of [0, 1, Number.MAX_SAFE_INTEGER, Math.max(...expected.keys()) + 1]) expect(d!.get(u)).toEqual([]);
    } finally {
      d?.close();
    }
  });

  it('the same answers as the in-heap index an older build is served from', async () => {
    const heap = (await loadDesignations(build.dir))!;
    const file = (await openDesignations(build, new BlockCache(4 * PAGE)))!;
    try {
      for (const u of [...expected.keys(), 3, 5]) expect(file.get(u)).toEqual(heap.get(u));
    } finally {
      file.close();
    }
  });

  it('a build published before the file (its manifest lists none): the in-heap index', async () => {
    const b = copyBuild('older', (dir, m) => {
      delete (m.artifacts as Record<string, unknown>)[DESIGNATIONS_FILE.artifact];
      rmSync(join(dir, DESIGNATIONS_FILE.file));
    });
    const d = await openDesignations(b, new BlockCache(4 * PAGE));
    expect(d).toBeInstanceOf(DesignationIndex);
    const [u, want] = [...expected][0]!;
    expect(d!.get(u)).toEqual(want);
  });

  it('listed but missing, cut short, another kind of file or another table\'s: a clear error naming it', async () => {
    const open = (b: BuildInfo) => openDesignations(b, new BlockCache(4 * PAGE));
    const missing = copyBuild('missing', (dir) => unlinkSync(join(dir, DESIGNATIONS_FILE.file)));
    await expect(open(missing)).rejects.toThrow(LookupFileError);
    await expect(open(missing)).rejects.toThrow(/the designations file cannot be read: ENOENT.*designations\.rows/);
    const cut = copyBuild('cut', (dir) => {
      const f = join(dir, DESIGNATIONS_FILE.file);
      truncateSync(f, Math.floor(statSync(f).size / 2));
    });
    await expect(open(cut)).rejects.toThrow(/the designations file cannot be read: .*not a keyed-rows file, or was not finished/);
    const other = copyBuild('other-kind', (dir) => writeFileSync(join(dir, DESIGNATIONS_FILE.file), 'not a keyed-rows file at all'));
    await expect(open(other)).rejects.toThrow(/the designations file cannot be read/);
    const swapped = copyBuild('swapped', (dir) => copyFileSync(join(dir, LOOKUP_FILES.sales.file), join(dir, DESIGNATIONS_FILE.file)));
    await expect(open(swapped)).rejects.toThrow(/designations\.rows is not the designations table: it holds .*transaction_id/);
  });

  it('BuildResources opens it once for the risks and the planning index, and closes it with the build', async () => {
    const res = new BuildResources(build, { pageCacheBytes: 1 << 20 });
    const [risks, planning] = [await res.risks.get(), await res.planning.get()];
    expect(risks!.designations).toBe(planning!.designations);
    const [u, want] = [...expected][0]!;
    expect(risks!.designations.get(u)).toEqual(want);
    await res.close();
    expect(() => risks!.designations.get(u)).toThrow(/is closed/);
  }, 120_000);
});

describe('GET /risks/{uprn} and GET /flood-risk on a build whose designations file is cut short', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const dir = join(s.dataDir, 'builds', build.id);
    cpSync(build.dir, dir, { recursive: true });
    truncateSync(join(dir, DESIGNATIONS_FILE.file), 100);
    symlinkSync(join('builds', build.id), join(s.dataDir, 'current.tmp'));
    renameSync(join(s.dataDir, 'current.tmp'), join(s.dataDir, 'current'));
  }, 60_000);
  afterAll(async () => {
    await s?.stop();
  });

  it('answers 503 data_unavailable as problem+json, charging nothing; the property record still answers', async () => {
    const { key } = await s.account('enterprise');
    const uprn = [...expected.keys()][0]!;
    let r = await call(s.base, 'GET', `/v1/risks/${uprn}`, { key });
    for (let i = 0; i < 100 && r.status === 503 && /No published data build/.test(r.json.detail); i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      r = await call(s.base, 'GET', `/v1/risks/${uprn}`, { key });
    }
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(r.json).toMatchObject({ code: 'data_unavailable', status: 503 });
    expect(r.headers['x-credits-cost']).toBe('0');
    const f = await call(s.base, 'GET', `/v1/flood-risk?uprn=${uprn}`, { key });
    expect(f.status).toBe(503);
    expect(f.json).toMatchObject({ code: 'data_unavailable' });
    expect(f.headers['x-credits-cost']).toBe('0');
    const p = await call(s.base, 'GET', `/v1/properties/${uprn}`, { key });
    expect(p.status).toBe(200);
  });
});
