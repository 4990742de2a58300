import { copyFileSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { searchIndexStage } from '../../../etl/stages/30-serving/10-search-index/stage.ts';
import { BlockCache, BlockFileError } from '../../../lib/files/block-file.ts';
import { readSearchIndex, writeSearchIndex, type SearchIndexData } from '../../../lib/files/search-index-format.ts';
import { openPagedSearchIndex } from '../../../lib/files/search-index-paged.ts';
import { writeSectionsFile } from '../../../lib/files/sections-file.ts';
import { SearchIndex, type Ranked } from '../../../service/search/engine.ts';
import { loadTruth, relevanceQueries } from '../../support/search-relevance.ts';
import { stagedContext } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * The search index read where it lies (lib/files/search-index-paged.ts, issue 46) must rank
 * every query exactly as the index read whole into the heap does (the reference: the same file
 * through `readSearchIndex`), whatever its block cache evicts, and with the candidate pass's
 * sparse scratch; and a file that is not a whole search index fails with a clear error, never an
 * answer from partial data.
 */
let ctx: BuildContext;
let path: string;
let heap: SearchIndex;
let queries: string[];
const { dir, cleanup } = tempDir('pi-search-paged-');
const noCache = () => new LRUCache<string, Ranked>({ max: 1 });

beforeAll(async () => {
  ctx = await stagedContext(2000, 11);
  await searchIndexStage.run(ctx);
  path = join(ctx.buildDir, 'search-index.bin');
  heap = new SearchIndex(readSearchIndex(path), noCache());
  const truth = await loadTruth(ctx.conn);
  // Queries as users type them, every keystroke of 30 addresses, postcode prefixes and odd input.
  const typed = truth.slice(0, 30).flatMap((t) => Array.from({ length: t.address.length - 2 }, (_, k) => t.address.slice(0, k + 3).toLowerCase()));
  const postcodes = truth.slice(0, 40).flatMap((t) => [t.postcode, t.postcode.slice(0, 2), t.postcode.split(' ')[0]!, `32 ${t.postcode}`]);
  queries = [...relevanceQueries(truth, 1500).map((q) => q.q), ...typed, ...postcodes, 'road', 'flat 2', '1', 'zzzzqqq', 'the the the', 'b', 'st'];
}, 240_000);
afterAll(() => {
  ctx?.conn.closeSync();
  cleanup();
});

/** Each query's 50 best hits, whole (UPRN, address, postcode, point, score), as the in-heap index gives them. */
function expectSameRanking(index: SearchIndex, every = 1): void {
  let differing = 0;
  for (const q of queries.filter((_, i) => i % every === 0)) if (JSON.stringify(index.search(q, 50)) !== JSON.stringify(heap.search(q, 50))) differing++;
  expect(differing).toBe(0);
}

describe('the search index read where it lies', () => {
  it('ranks every query as the in-heap index does, with a block cache larger than the file', () => {
    const index = SearchIndex.paged(path, new BlockCache(16 * 1048576), noCache());
    expect(queries.length).toBeGreaterThan(2000);
    expect(index.n).toBe(heap.n);
    expect(index.vocabularySize).toBe(heap.vocabularySize);
    expectSameRanking(index);
    // The answers are not empty: the comparison is of real rankings.
    expect(heap.search('road', 50)).toHaveLength(50);
    index.close();
  });

  it('ranks alike with a cache of eight 1 KB blocks (evicting all the time) and a posting-list cache of one list', () => {
    const pages = new BlockCache(8 * 1024, 1024);
    const index = new SearchIndex(openPagedSearchIndex(path, pages, 4096), noCache());
    expectSameRanking(index, 2);
    expect(pages.stats.misses).toBeGreaterThan(5_000);
    index.close();
  });

  it('ranks alike with the sparse candidate scratch, paged and in the heap', () => {
    const paged = SearchIndex.paged(path, new BlockCache(1048576), noCache(), { scratch: 'sparse' });
    expectSameRanking(paged, 2);
    expectSameRanking(new SearchIndex(readSearchIndex(path), noCache(), { scratch: 'sparse' }), 2);
    paged.close();
  });

  it('keeps answering from the opened file when another is renamed over it', () => {
    const own = join(dir, 'renamed.bin');
    copyFileSync(path, own);
    const index = SearchIndex.paged(own, new BlockCache(64 * 1024, 1024), noCache());
    const before = queries.slice(0, 300).map((q) => JSON.stringify(index.search(q, 10)));
    // A different index (the first 300 rows only) published over the path, as a new build's file would be.
    const other = join(dir, 'other.bin');
    const d = readSearchIndex(path);
    writeSearchIndex(other, truncated(d, 300));
    renameSync(other, own);
    expect(queries.slice(0, 300).map((q) => JSON.stringify(index.search(q, 10)))).toEqual(before);
    index.close();
    expect(() => index.search('zzzz road', 5)).toThrow(BlockFileError);
  });

  it('a file cut short after it was opened fails the query with a BlockFileError, never a partial answer', () => {
    const own = join(dir, 'cut.bin');
    copyFileSync(path, own);
    const index = SearchIndex.paged(own, new BlockCache(64 * 1024, 1024), noCache());
    expect(index.search(queries[0]!, 5).length).toBeGreaterThan(0);
    const pages = readFileSync(own).length;
    truncateSync(own, Math.floor(pages / 2));
    // Every query either fails clearly or answers as the whole file does (from blocks read before the cut).
    let failed = 0;
    for (const q of queries.slice(0, 500)) {
      let got: string;
      try {
        got = JSON.stringify(index.search(q, 50));
      } catch (e) {
        expect(e).toBeInstanceOf(BlockFileError);
        expect((e as Error).message).toMatch(/shorter than the \d+ bytes it had when opened/);
        failed++;
        continue;
      }
      expect(got).toBe(JSON.stringify(heap.search(q, 50)));
    }
    expect(failed).toBeGreaterThan(0);
    index.close();
  });

  it('refuses at open a file that is not a search index, is cut short, or whose sections disagree', () => {
    const pages = new BlockCache(1048576);
    const open = (p: string) => () => SearchIndex.paged(p, pages, noCache());
    const bytes = readFileSync(path);
    const write = (name: string, b: Uint8Array) => {
      writeFileSync(join(dir, name), b);
      return join(dir, name);
    };
    expect(open(write('empty.bin', new Uint8Array(0)))).toThrow(/is not a search index \(PISRCH03\)/);
    expect(open(write('foreign.bin', Buffer.from('PIRECS01 something else entirely')))).toThrow(/is not a search index/);
    expect(open(write('header.bin', bytes.subarray(0, 40)))).toThrow(/truncated \(header\)/);
    expect(open(write('tail.bin', bytes.subarray(0, bytes.length - 8)))).toThrow(/truncated \(docWords\)/);
    expect(open(write('half.bin', bytes.subarray(0, bytes.length >> 1)))).toThrow(/truncated/);
    expect(open(join(dir, 'absent.bin'))).toThrow(/ENOENT/);
    // The right magic and shape but one section shorter than the addresses: refused, not read out of step.
    const d = readSearchIndex(path);
    const bad = join(dir, 'disagree.bin');
    writeSearchIndex(bad, { ...d, lat: d.lat.subarray(1) });
    expect(open(bad)).toThrow(/sections do not agree with each other \(lat\)/);
    writeSearchIndex(bad, { ...d, postings: d.postings.subarray(1) });
    expect(open(bad)).toThrow(/sections do not agree with each other \(postOff\)/);
    // A section of the wrong type, and a missing one.
    const sections = Object.entries(d).filter(([k]) => k !== 'n') as Array<[string, Uint32Array]>;
    writeSectionsFile(bad, 'PISRCH03', { n: d.n }, sections.map(([k, a]) => [k, k === 'pcOf' ? new Float64Array(a) : a] as [string, Uint32Array | Float64Array]));
    expect(open(bad)).toThrow(/section pcOf is f64, not u32/);
    writeSectionsFile(bad, 'PISRCH03', { n: d.n }, sections.filter(([k]) => k !== 'docWords'));
    expect(open(bad)).toThrow(/has no section docWords/);
    writeSectionsFile(bad, 'PISRCH03', {}, sections);
    expect(open(bad)).toThrow(/has no address count/);
    const garbled = Buffer.from(bytes);
    garbled.write('{{{{', 16, 'latin1');
    expect(open(write('garbled.bin', garbled))).toThrow(/header cannot be read/);
  });
});

/** The index of the first `n` addresses only (a different, smaller, valid index). */
function truncated(d: SearchIndexData, n: number): SearchIndexData {
  const pc = d.pcOf[n - 1]! + 1;
  const pcFirst = Uint32Array.from(d.pcFirst.subarray(0, pc + 1), (v) => Math.min(v, n));
  const postings: number[] = [];
  const postOff = new Uint32Array(d.postOff.length);
  for (let w = 0; w + 1 < d.postOff.length; w++) {
    for (let i = d.postOff[w]!; i < d.postOff[w + 1]!; i++) if (d.postings[i]! < n) postings.push(d.postings[i]!);
    postOff[w + 1] = postings.length;
  }
  return {
    ...d, n, uprn: d.uprn.subarray(0, n), lat: d.lat.subarray(0, n), lng: d.lng.subarray(0, n),
    addrOff: d.addrOff.subarray(0, n + 1), addrBytes: d.addrBytes.subarray(0, d.addrOff[n]), pcOf: d.pcOf.subarray(0, n),
    pcFirst, pcOff: d.pcOff.subarray(0, pc + 1), pcBytes: d.pcBytes.subarray(0, d.pcOff[pc]),
    postOff, postings: Uint32Array.from(postings), docOff: d.docOff.subarray(0, n + 1), docWords: d.docWords.subarray(0, d.docOff[n]),
  };
}
