import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, type IndexRow } from '../../etl/stages/30-serving/10-search-index/build.ts';
import { SearchIndex } from '../../service/search/engine.ts';
import { readSearchIndex, writeSearchIndex } from '../../schemas/search-index-format.ts';
import { parseQuery } from '../../service/search/query.ts';
import { similarity, trigrams } from '../../service/search/trigram.ts';

const A = (uprn: number, address: string, postcode: string): IndexRow => ({ uprn, address: `${address}, ${postcode}`, postcode, lat: 51.4 + uprn / 1e6, lng: -2.5 });
const ROWS = [
  A(1, '32 GLOUCESTER ROAD, BRISTOL', 'BS7 8AA'),
  A(2, '32A GLOUCESTER ROAD, BRISTOL', 'BS7 8AA'),
  A(3, '34 GLOUCESTER ROAD, BRISTOL', 'BS7 8AB'),
  A(4, 'FLAT 3, 12 HIGH STREET, BATH', 'BA1 1AA'),
  A(5, 'FLAT 12, 3 HIGH STREET, BATH', 'BA1 1AB'),
  A(6, '12 HIGH STREET, BRISTOL', 'BS1 4DJ'),
  A(7, '5 SAINT JOHNS AVENUE, CARDIFF', 'CF10 1AA'),
  A(8, '12 HIGH STREET, CARDIFF', 'CF10 2BB'),
].sort((a, b) => (a.postcode + a.address < b.postcode + b.address ? -1 : 1));

const index = new SearchIndex(await buildSearchIndex(ROWS, ROWS.length));
const top = (q: string, n = 1) => index.search(q, n).map((m) => m.uprn);

describe('trigrams (pg_trgm)', () => {
  it('pads words with two spaces before and one after', () => {
    expect([...trigrams('cat')].sort()).toEqual(['  C', ' CA', 'AT ', 'CAT'].sort());
    expect(similarity(trigrams('word'), trigrams('word'))).toBe(1);
    expect(similarity(trigrams('word'), trigrams('other'))).toBe(0);
    expect(similarity(trigrams(''), trigrams(''))).toBe(0);
  });
});

describe('parseQuery', () => {
  it.each([
    ['32 gloucester rd bs7 8aa', 'BS7 8AA', ['32', 'GLOUCESTER', 'ROAD'], false],
    ['32 gloucester rd BS78AA', 'BS7 8AA', ['32', 'GLOUCESTER', 'ROAD'], false],
    ['bs7 8a', 'BS7 8A', [], false],
    ['high st bs1', 'BS1 ', ['HIGH', 'STREET'], false],
    ['12 high str', undefined, ['12', 'HIGH', 'STR'], true],
    ['12 high ', undefined, ['12', 'HIGH'], false],
  ])('%s', (q, pc, words, partial) => {
    const p = parseQuery(q);
    expect(p.postcodePrefix).toBe(pc);
    expect(p.words).toEqual(words);
    expect(p.partialLast).toBe(partial);
  });
});

describe('SearchIndex', () => {
  it('house numbers with letter suffixes match exactly: 32A is not 32', () => {
    expect(top('32a gloucester road')).toEqual([2]);
    expect(top('32 gloucester road')).toEqual([1]);
    expect(top('32 A gloucester road')).toEqual([2]);
  });

  it('flat and house numbers count in order: flat 3 of number 12 is not flat 12 of number 3', () => {
    expect(top('flat 3 12 high street bath')).toEqual([4]);
    expect(top('flat 12 3 high street bath')).toEqual([5]);
  });

  it('a full or partial postcode ranks addresses in that postcode first', () => {
    expect(top('12 high street cf10 2bb')).toEqual([8]);
    expect(top('12 high street bs1 4dj')).toEqual([6]);
    expect(top('12 high street BS1')).toEqual([6]);
    expect(top('12 high street cf10')).toEqual([8]);
    expect(top('cf10 1aa')).toEqual([7]);
    const r = index.search('12 high street cf10 2bb', 3);
    expect(r[0]!.score).toBeGreaterThan(0.5);
    expect(r[1]!.score).toBeLessThanOrEqual(0.5);
  });

  it('abbreviations match their long forms', () => {
    expect(top('5 st johns ave cardiff')).toEqual([7]);
    expect(top('flt 3 12 high st bath')).toEqual([4]);
  });

  it('the start of a word finds it (typeahead) and typos are tolerated', () => {
    expect(top('5 saint jo')).toEqual([7]);
    expect(top('34 glouc')).toEqual([3]);
    expect(top('34 glocester road')).toEqual([3]);
    expect(top('5 johns saint avenue')).toEqual([7]);
  });

  it('returns the spec fields with a 0–1 score, ranked, at most `limit`', () => {
    const r = index.search('high street', 3);
    expect(r).toHaveLength(3);
    for (const m of r) {
      expect(Object.keys(m).sort()).toEqual(['address', 'latitude', 'longitude', 'postcode', 'score', 'uprn']);
      expect(m.score).toBeGreaterThanOrEqual(0);
      expect(m.score).toBeLessThanOrEqual(1);
    }
    expect(r.map((m) => m.score)).toEqual(r.map((m) => m.score).sort((a, b) => b - a));
    expect(index.search('nothing like it', 10)).toEqual([]);
  });

  it('answers a repeated query (normalised the same) from its cache with the same result', () => {
    const first = index.search('12 High St, Bath', 5);
    expect(index.search('12  HIGH STREET BATH', 5)).toEqual(first);
    expect(index.search('12 high street bath', 2)).toEqual(first.slice(0, 2));
  });
});

describe('index file', () => {
  it('round-trips through the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pi-idx-'));
    const path = join(dir, 'i.bin');
    writeSearchIndex(path, await buildSearchIndex(ROWS, ROWS.length));
    const back = new SearchIndex(readSearchIndex(path));
    expect(back.search('32a gloucester road', 1)).toEqual(index.search('32a gloucester road', 1));
  });

  it('refuses a file that is not an index, or is truncated', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pi-idx-'));
    writeFileSync(join(dir, 'x.bin'), 'PAR1 not an index');
    expect(() => readSearchIndex(join(dir, 'x.bin'))).toThrow(/is not a search index/);
    const path = join(dir, 'i.bin');
    writeSearchIndex(path, await buildSearchIndex(ROWS, ROWS.length));
    const { readFileSync } = await import('node:fs');
    const whole = readFileSync(path);
    writeFileSync(join(dir, 't.bin'), whole.subarray(0, whole.length - 16));
    expect(() => readSearchIndex(join(dir, 't.bin'))).toThrow(/truncated \(docWords\)/);
    writeFileSync(join(dir, 'h.bin'), whole.subarray(0, 40));
    expect(() => readSearchIndex(join(dir, 'h.bin'))).toThrow(/truncated \(header\)/);
  });

  it('the builder refuses rows out of postcode order or a wrong count', async () => {
    await expect(buildSearchIndex([...ROWS].reverse(), ROWS.length)).rejects.toThrow(/ordered by postcode/);
    await expect(buildSearchIndex(ROWS, ROWS.length + 1)).rejects.toThrow(/expected 9 address rows, read 8/);
    await expect(buildSearchIndex(ROWS, ROWS.length - 1)).rejects.toThrow(/more address rows/);
  });
});
