/**
 * scripts/install-system-deps.sh's decisions, without installing or removing anything: the
 * files it checks are named by SYSTEM_DEPS (pointed at missing paths), and `apt-get` (and
 * `sudo`) are shims first on PATH that record each call; the apt-get shim "installs" by
 * creating the files listed in SHIM_CREATES.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/tmp.ts';

const { dir, cleanup } = tempDir('pi-sysdeps-');
afterAll(cleanup);
// Run a copy beside the shims: the not-root cases run as nobody, who may not reach the
// checkout (a clone under a 0700 folder, as `mktemp -d` makes).
const SCRIPT = join(dir, 'install-system-deps.sh');
copyFileSync(resolve(import.meta.dirname, '../../scripts/install-system-deps.sh'), SCRIPT);
chmodSync(SCRIPT, 0o755);

const bin = join(dir, 'bin');
const calls = join(dir, 'calls.log');
spawnSync('mkdir', ['-p', bin]);
const shim = (name: string, body: string) => {
  writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
};
shim('apt-get', `if [ "$1" = install ]; then echo "DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >> ${calls}; for f in $SHIM_CREATES; do touch "$f"; done; fi`);
shim('sudo', 'exec "$@"');

let n = 0;
function run(deps: string, opts: { creates?: string[]; asUser?: boolean; path?: string; env?: Record<string, string> } = {}) {
  writeFileSync(calls, '');
  // The not-root cases run as nobody: the shims and their log must be reachable.
  chmodSync(dir, 0o755);
  chmodSync(calls, 0o666);
  const env = { PATH: opts.path ?? `${bin}:/usr/bin:/bin`, SYSTEM_DEPS: deps, SHIM_CREATES: (opts.creates ?? []).join(' '), ...opts.env };
  const r = opts.asUser
    ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'bash', SCRIPT], { env, encoding: 'utf8' })
    : spawnSync('bash', [SCRIPT], { env, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr, calls: readFileSync(calls, 'utf8').split('\n').filter(Boolean) };
}
/** A fresh path that does not exist (yet). */
const missing = () => join(dir, `missing-${n++}`);
const existing = () => {
  const p = join(dir, `present-${n++}`);
  writeFileSync(p, '');
  return p;
};

describe('install-system-deps.sh', () => {
  it('every package has a file: no apt-get call at all (no network), exit 0', () => {
    const r = run(`chromium=${existing()} postgresql=${missing()}:${existing()}`);
    expect(r.status).toBe(0);
    expect(r.calls).toEqual([]);
  });

  it('missing packages: one update, then one non-interactive install of exactly those', () => {
    const a = missing();
    const b = missing();
    const r = run(`chromium=${a} postgresql=${existing()} libjemalloc2=${missing()}:${b}`, { creates: [a, b] });
    expect(r.status, r.stderr).toBe(0);
    expect(r.calls).toEqual(['apt-get update', 'apt-get install -y --no-install-recommends chromium libjemalloc2', 'DEBIAN_FRONTEND=noninteractive']);
    expect(existsSync(a) && existsSync(b)).toBe(true);
    // Run again: now present, so nothing is called.
    expect(run(`chromium=${a} libjemalloc2=${b}`).calls).toEqual([]);
  });

  it('a package whose file is still missing after the install: exit 1 naming it', () => {
    const r = run(`chromium=${missing()}`);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/chromium was installed but .* is still missing/);
  });

  it('PI_TEST_NO_CHROMIUM=1 and PI_TEST_NO_POSTGRES=1 leave those packages out (their tests skip)', () => {
    const j = missing();
    const r = run(`chromium=${missing()} postgresql=${missing()} libjemalloc2=${j}`, { creates: [j], env: { PI_TEST_NO_CHROMIUM: '1', PI_TEST_NO_POSTGRES: '1' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.calls).toEqual(['apt-get update', 'apt-get install -y --no-install-recommends libjemalloc2', 'DEBIAN_FRONTEND=noninteractive']);
    expect(run(`chromium=${missing()}`, { env: { PI_TEST_NO_CHROMIUM: '1' } }).calls).toEqual([]);
  });

  it('a malformed SYSTEM_DEPS entry: exit 2 before any apt-get', () => {
    const r = run('chromium');
    expect(r.status).toBe(2);
    expect(r.calls).toEqual([]);
  });

  const setpriv = spawnSync('setpriv', ['--version']).status === 0;
  if (!setpriv || process.getuid?.() !== 0) console.warn('install-system-deps: the not-root cases are skipped (they need root and setpriv to drop to another user)');
  it.skipIf(!setpriv || process.getuid?.() !== 0)('not root: through sudo; without sudo, exit 1 saying what to install', () => {
    const a = join('/tmp', `pi-sysdeps-${process.pid}-${n++}`);
    const viaSudo = run(`chromium=${a}`, { asUser: true, creates: [a] });
    expect(viaSudo.status, viaSudo.stderr).toBe(0);
    expect(viaSudo.calls.slice(0, 2)).toEqual(['sudo apt-get update', 'apt-get update']);
    spawnSync('rm', ['-f', a]);
    const noSudo = run(`chromium=${a}`, { asUser: true, path: '/usr/bin:/bin' });
    expect(noSudo.status).toBe(1);
    expect(noSudo.stderr).toContain('apt-get install chromium');
  });
});
