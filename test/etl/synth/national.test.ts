import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSource } from '../../../etl/sources/io.ts';
import { FILES, generateRegion, sourceFiles, TRUTH, ZIPPED, type Manifest } from '../../../etl/synth/generate.ts';
import { TOWNS } from '../../../etl/synth/params.ts';
import { rng } from '../../../etl/synth/prng.ts';
import { planRegion } from '../../../etl/synth/region.ts';
import { UprnAllocator } from '../../../etl/synth/units.ts';
import { fileDigests } from '../../support/file-digests.ts';
import { tempDir } from '../../support/tmp.ts';

// Issue 46: a national-size region, its sources zipped where their publishers zip them.
const tmp = tempDir('pi-synth-national-');
afterAll(tmp.cleanup);

const GOLDEN = join(import.meta.dirname, 'golden/region-2000-42.sha256');
const golden = Object.fromEntries(readFileSync(GOLDEN, 'utf8').split('\n').filter(Boolean).map((l) => [l.slice(66), l.slice(0, 64)]));

async function sha256Of(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of await openSource(path)) h.update(c as Buffer);
  return h.digest('hex');
}

describe('the generator with its zip-shipped sources zipped', () => {
  const zipDir = join(tmp.dir, 'zip');
  let manifest: Manifest;
  beforeAll(async () => {
    ({ manifest } = await generateRegion({ out: zipDir, addresses: 2000, seed: 42, zip: true }));
  }, 120_000);

  it('writes each as a zip archive whose one member holds the pinned bytes of the plain file', async () => {
    const zipped = sourceFiles(true);
    for (const [k, z] of Object.entries(ZIPPED)) {
      const plain = FILES[k as keyof typeof FILES];
      expect(zipped[k as keyof typeof FILES]).toBe(`${z.archive}/${z.member}`);
      expect(await sha256Of(join(zipDir, z.archive, z.member)), plain).toBe(golden[plain]);
      expect(manifest.files[`${z.archive}/${z.member}`]!.bytes).toBeLessThan(readFileSync(join(zipDir, z.archive)).length + 1);
    }
  });

  it('writes every other file as the plain region does (the planted rows keyed by the member\'s path)', () => {
    const got = fileDigests(zipDir);
    const archives = new Set<string>(Object.values(ZIPPED).map((z) => z.archive));
    const plainOfZipped = new Set<string>(Object.keys(ZIPPED).map((k) => FILES[k as keyof typeof FILES]));
    const others = (d: Record<string, string>, skip: Set<string>) =>
      Object.fromEntries(Object.entries(d).filter(([p]) => !skip.has(p) && p !== 'manifest.json' && p !== TRUTH.expectedRejects));
    expect(others(got, archives)).toEqual(others(golden, plainOfZipped));
    const rejects = JSON.parse(readFileSync(join(zipDir, TRUTH.expectedRejects), 'utf8')) as Record<string, unknown>;
    for (const [k, z] of Object.entries(ZIPPED)) {
      expect(rejects[`${z.archive}/${z.member}`], k).toBeDefined();
      expect(rejects[FILES[k as keyof typeof FILES]]).toBeUndefined();
    }
  });
});

describe('the national mix', () => {
  const REAL = { E: 25_000_000, W: 1_450_000, S: 2_700_000 };
  const total = REAL.E + REAL.W + REAL.S;

  it('plans 30 million homes with England, Wales and Scotland in proportion to their dwellings, each district code once', () => {
    const plan = planRegion(30_000_000, 'national');
    const byCountry = { E: 0, W: 0, S: 0 };
    for (const d of plan) byCountry[d.town.country] += d.quota;
    expect(byCountry.E + byCountry.W + byCountry.S).toBe(30_000_000);
    for (const c of ['E', 'W', 'S'] as const) expect(Math.abs(byCountry[c] / 30_000_000 - REAL[c] / total), c).toBeLessThan(0.0005);
    expect(new Set(plan.map((d) => d.code)).size).toBe(plan.length);
    for (const d of plan) {
      expect(d.code).toMatch(/^[A-Z]{1,2}[0-9]{1,2}[A-Z]?$/);
      expect(d.quota).toBeLessThanOrEqual(50_000);
    }
    // Bristol runs on into its overflow areas once BS has 99 districts.
    expect(new Set(plan.filter((d) => d.town.key === 'bristol').map((d) => /^[A-Z]+/.exec(d.code)![0]))).toEqual(new Set(['BS', 'BA', 'TA', 'SN']));
  });

  it('never gives a ring district a code the town already has (Cardiff\'s CF23 and CF24 were given twice from 1.6 million addresses)', () => {
    for (const n of [2_000_000, 10_000_000]) {
      const plan = planRegion(n);
      expect(new Set(plan.map((d) => d.code)).size, String(n)).toBe(plan.length);
    }
  });

  it('refuses more addresses than the mix holds, saying how many it does', () => {
    expect(() => planRegion(38_500_000, 'national')).toThrow(/too many addresses for \w+: the region holds at most about 3\d{7}/);
  });

  it('a small national region has its homes in the three countries in proportion', async () => {
    const out = join(tmp.dir, 'national');
    await generateRegion({ out, addresses: 4000, seed: 5, mix: 'national' });
    const rows = readFileSync(join(out, TRUTH.properties), 'utf8').trim().split('\n').slice(1);
    const country = rows.map((r) => r.split(',')[4]);
    expect(rows.length).toBe(4000);
    const share = (c: string) => country.filter((x) => x === c).length / rows.length;
    expect(Math.abs(share('E') - REAL.E / total)).toBeLessThan(0.001);
    expect(Math.abs(share('W') - REAL.W / total)).toBeLessThan(0.001);
    expect(Math.abs(share('S') - REAL.S / total)).toBeLessThan(0.001);
  }, 120_000);

  it('refuses a mix it does not know', async () => {
    await expect(generateRegion({ out: join(tmp.dir, 'bad'), addresses: 10, seed: 1, mix: 'world' as never })).rejects.toThrow(/mix must be demo or national, got world/);
  });

  it('a town whose homes would run past its UPRN range into the next town\'s fails, rather than share UPRNs', () => {
    const stroud = TOWNS.find((t) => t.key === 'stroud')!;
    const bristolBase = TOWNS.find((t) => t.key === 'bristol')!.uprnBase;
    const near = { ...stroud, uprnBase: bristolBase - 20 };
    const uprns = new UprnAllocator();
    const r = rng(1, 'uprn-test');
    expect(() => { for (let i = 0; i < 25; i++) uprns.take(near, r); }).toThrow(/stroud has run out of UPRNs/);
  });
});

describe('synth CLI: --mix and --zip', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'etl/synth/cli.ts', ...args], { cwd: join(import.meta.dirname, '../../..'), encoding: 'utf8' });

  it('refuses an unknown mix and more addresses than the mix holds, with the usage and exit code 2', () => {
    const bad = cli('--out', join(tmp.dir, 'cli'), '--addresses', '10', '--seed', '1', '--mix', 'world');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--mix must be demo or national, got "world"/);
    const many = cli('--out', join(tmp.dir, 'cli'), '--addresses', '25000000', '--seed', '1');
    expect(many.status).toBe(2);
    expect(many.stderr).toMatch(/too many addresses for cardiff/);
    expect(many.stderr).toMatch(/usage: npm run synth/);
  }, 60_000);
});
