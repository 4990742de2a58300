import { cpSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuild } from '../../etl/pipeline/run.ts';
import { discoverSources } from '../../etl/pipeline/discover.ts';
import { currentBuildId, verifyBuild } from '../../etl/publish/publish.ts';
import { SOURCES } from '../../etl/sources/index.ts';
import { FILES, sourceFiles, ZIPPED } from '../../etl/synth/generate.ts';
import { quietLog, synthRegion } from '../support/region.ts';
import { stageWith } from '../support/staging-paths.ts';
import { tempDir } from '../support/tmp.ts';

// The same region written plain and with its zip-shipped sources zipped (issue 46) must build
// the same tables: the plain build is the expectation, read by the readers as before.
const tmp = tempDir('pi-zip-region-');
afterAll(tmp.cleanup);

const ADDRESSES = 2000;
const SEED = 11;
const zipped = sourceFiles(true);
const toPlain = new Map(Object.entries(zipped).map(([k, rel]) => [rel, FILES[k as keyof typeof FILES]]));

/** A copy of the zipped region to damage. */
async function copyOfZipped(name: string): Promise<string> {
  const dir = join(tmp.dir, name);
  cpSync(await synthRegion(ADDRESSES, SEED, { zip: true }), dir, { recursive: true });
  return dir;
}

describe('a region with its sources zipped as their publishers ship them', () => {
  it('builds the same tables with the same row counts, and each source the same rows and rejects, as the region written plain', async () => {
    const plain = await runBuild({ dataDir: join(tmp.dir, 'plain'), sourcesDir: await synthRegion(ADDRESSES, SEED), log: quietLog });
    const zip = await runBuild({ dataDir: join(tmp.dir, 'zip'), sourcesDir: await synthRegion(ADDRESSES, SEED, { zip: true }), log: quietLog });
    const rows = (m: typeof plain.manifest) => Object.fromEntries(Object.entries(m.tables).map(([t, v]) => [t, v.rows]));
    expect(rows(zip.manifest)).toEqual(rows(plain.manifest));
    expect(zip.manifest.tables.properties!.rows).toBe(ADDRESSES);
    const bySource = (m: typeof plain.manifest, rename: (p: string) => string) =>
      Object.fromEntries(m.sources.map((s) => [rename(s.path), { kind: s.name, rows: s.rows_read, rejected: s.rejected_by_reason, as_of: s.as_of }]));
    expect(bySource(zip.manifest, (p) => toPlain.get(p) ?? p)).toEqual(bySource(plain.manifest, (p) => p));
    // The zipped sources were read from their archives' members.
    const paths = zip.manifest.sources.map((s) => s.path);
    for (const z of Object.values(ZIPPED)) expect(paths).toContain(`${z.archive}/${z.member}`);
    await verifyBuild(join(tmp.dir, 'zip', 'current'));
  }, 300_000);

  it('stages each zipped member of a kind with a native path natively (through a pipe, no fallback), with the TS readers\' rows', async () => {
    const dir = await synthRegion(ADDRESSES, SEED, { zip: true });
    const { files } = await discoverSources(dir, SOURCES);
    const members = files.filter((f) => f.rel.includes('.zip/'));
    expect(members.map((f) => f.rel).sort()).toEqual(Object.values(ZIPPED).map((z) => `${z.archive}/${z.member}`).sort());
    const today = '2025-09-30';
    const native = await stageWith('native', members, today);
    const ts = await stageWith('ts', members, today);
    // ONSPD has no native path (its TS reader stages it either way); every other member is read by DuckDB.
    const noNative = new Set<string>(SOURCES.filter((s) => !s.native).map((s) => s.kind));
    expect(native.fallbacks).toEqual(Object.fromEntries(members.filter((f) => noNative.has(f.kind)).map((f) => [f.rel, `no native path for ${f.kind}`])));
    expect(members.filter((f) => !noNative.has(f.kind))).toHaveLength(4);
    expect(native.reports).toEqual(ts.reports);
    expect(native.rows).toEqual(ts.rows);
  }, 120_000);

  it('writes each zipped source smaller than its plain file', async () => {
    const plain = await synthRegion(ADDRESSES, SEED);
    const zip = await synthRegion(ADDRESSES, SEED, { zip: true });
    for (const [k, z] of Object.entries(ZIPPED)) {
      const plainBytes = statSync(join(plain, FILES[k as keyof typeof FILES])).size;
      expect(statSync(join(zip, z.archive)).size, z.archive).toBeLessThan(plainBytes / 2);
    }
  }, 120_000);
});

describe('a damaged compressed source fails the build clearly, and the previous build stays', () => {
  const damaged = async (name: string, damage: (dir: string) => void, message: RegExp) => {
    const dir = await copyOfZipped(name);
    const dataDir = join(tmp.dir, `data-${name}`);
    const first = await runBuild({ dataDir, sourcesDir: dir, log: quietLog });
    damage(dir);
    await expect(runBuild({ dataDir, sourcesDir: dir, log: quietLog })).rejects.toThrow(message);
    expect(await currentBuildId(dataDir)).toBe(first.build_id);
    await verifyBuild(join(dataDir, 'current'));
  };
  /** Flips every bit of a run of bytes in the middle of a file (inside a zip's deflated member or a gzip's body). */
  const flipMiddle = (path: string) => {
    const b = readFileSync(path);
    for (let i = Math.floor(b.length / 2); i < Math.floor(b.length / 2) + 64; i++) b[i] = b[i]! ^ 0xff;
    writeFileSync(path, b);
  };

  it('a zip archive cut short (its central directory gone)', async () => {
    await damaged('zip-cut', (dir) => {
      const p = join(dir, ZIPPED.epc.archive);
      truncateSync(p, Math.floor(statSync(p).size / 2));
    }, /all-domestic-certificates\.zip: not a readable zip archive/);
  }, 300_000);

  it('a zip archive whose member\'s bytes are damaged', async () => {
    await damaged('zip-flip', (dir) => flipMiddle(join(dir, ZIPPED.epc.archive)), /all-domestic-certificates\.zip: member certificates\.csv (is damaged|cannot be read)/);
  }, 300_000);

  it('a gzip file cut short', async () => {
    await damaged('gz-cut', (dir) => {
      const p = join(dir, FILES.calendar);
      truncateSync(p, Math.floor(statSync(p).size / 2));
    }, /calendar\.csv\.gz: damaged gzip file/);
  }, 300_000);

  it('a gzip file whose bytes are damaged', async () => {
    await damaged('gz-flip', (dir) => flipMiddle(join(dir, FILES.reviews)), /reviews\.csv\.gz: damaged gzip file/);
  }, 300_000);
});
