/**
 * scripts/with-jemalloc.sh, the wrapper `npm run etl` and the ETL bench run through: it execs
 * the command (the same process, so a kill reaches the build) with jemalloc preloaded when
 * installed, glibc's malloc when asked, and refuses a setting it cannot honour. The build's
 * manifest says which allocator it ran on.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allocatorInUse } from '../../../etl/pipeline/allocator.ts';
import { readManifest } from '../../../etl/publish/publish.ts';
import { synthRegion } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const WRAPPER = join(ROOT, 'scripts/with-jemalloc.sh');
const tmp = tempDir('pi-allocator-');
afterAll(tmp.cleanup);

// libjemalloc2 (CI installs Debian's): the first of the places the wrapper looks that has it, if any.
const INSTALLED = ['/usr/lib/x86_64-linux-gnu/libjemalloc.so.2', '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2', '/usr/lib64/libjemalloc.so.2', '/usr/lib/libjemalloc.so.2']
  .find((f) => existsSync(f));
if (!INSTALLED) console.warn('libjemalloc2 is not installed: the wrapper is tested on its fallback to the system malloc only');

// A probe run through the wrapper: its own pid and whether a jemalloc library is mapped into it.
const PROBE = `const m = require('fs').readFileSync('/proc/self/maps', 'utf8'); process.stdout.write(JSON.stringify({ pid: process.pid, jemalloc: m.includes('libjemalloc'), conf: process.env.MALLOC_CONF ?? null }))`;
const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['ETL_MALLOC', 'ETL_JEMALLOC', 'LD_PRELOAD', 'MALLOC_CONF'].includes(k)));

function probe(env: Record<string, string> = {}) {
  const r = spawnSync('sh', [WRAPPER, process.execPath, '-e', PROBE], { env: { ...clean, ...env }, encoding: 'utf8' });
  return { pid: r.pid, status: r.status, stderr: r.stderr, out: r.status === 0 ? (JSON.parse(r.stdout) as { pid: number; jemalloc: boolean; conf: string | null }) : undefined };
}

describe('allocatorInUse', () => {
  it('reads jemalloc from a mapped libjemalloc, the system malloc otherwise', () => {
    const glibc = '7f2c1a000000-7f2c1a028000 r--p 00000000 fe:01 1321 /usr/lib/x86_64-linux-gnu/libc.so.6\n';
    const je = '7f2c1b000000-7f2c1b00c000 r--p 00000000 fe:01 1402 /usr/lib/x86_64-linux-gnu/libjemalloc.so.2\n';
    expect(allocatorInUse(glibc)).toBe('system');
    expect(allocatorInUse(glibc + je)).toBe('jemalloc');
    // A folder named like the library is not the library.
    expect(allocatorInUse('7f2c1b000000-7f2c1b00c000 r--p 00000000 fe:01 1402 /opt/libjemalloc.so.2/libc.so.6\n')).toBe('system');
    expect(allocatorInUse('')).toBe('system');
  });
});

describe('scripts/with-jemalloc.sh', () => {
  it('execs the command in its own process, with jemalloc when installed', () => {
    const r = probe();
    expect(r.status, r.stderr).toBe(0);
    expect(r.out!.pid).toBe(r.pid);
    expect(r.out!.jemalloc).toBe(INSTALLED !== undefined);
    // With jemalloc, its background purge at a 1 s decay (the 10M peak depends on it); nothing set without.
    expect(r.out!.conf).toBe(INSTALLED ? 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0' : null);
  });

  it('keeps a MALLOC_CONF already set', () => {
    const r = probe({ MALLOC_CONF: 'narenas:2' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.out!.conf).toBe('narenas:2');
  });

  it('keeps the system malloc with ETL_MALLOC=system', () => {
    const r = probe({ ETL_MALLOC: 'system' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.out!.jemalloc).toBe(false);
    expect(r.out!.conf).toBeNull();
  });

  it('ETL_MALLOC=jemalloc: jemalloc, or exit 2 saying it is not installed', () => {
    const r = probe({ ETL_MALLOC: 'jemalloc' });
    if (INSTALLED) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.out!.jemalloc).toBe(true);
    } else {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/ETL_MALLOC=jemalloc but libjemalloc\.so\.2 is not installed/);
    }
  });

  it('uses the library ETL_JEMALLOC names, and refuses one that is not there', () => {
    if (INSTALLED) {
      const r = probe({ ETL_JEMALLOC: INSTALLED, ETL_MALLOC: 'jemalloc' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.out!.jemalloc).toBe(true);
    }
    const missing = join(tmp.dir, 'libjemalloc.so.2');
    const r = probe({ ETL_JEMALLOC: missing });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`ETL_JEMALLOC=${missing}: no such readable file`);
    expect(r.out).toBeUndefined();
  });

  it('refuses an ETL_MALLOC it does not know, before running anything', () => {
    const r = probe({ ETL_MALLOC: 'tcmalloc' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('ETL_MALLOC must be auto, jemalloc or system, not "tcmalloc"');
    expect(r.out).toBeUndefined();
  });

  it('a build run through the wrapper, as `npm run etl` runs it, records the allocator in its manifest', async () => {
    const sources = await synthRegion(300, 7);
    const dataDir = join(tmp.dir, 'data');
    const r = spawnSync('sh', [WRAPPER, process.execPath, '--import', 'tsx', join(ROOT, 'etl/cli.ts'), 'run', '--sources', sources, '--data-dir', dataDir], { cwd: ROOT, env: clean, encoding: 'utf8' });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    const manifest = await readManifest(join(dataDir, 'current'));
    expect(manifest.quality.runtime).toEqual({ allocator: INSTALLED ? 'jemalloc' : 'system' });
  }, 240_000);
});
