import { readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PagedRecordFile } from '../../lib/files/experimental-paged-record-file.ts';
import { RecordFile, RecordFileWriter, type ColumnSpec } from '../../lib/files/record-file-format.ts';
import { tempDir } from '../support/tmp.ts';

const COLUMNS: ColumnSpec[] = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'price', kind: 'num' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'flood', kind: 'bool' },
];

/** Deterministic rows: gaps between uprns, nulls in every column, addresses long enough to straddle small blocks, non-ASCII. */
function rows(n: number, salt = 0): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    uprn: 1000 + i * 7 + (i % 3),
    address: i % 11 === 0 ? null : `${i + salt} ${'LONG '.repeat(i % 40)}ROAD, ÉCOLE 東京`,
    postcode: i % 13 === 0 ? null : `BS${i % 9} ${i % 5}AA`,
    price: i % 17 === 0 ? null : 100_000 + i * 12.5 + salt,
    bedrooms: i % 19 === 0 ? null : (i % 6) + 0.1,
    flood: i % 23 === 0 ? null : i % 2 === 0,
  }));
}

/** What a row reads back as, from the row itself: uprn a number, `small` rounded to Float32. */
function expected(r: Record<string, unknown>): Record<string, unknown> {
  return {
    uprn: r.uprn,
    address: r.address,
    postcode: r.postcode,
    price: r.price,
    bedrooms: r.bedrooms === null ? null : Math.fround(r.bedrooms as number),
    flood: r.flood,
  };
}

function write(data: Record<string, unknown>[]): string {
  const { dir, cleanup } = tempDir('pi-paged-');
  onTestFinished(cleanup);
  const path = join(dir, 'r.bin');
  const w = new RecordFileWriter(COLUMNS, data.length);
  for (const r of data) w.add(r);
  w.finish(path);
  return path;
}

function open(path: string, opts?: Parameters<typeof PagedRecordFile.open>[1]): PagedRecordFile {
  const f = PagedRecordFile.open(path, opts);
  onTestFinished(() => f.close());
  return f;
}

describe('experimental paged record file', () => {
  const data = rows(3000);

  it.each([
    ['defaults (4 KiB blocks, 16 MiB cache)', undefined],
    ['64-byte blocks, a 4-block cache (text straddles blocks, constant eviction)', { blockBytes: 64, cacheBytes: 256 }],
    ['one 8-byte block', { blockBytes: 8, cacheBytes: 1 }],
  ])('reads every row as written and nothing between them: %s', (_, opts) => {
    const f = open(write(data), opts);
    expect(f.n).toBe(3000);
    for (const r of data) expect(f.get(r.uprn as number)).toEqual(expected(r));
    // Misses: before the first, between rows (every row is ≥ 7 apart), after the last.
    for (const u of [0, 999, 1001, 1006, 1000 + 2999 * 7 + 3, 1e12]) expect(f.get(u)).toBeUndefined();
    if (opts) expect(f.cachedBytes()).toBeLessThanOrEqual(Math.max(opts.cacheBytes, opts.blockBytes));
  });

  it('answers as the in-heap reader does, in random order', () => {
    const path = write(data);
    const paged = open(path, { blockBytes: 512, cacheBytes: 4096 });
    const heap = new RecordFile(readFileSync(path), path);
    let seed = 7;
    for (let k = 0; k < 5000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const u = 990 + (seed % 21_100);
      expect(paged.get(u)).toEqual(heap.get(u));
    }
    expect(paged.stats.misses).toBeGreaterThan(0);
    expect(paged.stats.hits).toBeGreaterThan(0);
  });

  it('reads an empty file', () => {
    const f = open(write([]));
    expect(f.n).toBe(0);
    expect(f.get(1000)).toBeUndefined();
  });

  it('refuses a file of another kind, a stub and a truncated file, naming the path', () => {
    const path = write(data);
    const bytes = readFileSync(path);
    writeFileSync(`${path}.x`, Buffer.concat([Buffer.from('NOTAFILE'), bytes.subarray(8)]));
    expect(() => PagedRecordFile.open(`${path}.x`)).toThrow(/r\.bin\.x is not a record file/);
    writeFileSync(`${path}.s`, bytes.subarray(0, 10));
    expect(() => PagedRecordFile.open(`${path}.s`)).toThrow(/r\.bin\.s is not a record file/);
    writeFileSync(`${path}.h`, bytes.subarray(0, 40));
    expect(() => PagedRecordFile.open(`${path}.h`)).toThrow(/r\.bin\.h is truncated \(header\)/);
    writeFileSync(`${path}.t`, bytes.subarray(0, bytes.length - 40));
    expect(() => PagedRecordFile.open(`${path}.t`)).toThrow(/r\.bin\.t is truncated \(flood ends at byte \d+, the file has \d+\)/);
    expect(() => PagedRecordFile.open(path, { blockBytes: 12 })).toThrow(/multiple of 8/);
  });

  it('throws on a read past the end rather than answering', () => {
    const f = open(write(data));
    expect(() => f.rowAt(3000)).toThrow(RangeError);
    expect(() => f.rowAt(3000)).toThrow(/row 3000 is past the end of .*r\.bin \(3000 rows\)/);
    expect(() => f.rowAt(-1)).toThrow(RangeError);
    expect(() => f.rowAt(1.5)).toThrow(RangeError);
    expect(f.rowAt(2999)).toEqual(expected(data[2999]!));
  });

  it('throws, never answers from partial data, when the file is truncated in place after it was opened', () => {
    const path = write(data);
    const f = open(path, { blockBytes: 64, cacheBytes: 64 });
    const size = readFileSync(path).length;
    truncateSync(path, Math.floor(size / 2));
    // The flags are the file's last section: every row needs a block now past the end.
    const last = data[2999]!;
    expect(() => f.get(last.uprn as number)).toThrow(/read \d+ of \d+ bytes at byte \d+: the file is shorter than the \d+ bytes it had when opened/);
  });

  it('keeps answering from the opened file when a new one is renamed over it', () => {
    const path = write(data);
    const f = open(path, { blockBytes: 64, cacheBytes: 64 });
    const next = write(rows(3000, 5));
    renameSync(next, path);
    for (const i of [0, 1, 1500, 2999]) expect(f.get(data[i]!.uprn as number)).toEqual(expected(data[i]!));
    const reopened = open(path);
    expect(reopened.get(data[1]!.uprn as number)).toEqual(expected(rows(3000, 5)[1]!));
  });

  it('refuses reads after close', () => {
    const f = PagedRecordFile.open(write(data), { blockBytes: 64, cacheBytes: 64 });
    f.close();
    expect(() => f.get(data[100]!.uprn as number)).toThrow(/closed/);
  });
});
