import { existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AreaIndex } from '../../../etl/synth/area-index.ts';
import { generateRegion } from '../../../etl/synth/generate.ts';
import { loadAreaIndex } from '../../../etl/synth/truth.ts';
import { dayOf, monthOf } from '../../../etl/synth/time.ts';
import { tempDir } from '../../support/tmp.ts';

const tmp = tempDir('pi-synth-err-');
afterAll(tmp.cleanup);

describe('synthetic region: error paths', () => {
  it('refuses a non-positive or fractional address count and an out-of-range seed', async () => {
    await expect(generateRegion({ out: tmp.dir, addresses: 0, seed: 1 })).rejects.toThrow(/addresses must be a positive integer/);
    await expect(generateRegion({ out: tmp.dir, addresses: 2.5, seed: 1 })).rejects.toThrow(/addresses must be a positive integer/);
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: -1 })).rejects.toThrow(/seed must be an integer/);
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 2 ** 32 })).rejects.toThrow(/seed must be an integer/);
  });

  it('refuses a thread count that is not a positive integer', async () => {
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 1, threads: 0 })).rejects.toThrow(/threads must be a positive integer/);
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 1, threads: 1.5 })).rejects.toThrow(/threads must be a positive integer/);
  });

  it('a lane that fails in its worker fails the whole region (and no manifest is written)', async () => {
    // ppd/ is a file, so the worker writing the Price Paid group cannot create its folder.
    const out = join(tmp.dir, 'worker-fails');
    mkdirSync(out);
    writeFileSync(join(out, 'ppd'), 'not a folder');
    await expect(generateRegion({ out, addresses: 300, seed: 1, threads: 2 })).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(existsSync(join(out, 'manifest.json'))).toBe(false);
  }, 60_000);

  it('refuses a today that is not a date', async () => {
    await expect(generateRegion({ out: tmp.dir, addresses: 10, seed: 1, today: 'yesterday' })).rejects.toThrow(/not a date/);
    expect(() => monthOf('2025')).toThrow(/not a date/);
    expect(() => dayOf('2025-xx-01')).toThrow(/not a date/);
  });

  it('the area index refuses unknown districts and series of the wrong length', () => {
    const idx = new AreaIndex(0, 11);
    expect(() => idx.set('BS1', new Float64Array(5))).toThrow(/wrong length/);
    idx.set('BS1', new Float64Array(12).fill(100));
    expect(idx.at('BS1', 50)).toBe(100); // clamped to the last month
    expect(() => idx.at('ZZ9', 3)).toThrow(/no index for district ZZ9/);
  });

  it('loading an empty truth index fails clearly', async () => {
    const dir = join(tmp.dir, 'empty');
    mkdirSync(join(dir, 'truth'), { recursive: true });
    writeFileSync(join(dir, 'truth/area-index.csv'), 'district,month,index\n');
    await expect(loadAreaIndex(dir)).rejects.toThrow(/empty area index/);
  });
});
