import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILES, generateRegion, LOCATED_DIRS, TRUTH } from '../../../etl/synth/generate.ts';
import { loadAreaIndex, loadTruthProperties, trueValueAt } from '../../../etl/synth/truth.ts';
import { fileDigests } from '../../support/file-digests.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-synth-det-');
afterAll(tmp.cleanup);


const a = join(tmp.dir, 'a');
const b = join(tmp.dir, 'b');
const c = join(tmp.dir, 'c');

beforeAll(async () => {
  await generateRegion({ out: a, addresses: 1500, seed: 42 });
  await generateRegion({ out: b, addresses: 1500, seed: 42 });
  await generateRegion({ out: c, addresses: 1500, seed: 43 });
}, 120_000);

describe('determinism', () => {
  it('the same seed writes byte-identical files, manifest included', () => {
    const ha = fileDigests(a);
    const located = Object.keys(ha).filter((f) => LOCATED_DIRS.some((d) => f.startsWith(d)));
    expect(located.length).toBeGreaterThan(60); // 13 crime months × 5 forces + 1, GIAS, the BLM files and the RTDF requests
    expect(Object.keys(ha).length - located.length).toBe(Object.keys(FILES).length + Object.keys(TRUTH).length + 1);
    expect(fileDigests(b)).toEqual(ha);
  });

  it('another seed writes different data', () => {
    const ha = fileDigests(a);
    const hc = fileDigests(c);
    for (const rel of Object.values(FILES)) expect(hc[rel], rel).not.toBe(ha[rel]);
  });

  it('the manifest records the seed, counts and checksums, and no wall-clock time', () => {
    const m = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8'));
    expect(m.seed).toBe(42);
    expect(m.addresses).toBe(1500);
    const ha = fileDigests(a);
    for (const [rel, f] of Object.entries(m.files) as [string, { sha256: string; bytes: number }][]) {
      expect(f.sha256).toBe(ha[rel]);
      expect(f.bytes).toBe(statSync(join(a, rel)).size);
    }
    expect(JSON.stringify(m)).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
  });
});

describe('ground truth', () => {
  it('trueValue over the exported index reproduces the true value recorded for every sale', async () => {
    const index = await loadAreaIndex(a);
    const props = await loadTruthProperties(a);
    const lines = readFileSync(join(a, TRUTH.sales), 'utf8').trim().split('\n');
    const h = lines[0]!.split(',');
    const [iU, iM, iT] = ['true_uprn', 'month', 'true_value'].map((k) => h.indexOf(k));
    let checked = 0;
    for (const l of lines.slice(1)) {
      const f = l.split(',');
      if (f[iU!] === '') continue;
      const p = props.get(Number(f[iU!]))!;
      const v = trueValueAt(p, f[iM!]!, index);
      expect(Math.abs(v - Number(f[iT!]))).toBeLessThanOrEqual(1 + 1e-5 * v);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('expected-rejects names only generated files', () => {
    const exp = JSON.parse(readFileSync(join(a, TRUTH.expectedRejects), 'utf8'));
    for (const rel of Object.keys(exp)) expect((Object.values(FILES) as string[]).includes(rel) || existsSync(join(a, rel)), rel).toBe(true);
  });
});

describe('CLI', () => {
  const root = resolve(import.meta.dirname, '../../..');
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(root, 'etl/synth/cli.ts'), ...args], { cwd: root, encoding: 'utf8' });

  it.each([
    [['--addresses', '10', '--seed', '1'], /--out is required/],
    [['--out', tmp.dir, '--seed', '1'], /--addresses is required/],
    [['--out', tmp.dir, '--addresses', 'ten', '--seed', '1'], /whole number/],
    [['--out', tmp.dir, '--addresses', '0', '--seed', '1'], /between 1 and/],
    [['--out', tmp.dir, '--addresses', '10', '--seed', '-3'], /seed|argument/i],
    [['--out', tmp.dir, '--addresses', '10', '--seed', '1', '--bogus'], /Unknown option/],
    [['--out', tmp.dir, '--addresses', '10', '--seed', '1', '--today', '30/09/2025'], /YYYY-MM-DD/],
  ])('refuses %j with a usage message and exit code 2', (args, msg) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).toMatch(/usage: npm run synth/);
  });

  it('generates and prints each file with rows and bytes, and the time taken', () => {
    const out = join(tmp.dir, 'cli');
    const r = run(['--out', out, '--addresses', '200', '--seed', '3']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/ppd\/pp-complete\.csv\s+\d+ rows\s+\d+ bytes/);
    expect(r.stdout).toMatch(/wrote \d+ files, \d+ rows, [\d.]+ MB into .* in [\d.]+ s/);
  });
});
