import { readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BlockCache, BlockFileError } from '../../lib/files/block-file.ts';
import { KeyedRowsWriter, PAGE } from '../../lib/files/keyed-rows-file.ts';
import { PagedRecordFile, pagedRecordWriter } from '../../lib/files/paged-record-file.ts';
import { RecordFile, RecordFileWriter, type ColumnSpec } from '../../lib/files/record-file-format.ts';
import { tempDir } from '../support/tmp.ts';

// The cases the columnar prototype (experimental-paged-record-file.ts, removed) pinned, for the
// row-grouped file the service reads: the same answers as the in-heap reader, and a clear error
// on a file of another kind, truncated, or closed; a file renamed over the open one changes nothing.

const COLUMNS: ColumnSpec[] = [
  { name: 'address', kind: 'text' },
  { name: 'postcode', kind: 'dict' },
  { name: 'price', kind: 'num' },
  { name: 'bedrooms', kind: 'small' },
  { name: 'flood', kind: 'bool' },
  { name: 'rating', kind: 'dict' },
];

/** Deterministic rows: gaps between uprns, nulls in every column, addresses longer than a page now and then, non-ASCII. */
function rows(n: number, salt = 0): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    uprn: 1000 + i * 7 + (i % 3),
    address: i % 11 === 0 ? null : `${i + salt} ${'LONG '.repeat(i % 997 === 5 ? 1000 : i % 40)}ROAD, ÉCOLE 東京`,
    postcode: i % 13 === 0 ? null : `BS${i % 9} ${i % 5}AA`,
    price: i % 17 === 0 ? null : 100_000 + i * 12.5 + salt,
    bedrooms: i % 19 === 0 ? null : (i % 6) + 0.5,
    flood: i % 23 === 0 ? null : i % 2 === 0,
    rating: i % 29 === 0 ? null : 'ABCDEFG'[i % 7],
  }));
}

function folder(): string {
  const { dir, cleanup } = tempDir('pi-paged-records-');
  onTestFinished(cleanup);
  return dir;
}

/** The rows as a paged file and, from the same rows, the columnar file the in-heap reader reads. */
function write(data: Record<string, unknown>[], dir = folder()): { paged: string; heap: RecordFile } {
  const paged = join(dir, 'r.rows');
  const w = pagedRecordWriter(paged, COLUMNS);
  for (const r of data) w.add(r.uprn as number, COLUMNS.map((c) => r[c.name] as string | number | boolean | null));
  w.finish();
  const bin = join(dir, 'r.bin');
  const c = new RecordFileWriter(COLUMNS, data.length);
  for (const r of data) c.add(r);
  c.finish(bin);
  return { paged, heap: new RecordFile(readFileSync(bin), bin) };
}

function open(path: string, cache = new BlockCache(4 * PAGE)): PagedRecordFile {
  const f = PagedRecordFile.open(path, cache);
  onTestFinished(() => f.close());
  return f;
}

describe('paged record file (property-records.rows)', () => {
  const data = rows(3000);

  it('answers every row, and every UPRN between them, as the in-heap reader does, in random order, through a 4-page cache', () => {
    const { paged, heap } = write(data);
    const cache = new BlockCache(4 * PAGE);
    const f = open(paged, cache);
    expect(f.n).toBe(3000);
    expect(f.columns).toEqual(COLUMNS);
    for (const r of data) expect(f.get(r.uprn as number)).toEqual({ ...r });
    let seed = 7;
    for (let k = 0; k < 5000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const u = 990 + (seed % 21_100);
      expect(f.get(u)).toEqual(heap.get(u));
    }
    for (const u of [0, 999, 1001, 1000 + 2999 * 7 + 3, 1e12, 1000.5]) expect(f.get(u)).toBeUndefined();
    expect(cache.stats.misses).toBeGreaterThan(0);
    expect(cache.stats.hits).toBeGreaterThan(0);
    // A projection reads the named columns only, as the in-heap one does; a name the file lacks throws.
    expect(f.project(['postcode', 'flood'])(data[4]!.uprn as number)).toEqual(heap.project(['postcode', 'flood'])(data[4]!.uprn as number));
    expect(() => f.project(['beds'])).toThrow(/has no column beds/);
    expect([...f.scan()]).toEqual(data);
  });

  it('keeps a postcode as text in its pages, not in a dictionary in the heap, but reports the record file\'s kind', () => {
    const f = open(write(data).paged);
    expect(f.columns.find((c) => c.name === 'postcode')?.kind).toBe('dict');
    const meta = JSON.parse(readFileSync(f.path).toString('utf8', ...metaRange(readFileSync(f.path)))) as { columns: ColumnSpec[]; dictionaries: Record<string, string[]> };
    expect(meta.columns.find((c) => c.name === 'postcode')?.kind).toBe('text');
    expect(Object.keys(meta.dictionaries)).toEqual(['rating']);
  });

  it('reads an empty file', () => {
    const f = open(write([]).paged);
    expect(f.n).toBe(0);
    expect(f.get(1000)).toBeUndefined();
    expect([...f.scan()]).toEqual([]);
  });

  it('refuses a file of another kind, a keyed-rows file that is not a record file, and one cut short, naming the path', () => {
    const dir = folder();
    const { paged, heap } = write(data, dir);
    const cache = new BlockCache(4 * PAGE);
    expect(() => PagedRecordFile.open(heap.path, cache)).toThrow(/r\.bin is not a keyed-rows file/);
    const sales = join(dir, 'sales.rows');
    const w = new KeyedRowsWriter(sales, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: false });
    w.add(1, [5]);
    w.finish();
    expect(() => PagedRecordFile.open(sales, cache)).toThrow(/sales\.rows is not a paged record file \(its key is uprn, num, not unique\)/);
    const postcodes = join(dir, 'postcodes.rows');
    const p = new KeyedRowsWriter(postcodes, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'price', kind: 'num' }], unique: true });
    p.add(1, [5]);
    p.finish();
    expect(() => PagedRecordFile.open(postcodes, cache)).toThrow(/postcodes\.rows is not a paged record file \(no record_columns in its meta\)/);
    const bytes = readFileSync(paged);
    writeFileSync(`${paged}.t`, bytes.subarray(0, bytes.length - 40));
    expect(() => PagedRecordFile.open(`${paged}.t`, cache)).toThrow(BlockFileError);
    expect(() => PagedRecordFile.open(join(dir, 'absent.rows'), cache)).toThrow(/ENOENT/);
  });

  it('refuses a file whose stored kinds are not its record columns\' (a meta that lies)', () => {
    const dir = folder();
    const path = join(dir, 'lying.rows');
    const w = new KeyedRowsWriter(path, { key: { name: 'uprn', kind: 'num' }, columns: [{ name: 'bedrooms', kind: 'num' }], unique: true, extra: { record_columns: [{ name: 'bedrooms', kind: 'small' }] } });
    w.add(1, [2]);
    w.finish();
    expect(() => PagedRecordFile.open(path, new BlockCache(4 * PAGE))).toThrow(/record column bedrooms \(small\) is stored as num, not small/);
  });

  it('throws, never answers from partial data, when the file is truncated in place after it was opened', () => {
    const { paged } = write(data);
    const f = open(paged, new BlockCache(2 * PAGE));
    truncateSync(paged, Math.floor(readFileSync(paged).length / 2));
    expect(() => f.get(data[2999]!.uprn as number)).toThrow(/shorter than the \d+ bytes it had when opened/);
  });

  it('keeps answering from the opened file when a new one is renamed over it', () => {
    const { paged } = write(data);
    const f = open(paged, new BlockCache(2 * PAGE));
    const next = write(rows(3000, 5)).paged;
    renameSync(next, paged);
    for (const i of [0, 1, 1500, 2999]) expect(f.get(data[i]!.uprn as number)).toEqual(data[i]);
    expect(open(paged).get(data[1]!.uprn as number)).toEqual(rows(3000, 5)[1]);
  });

  it('refuses reads after close', () => {
    const f = PagedRecordFile.open(write(data).paged, new BlockCache(2 * PAGE));
    f.close();
    expect(() => f.get(data[100]!.uprn as number)).toThrow(/closed/);
  });
});

/** Where a keyed-rows file's meta (JSON) lies: before the 16-byte trailer, its length in the trailer. */
function metaRange(b: Buffer): [number, number] {
  const metaBytes = b.readUInt32LE(b.length - 12);
  return [b.length - 16 - metaBytes, b.length - 16];
}
