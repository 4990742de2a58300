import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Lazy } from '../../service/build/lazy.ts';
import { fileDataSource, type DataSource, type BuildInfo } from '../../service/build/source.ts';
import { startBuildWarmer } from '../../service/build/warmer.ts';
import { createLogger } from '../../service/log.ts';
import { tempDir } from '../support/tmp.ts';

/** An open function the test releases by hand, to look at the resource while it is pending. */
function gatedOpen() {
  const pending: { resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  const open = () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
  return { open, pending };
}

describe('Lazy (one per-build resource)', () => {
  it('opens once however many ask, and closes what it opened', async () => {
    const { open, pending } = gatedOpen();
    const closed: string[] = [];
    const r = new Lazy<string>('index', open, (v) => void closed.push(v));
    const first = r.get();
    const second = r.get();
    expect(pending).toHaveLength(1);
    pending[0]!.resolve('index-a');
    expect(await first).toBe('index-a');
    expect(await second).toBe('index-a');
    expect(await r.isOpen()).toBe(true);
    await r.close();
    expect(closed).toEqual(['index-a']);
    await expect(r.get()).rejects.toThrow(/closed/);
  });

  it('a failed open is retried by the next request', async () => {
    let fail = true;
    let opens = 0;
    const r = new Lazy<string>('index', async () => {
      opens++;
      if (fail) throw new Error('no index file');
      return 'index';
    });
    await expect(r.get()).rejects.toThrow('no index file');
    expect(await r.isOpen()).toBe(false);
    fail = false;
    expect(await r.get()).toBe('index');
    expect(opens).toBe(2);
  });

  it('closing a resource never opened opens nothing', async () => {
    let opens = 0;
    const r = new Lazy<string>('index', async () => `x${++opens}`);
    await r.close();
    expect(opens).toBe(0);
  });
});

const tmp = tempDir('pi-resources-');
afterAll(tmp.cleanup);

/** A build folder with a manifest and nothing else: every resource fails to open, quickly. */
function emptyBuild(id: string): BuildInfo {
  const dir = join(tmp.dir, id);
  mkdirSync(dir, { recursive: true });
  const manifest = { build_id: id };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { id, dir, manifest };
}

describe('build warmer (which build a request gets)', () => {
  it('no build: no resources; then the opening build, then each published build once warmed; a roll-back reuses the open one', async () => {
    let current: BuildInfo | undefined;
    const data: DataSource = { current: () => current };
    const logs: string[] = [];
    const warmer = startBuildWarmer(data, createLogger('info', { write: (l: string) => void logs.push(l) }), 60_000, 60_000);
    try {
      expect(warmer.resources()).toBeUndefined();
      current = emptyBuild('a');
      const a = warmer.resources()!;
      expect(a.build.id).toBe('a'); // before the first warm-up finishes: the opening build
      await warmer.idle();
      expect(warmer.resources()).toBe(a);
      current = emptyBuild('b');
      const during = warmer.resources();
      await warmer.idle();
      const b = warmer.resources()!;
      expect(b.build.id).toBe('b');
      expect([a, b]).toContain(during);
      current = emptyBuild('a'); // roll-back within the grace period
      expect(warmer.resources()).toBe(a);
      // Each build's missing files are reported by resource name, and the build serves anyway.
      const failures = logs.map((l) => JSON.parse(l) as { msg: string; build_id?: string; resource?: string }).filter((l) => l.msg === 'per-build resource did not open');
      for (const id of ['a', 'b']) {
        const names = failures.filter((f) => f.build_id === id).map((f) => f.resource);
        expect(names, id).toEqual(expect.arrayContaining(['search index', 'property records']));
      }
    } finally {
      await warmer.close();
    }
  });

  it('reads builds through fileDataSource', () => {
    expect(fileDataSource(join(tmp.dir, 'nowhere')).current()).toBeUndefined();
  });
});
