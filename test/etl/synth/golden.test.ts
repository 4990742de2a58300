import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateRegion } from '../../../etl/synth/generate.ts';
import { fileDigests } from '../../support/file-digests.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * The generator's bytes are pinned: `golden/region-2000-42.sha256` holds the SHA-256 of every
 * file of a 2,000-address region with seed 42, as written by the single-threaded generator
 * before it was made parallel (26 Nov 2026, commit 2acb5bc). Any change to what is written,
 * however small, fails here; a deliberate change of the model regenerates the list
 * (`cd OUT && find . -type f | sort | sed 's|^./||' | xargs sha256sum`) and says why.
 */
const GOLDEN = join(import.meta.dirname, 'golden/region-2000-42.sha256');

const tmp = tempDir('pi-synth-golden-');
afterAll(tmp.cleanup);


function golden(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(GOLDEN, 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (m) out[m[2]!] = m[1]!;
  }
  return out;
}

const one = join(tmp.dir, 'one-thread');
const two = join(tmp.dir, 'two-threads');

beforeAll(async () => {
  await generateRegion({ out: one, addresses: 2000, seed: 42, threads: 1 });
  await generateRegion({ out: two, addresses: 2000, seed: 42, threads: 2 });
}, 120_000);

describe('golden bytes', () => {
  it('a 2,000-address region with seed 42 is byte for byte what the pinned digests say, file by file', () => {
    const want = golden();
    expect(Object.keys(want).length).toBe(107);
    expect(fileDigests(one)).toEqual(want);
  });

  it('two threads (a worker writing half the file groups) write the same bytes as one', () => {
    expect(fileDigests(two)).toEqual(golden());
  });
});
