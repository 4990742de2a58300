import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newBuildId } from '../../../etl/publish/layout.ts';
import { beginBuild, currentBuildId, promoteBuild, pruneBuilds, readManifest, writeManifest } from '../../../etl/publish/publish.ts';
import type { ManifestInput as Manifest } from '../../../schemas/manifest.ts';
import { tempDir } from '../../support/tmp.ts';

let cleanups: (() => void)[] = [];
afterEach(() => { cleanups.forEach((c) => c()); cleanups = []; });
function dataDir(): string {
  const t = tempDir('pi-publish-');
  cleanups.push(t.cleanup);
  return t.dir;
}

function manifestFor(id: string): Manifest {
  return {
    build_id: id, created_at: '2026-01-01T00:00:00.000Z', schema_version: 1, sources: [],
    tables: { t: { file: 't.parquet', rows: 1, bytes: 4, sort_key: ['k'] } },
    match_rates: {}, stage_timings_ms: {}, quality: {},
  };
}

async function publishOne(dir: string, at: Date): Promise<string> {
  const b = await beginBuild(dir, at);
  writeFileSync(join(b.dir, 't.parquet'), 'data');
  await writeManifest(b.dir, manifestFor(b.id));
  await promoteBuild(dir, b.id);
  return b.id;
}

describe('publish', () => {
  it('makes build ids that sort in creation order, to the millisecond', () => {
    const a = newBuildId(new Date('2026-01-01T10:00:00.001Z'), 0x3fff);
    const b = newBuildId(new Date('2026-01-01T10:00:00.002Z'), 0);
    const c = newBuildId(new Date('2026-01-01T10:00:00.999Z'), 0x1234);
    expect([c, b, a].sort()).toEqual([a, b, c]);
    expect(a).toMatch(/^20260101T100000Z-[0-9a-f]{6}$/);
    expect(c).toMatch(/^20260101T100000Z-[0-9a-f]{6}$/);
  });

  it('has no current build before the first publish', async () => {
    expect(await currentBuildId(dataDir())).toBeUndefined();
  });

  it('promotes a build and points current at it with a relative link', async () => {
    const dir = dataDir();
    const id = await publishOne(dir, new Date('2026-01-01T10:00:00Z'));
    expect(id).toMatch(/^20260101T100000Z-[0-9a-f]{6}$/);
    expect(await currentBuildId(dir)).toBe(id);
    expect(readlinkSync(join(dir, 'current'))).toBe(`builds/${id}`);
    expect((await readManifest(join(dir, 'current'))).build_id).toBe(id);
    expect(existsSync(join(dir, 'builds', `${id}.partial`))).toBe(false);
  });

  it('a reader never finds current missing or incomplete while builds are promoted (the switch is atomic)', async () => {
    const dir = dataDir();
    await publishOne(dir, new Date('2026-01-01T10:00:00Z'));
    let done = false;
    let reads = 0;
    const misses: string[] = [];
    // Reads interleave with every await of every promotion (the same event loop).
    const reader = (async () => {
      while (!done) {
        try {
          await readManifest(join(dir, 'current'));
        } catch (e) {
          misses.push((e as Error).message);
        }
        reads++;
      }
    })();
    for (let i = 1; i <= 30; i++) await publishOne(dir, new Date(Date.UTC(2026, 0, 1, 10, 0, i)));
    done = true;
    await reader;
    expect(misses).toEqual([]);
    expect(reads, 'the reader ran during the promotions').toBeGreaterThan(30);
  });

  it('refuses to promote a build without a manifest and leaves current alone', async () => {
    const dir = dataDir();
    const first = await publishOne(dir, new Date('2026-01-01T10:00:00Z'));
    const b = await beginBuild(dir, new Date('2026-01-02T10:00:00Z'));
    await expect(promoteBuild(dir, b.id)).rejects.toThrow(/ENOENT|manifest/);
    expect(await currentBuildId(dir)).toBe(first);
  });

  it('refuses a manifest that fails its schema or names another build', async () => {
    const dir = dataDir();
    const b = await beginBuild(dir, new Date('2026-01-01T10:00:00Z'));
    await expect(writeManifest(b.dir, { ...manifestFor(b.id), build_id: 'nope' })).rejects.toThrow();
    writeFileSync(join(b.dir, 't.parquet'), 'data');
    const otherId = b.id.replace(/-[0-9a-f]{6}$/, b.id.endsWith('000000') ? '-ffffff' : '-000000');
    await writeManifest(b.dir, manifestFor(otherId));
    await expect(promoteBuild(dir, b.id)).rejects.toThrow(/does not match/);
    expect(await currentBuildId(dir)).toBeUndefined();
  });

  it('refuses a build whose table file is missing or truncated', async () => {
    const dir = dataDir();
    const b = await beginBuild(dir, new Date('2026-01-01T10:00:00Z'));
    await writeManifest(b.dir, manifestFor(b.id));
    await expect(promoteBuild(dir, b.id)).rejects.toThrow(/t.parquet is missing/);
    writeFileSync(join(b.dir, 't.parquet'), 'dat');
    await expect(promoteBuild(dir, b.id)).rejects.toThrow(/has 3 bytes, manifest says 4/);
    expect(await currentBuildId(dir)).toBeUndefined();
  });

  it('verifies artifacts like tables', async () => {
    const dir = dataDir();
    const b = await beginBuild(dir, new Date('2026-01-01T10:00:00Z'));
    writeFileSync(join(b.dir, 't.parquet'), 'data');
    await writeManifest(b.dir, { ...manifestFor(b.id), artifacts: { idx: { file: 'idx.bin', bytes: 2, description: 'index' } } });
    await expect(promoteBuild(dir, b.id)).rejects.toThrow(/artifact idx: idx.bin is missing/);
    writeFileSync(join(b.dir, 'idx.bin'), 'ix');
    await promoteBuild(dir, b.id);
    expect(await currentBuildId(dir)).toBe(b.id);
  });

  it('keeps the newest three builds and removes interrupted partial builds', async () => {
    const dir = dataDir();
    const ids: string[] = [];
    for (let d = 1; d <= 5; d++) ids.push(await publishOne(dir, new Date(`2026-01-0${d}T10:00:00Z`)));
    const stale = await beginBuild(dir, new Date('2026-01-06T10:00:00Z'));
    const { removed } = await pruneBuilds(dir, 3);
    expect(removed).toContain(`${stale.id}.partial`);
    expect(readdirSync(join(dir, 'builds')).sort()).toEqual(ids.slice(2).sort());
    expect(await currentBuildId(dir)).toBe(ids[4]);
  });
});
