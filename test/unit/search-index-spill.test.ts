import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildSearchIndex, type IndexRow } from '../../etl/stages/30-serving/10-search-index/build.ts';
import { writeSearchIndexSpilled, type SearchIndexSpillOptions } from '../../etl/stages/30-serving/10-search-index/write-spilled.ts';
import { readSearchIndexBuffer, writeSearchIndex } from '../../lib/files/search-index-format.ts';
import { tempDir } from '../support/tmp.ts';
import { seededRandom } from '../support/chaos.ts';

/**
 * The search index written with its per-address sections spilled to temporary files
 * (write-spilled.ts) must be the bytes the in-memory build writes (buildSearchIndex, then
 * writeSearchIndex: the reference), whatever the buffer size and the postings pass budget,
 * and leave no temporary file behind.
 */

const random = seededRandom; // mulberry32: a failure replays

const STREETS = ['HIGH STREET', 'GLOUCESTER ROAD', 'ST. MARY\'S ROAD', 'CHURCH LANE', 'THE AVENUE', 'RUE DE L\'ÉGLISE', 'MILL LANE', 'STATION ROAD', '12-14 PARK ROW'];
const TOWNS = ['BRISTOL', 'BATH', 'CARDIFF', 'WESTON-SUPER-MARE', 'CHIPPING SODBURY'];

/** `n` addresses over many postcodes, ordered by postcode then address: shared and repeated words, a number twice in one address, and addresses of the postcode alone (no words). */
function addresses(n: number, seed = 3): IndexRow[] {
  const r = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const rows = Array.from({ length: n }, (_, i): IndexRow => {
    const postcode = `${pick(['BS', 'BA', 'CF', 'GL'])}${1 + Math.floor(r() * 40)} ${Math.floor(r() * 10)}${pick(['AA', 'AB', 'DJ', 'ZZ', 'QT'])}`;
    const no = 1 + Math.floor(r() * 200);
    const kind = r();
    const address = kind < 0.01 ? postcode
      : kind < 0.2 ? `FLAT ${no}, ${no} ${pick(STREETS)}, ${pick(TOWNS)}, ${postcode}`
      : kind < 0.25 ? `${pick(['ROSE COTTAGE', 'THE OLD RECTORY', 'UNIT 4B'])}, ${pick(STREETS)}, ${pick(STREETS)}, ${pick(TOWNS)} ${postcode}`
      : `${no}${r() < 0.1 ? 'A' : ''} ${pick(STREETS)}, ${pick(TOWNS)}, ${postcode}`;
    return { uprn: 1e11 + i * 7, address, postcode, lat: 51 + r(), lng: -3 + r() };
  });
  return rows.sort((a, b) => (a.postcode < b.postcode ? -1 : a.postcode > b.postcode ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

const dir = () => {
  const t = tempDir('pi-search-spill-');
  onTestFinished(t.cleanup);
  return t.dir;
};

async function reference(rows: IndexRow[]): Promise<Buffer> {
  const path = join(dir(), 'ref.bin');
  writeSearchIndex(path, await buildSearchIndex(rows, rows.length));
  return readFileSync(path);
}

/** The spilled writer's file and passes, its spill folder checked empty after. */
async function spilled(rows: Iterable<IndexRow> | AsyncIterable<IndexRow>, n: number, opts: Omit<SearchIndexSpillOptions, 'spillDir'>): Promise<{ file: Buffer; passes: number }> {
  const base = dir();
  const spillDir = join(base, 'spill');
  mkdirSync(spillDir);
  const { passes, bytes } = await writeSearchIndexSpilled(join(base, 'out.bin'), rows, n, { ...opts, spillDir });
  expect(readdirSync(spillDir)).toEqual([]);
  const file = readFileSync(join(base, 'out.bin'));
  expect(bytes).toBe(file.length);
  return { file, passes };
}

async function* slowly(rows: IndexRow[]): AsyncGenerator<IndexRow> {
  for (const r of rows) yield r;
}

describe('search index written through spilled sections', () => {
  it('writes the in-memory build\'s bytes for 30,000 addresses, with default, tiny and middling buffers and pass budgets', async () => {
    const rows = addresses(30_000);
    expect(new Set(rows.map((r) => r.postcode)).size).toBeGreaterThan(5000);
    const want = await reference(rows);
    const whole = await spilled(rows, rows.length, {});
    expect(whole.file.equals(want)).toBe(true);
    expect(whole.passes).toBe(1);
    const tiny = await spilled(slowly(rows), rows.length, { bufferBytes: 64, postingsPassBytes: 256 << 10 });
    expect(tiny.file.equals(want)).toBe(true);
    expect(tiny.passes).toBeGreaterThan(2);
    const middling = await spilled(rows, rows.length, { bufferBytes: 4096, postingsPassBytes: 40 << 10 });
    expect(middling.file.equals(want)).toBe(true);
    expect(middling.passes).toBeGreaterThan(10);
  });

  it('writes the same bytes with a pass per word (a budget below any word\'s postings) and 8-byte buffers', async () => {
    const rows = addresses(300, 9);
    const want = await reference(rows);
    const words = readSearchIndexBuffer(want, 'ref').vocabOff.length - 1;
    expect(words).toBeGreaterThan(50);
    const { file, passes } = await spilled(rows, rows.length, { bufferBytes: 8, postingsPassBytes: 1 });
    expect(file.equals(want)).toBe(true);
    expect(passes).toBe(words);
  });

  it('writes the same bytes for no addresses and for addresses without words', async () => {
    expect((await spilled([], 0, { bufferBytes: 8 })).file.equals(await reference([]))).toBe(true);
    const bare: IndexRow[] = [{ uprn: 1, address: 'BS1 1AA', postcode: 'BS1 1AA', lat: 51, lng: -2 }, { uprn: 2, address: '', postcode: 'BS1 1AB', lat: 51, lng: -2 }];
    expect((await spilled(bare, 2, { bufferBytes: 8, postingsPassBytes: 1 })).file.equals(await reference(bare))).toBe(true);
  });

  it('refuses rows out of postcode order and a count unlike the one given, as the in-memory build does, leaving no temporary file', async () => {
    const rows = addresses(3000);
    const cases: Array<[IndexRow[], number]> = [[[...rows].reverse(), rows.length], [rows, rows.length + 1], [rows, rows.length - 1]];
    for (const [input, n] of cases) {
      const base = dir();
      const spillDir = join(base, 'spill');
      mkdirSync(spillDir);
      const want = await buildSearchIndex(input, n).then(() => 'no error', (e: Error) => e.message);
      expect(want).not.toBe('no error');
      await expect(writeSearchIndexSpilled(join(base, 'out.bin'), input, n, { spillDir, bufferBytes: 64 })).rejects.toThrow(want);
      expect(readdirSync(spillDir)).toEqual([]);
      expect(existsSync(join(base, 'out.bin'))).toBe(false);
    }
  });
});
