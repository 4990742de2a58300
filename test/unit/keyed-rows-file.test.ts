import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockCache, BlockFileError } from '../../lib/files/block-file.ts';
import { KeyedRowsFile, KeyedRowsWriter, PAGE, type Value } from '../../lib/files/keyed-rows-file.ts';
import { seededRandom } from '../support/chaos.ts';

const dir = mkdtempSync(join(tmpdir(), 'keyed-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const COLUMNS = [
  { name: 'price', kind: 'num' as const },
  { name: 'new_build', kind: 'bool' as const },
  { name: 'note', kind: 'text' as const },
];

/** Seeded (mulberry32): every run sees the same values. */
const rng = seededRandom;

/** Rows of 3,000 UPRNs, 1-5 rows each, with nulls, unicode and a few texts longer than a page. */
function saleRows(): Array<{ uprn: number; price: number | null; new_build: boolean | null; note: string | null }> {
  const r = rng(42);
  const rows = [];
  let uprn = 10_000;
  for (let k = 0; k < 3000; k++) {
    uprn += 1 + Math.floor(r() * 50);
    const m = 1 + Math.floor(r() * 5);
    for (let j = 0; j < m; j++) {
      const t = r();
      rows.push({
        uprn,
        price: t < 0.1 ? null : Math.round(r() * 1e6) / 4,
        new_build: t < 0.2 ? null : r() < 0.5,
        note: t < 0.3 ? null : t > 0.995 ? 'x'.repeat(PAGE * 2 + 17) : `Flat ${k}·${j} Ŵrexham`,
      });
    }
  }
  return rows;
}

function writeSales(path: string, rows: ReturnType<typeof saleRows>): void {
  const w = new KeyedRowsWriter(path, { key: { name: 'uprn', kind: 'num' }, columns: COLUMNS, unique: false });
  for (const s of rows) w.add(s.uprn, [s.price, s.new_build, s.note]);
  w.finish();
}

describe('keyed-rows file', () => {
  const rows = saleRows();
  const path = join(dir, 'sales.rows');
  writeSales(path, rows);
  const byUprn = new Map<number, typeof rows>();
  for (const s of rows) byUprn.set(s.uprn, [...(byUprn.get(s.uprn) ?? []), s]);

  it('gives every key its rows in the order written, through a cache far smaller than the file', () => {
    const cache = new BlockCache(8 * PAGE);
    const f = KeyedRowsFile.open(path, cache);
    expect(f.size).toBe(rows.length);
    expect(f.meta.pages).toBeGreaterThan(50);
    for (const [uprn, want] of byUprn) expect(f.get(uprn)).toEqual(want);
    expect(cache.stats.misses).toBeGreaterThan(0);
    f.close();
  });

  it('gives no rows for a key it lacks: below the first, between two, above the last', () => {
    const f = KeyedRowsFile.open(path, new BlockCache(1 << 20));
    const keys = [...byUprn.keys()];
    expect(f.get(keys[0]! - 1)).toEqual([]);
    expect(f.get(keys[keys.length - 1]! + 1)).toEqual([]);
    for (let i = 1; i < keys.length; i += 97) if (keys[i]! - keys[i - 1]! > 1) expect(f.get(keys[i]! - 1)).toEqual([]);
    expect(f.first(keys[5]!)).toEqual(byUprn.get(keys[5]!)![0]);
    expect(f.first(-5)).toBeUndefined();
    f.close();
  });

  it('gives a key\'s first row as values by column, without a row object; false for a key it lacks', () => {
    const f = KeyedRowsFile.open(path, new BlockCache(4 * PAGE));
    const out: Value[] = [];
    for (const [uprn, want] of byUprn) {
      expect(f.firstValues(uprn, out)).toBe(true);
      expect(out).toEqual([want[0]!.price, want[0]!.new_build, want[0]!.note]);
    }
    const keys = [...byUprn.keys()];
    for (const k of [keys[0]! - 1, keys[keys.length - 1]! + 1, keys[7]! + 0.5]) expect(f.firstValues(k, out)).toBe(false);
    f.close();
  });

  it('gives a key\'s first row undecoded (firstRaw), whose leading values valuesFrom decodes and rowFrom the whole row', () => {
    const f = KeyedRowsFile.open(path, new BlockCache(4 * PAGE));
    for (const [uprn, want] of byUprn) {
      const lead: Value[] = ['untouched', 'untouched', 'untouched'];
      let row: unknown;
      expect(f.firstRaw(uprn, (page, at) => {
        f.valuesFrom(page, at, lead, 1);
        row = f.rowFrom(page, at, uprn);
      })).toBe(true);
      // The first column only: the others are left as they were.
      expect(lead).toEqual([want[0]!.price, 'untouched', 'untouched']);
      expect(row).toEqual(want[0]);
    }
    const keys = [...byUprn.keys()];
    let visited = 0;
    for (const k of [keys[0]! - 1, keys[keys.length - 1]! + 1, keys[7]! + 0.5]) expect(f.firstRaw(k, () => visited++)).toBe(false);
    expect(visited).toBe(0);
    f.close();
  });

  it('scans every row in key order', () => {
    const f = KeyedRowsFile.open(path, new BlockCache(4 * PAGE));
    expect([...f.scan()]).toEqual(rows);
    f.close();
  });

  it('reads the rows of a key range in key order, whatever pages the range starts and ends on', () => {
    const f = KeyedRowsFile.open(path, new BlockCache(4 * PAGE));
    const keys = [...byUprn.keys()];
    const between = (lo: number, hi: number) => rows.filter((s) => s.uprn >= lo && s.uprn <= hi);
    // Ranges that start and end on keys, between keys, before the first and past the last.
    const ranges: Array<[number, number]> = [[keys[0]! - 10, keys[3]!], [keys[100]!, keys[100]!], [keys[100]! + 0.5, keys[400]! - 0.5], [keys[2990]!, keys[2999]! + 100], [-1, 1e12]];
    for (let i = 0; i + 37 < keys.length; i += 211) ranges.push([keys[i]!, keys[i + 37]!]);
    for (const [lo, hi] of ranges) expect([...f.range(lo, hi)]).toEqual(between(lo, hi));
    expect([...f.range(keys[5]!, keys[4]!)]).toEqual([]);
    expect([...f.range(keys[2999]! + 1, keys[2999]! + 2)]).toEqual([]);
    expect([...f.range(-5, keys[0]! - 1)]).toEqual([]);
    f.close();
  });

  it('hands a fixed layout\'s rows of a key range to a visitor at their null bits, without row objects', () => {
    const p = join(dir, 'fixed.rows');
    const r = rng(9);
    const fixed: Array<{ cell: number; a: number; b: number }> = [];
    for (let cell = 0, k = 0; k < 5000; k++) {
      cell += r() < 0.3 ? 1 : 0;
      fixed.push({ cell, a: k, b: r() < 0.1 ? NaN : Math.round(r() * 1e6) / 8 });
    }
    const w = new KeyedRowsWriter(p, { key: { name: 'cell', kind: 'num' }, columns: [{ name: 'a', kind: 'num' }, { name: 'b', kind: 'num' }], unique: false });
    for (const f of fixed) w.add(f.cell, [f.a, f.b]);
    w.finish();
    const f = KeyedRowsFile.open(p, new BlockCache(2 * PAGE));
    const cells = fixed.at(-1)!.cell;
    for (const [lo, hi] of [[0, 0], [3, 40], [-5, 2], [cells - 3, cells + 9], [17, 16], [0, cells]]) {
      const got: Array<{ a: number; b: number; nulls: number }> = [];
      f.rangeRaw(lo!, hi!, (b, at) => got.push({ nulls: b[at]!, a: b.readDoubleLE(at + 1), b: b.readDoubleLE(at + 9) }));
      const want = fixed.filter((x) => x.cell >= lo! && x.cell <= hi!);
      expect(got.map((g) => g.a)).toEqual(want.map((x) => x.a));
      expect(got.map((g) => g.b)).toEqual(want.map((x) => x.b));
      expect(got.every((g) => g.nulls === 0)).toBe(true);
      expect(got.map((g) => g.a)).toEqual([...f.range(lo!, hi!)].map((x) => x.a));
    }
    f.close();
  });

  it('looks up text keys (postcodes), unique', () => {
    const pcs = ['AB1 0AA', 'B1 1AA', 'BS1 4DJ', 'BS10 5AB', 'CF10 1AA', 'EH1 1YZ', 'SW1A 1AA'];
    const p = join(dir, 'postcodes.rows');
    const w = new KeyedRowsWriter(p, { key: { name: 'postcode', kind: 'text' }, columns: [{ name: 'lat', kind: 'num' }, { name: 'country', kind: 'text' }], unique: true, extra: { as_of: '2026-08' } });
    pcs.forEach((pc, i) => w.add(pc, [50 + i / 10, i === 5 ? 'S92000003' : null]));
    expect(w.finish().rows).toBe(7);
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 2));
    pcs.forEach((pc, i) => expect(f.first(pc)).toEqual({ postcode: pc, lat: 50 + i / 10, country: i === 5 ? 'S92000003' : null }));
    expect(f.get('BS1 4DK')).toEqual([]);
    expect(f.get('')).toEqual([]);
    expect([...f.range('B', 'BS2')].map((r) => r.postcode)).toEqual(['B1 1AA', 'BS1 4DJ', 'BS10 5AB']);
    expect(f.meta.extra).toEqual({ as_of: '2026-08' });
    f.close();
  });

  it('keeps dict and small columns: a code into the meta\'s dictionary, an f32; nulls as nulls', () => {
    const p = join(dir, 'homes.rows');
    const cols = [{ name: 'type', kind: 'dict' as const }, { name: 'beds', kind: 'small' as const }, { name: 'rating', kind: 'dict' as const }];
    const w = new KeyedRowsWriter(p, { key: { name: 'uprn', kind: 'num' }, columns: cols, unique: true });
    const types = ['Flat', 'Detached', 'Semi-detached', 'Terraced'];
    const want: Array<{ uprn: number; type: string | null; beds: number | null; rating: string | null }> = [];
    // More distinct ratings than a one-byte code holds (codes past 127 take two bytes).
    for (let i = 0; i < 5000; i++) {
      const row = { uprn: 1000 + i * 3, type: i % 7 === 0 ? null : types[i % 4]!, beds: i % 11 === 0 ? null : (i % 6) + 0.5, rating: i % 5 === 0 ? null : `R${i % 301}` };
      want.push(row);
      w.add(row.uprn, [row.type, row.beds, row.rating]);
    }
    w.finish();
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 4));
    expect(new Set(f.meta.dictionaries!.type)).toEqual(new Set(types));
    expect(f.meta.dictionaries!.rating).toHaveLength(301);
    for (const row of want) expect(f.first(row.uprn)).toEqual(row);
    const out: Value[] = [];
    for (const row of want) expect(f.firstValues(row.uprn, out) && out).toEqual([row.type, row.beds, row.rating]);
    expect([...f.scan()]).toEqual(want);
    // Smaller than the same rows with the strings in every row and f64s: 5000 × (8 + 8 + ~4) bytes would not fit this.
    expect(f.meta.pages).toBeLessThan(Math.ceil((5000 * (8 + 1 + 1 + 4 + 2 + 4)) / PAGE) + 2);
    f.close();
  });

  it('reads a row\'s numbers at their place past texts, dicts, bools and nulls without decoding it (numbersAt), and decodes it from a visit (rowFrom)', () => {
    const p = join(dir, 'placed.rows');
    const cols = [
      { name: 'note', kind: 'text' as const }, { name: 'kind', kind: 'dict' as const }, { name: 'flag', kind: 'bool' as const },
      { name: 'lat', kind: 'num' as const }, { name: 'beds', kind: 'small' as const }, { name: 'lng', kind: 'num' as const }, { name: 'tail', kind: 'text' as const },
    ];
    const w = new KeyedRowsWriter(p, { key: { name: 'cell', kind: 'num' }, columns: cols, unique: false });
    const r = rng(9);
    const want: Array<Record<string, Value>> = [];
    for (let i = 0; i < 3000; i++) {
      const t = r();
      const row: Record<string, Value> = {
        cell: 100 + Math.floor(i / 7), note: t < 0.2 ? null : 'é'.repeat(Math.floor(r() * 40)), kind: t < 0.3 ? null : `K${i % 5}`, flag: t < 0.1 ? null : r() < 0.5,
        lat: t > 0.95 ? null : 51 + r(), beds: t > 0.9 ? null : Math.floor(r() * 6), lng: t > 0.97 ? null : -2 - r(), tail: `t${i}`,
      };
      want.push(row);
      w.add(row.cell as number, cols.map((c) => row[c.name]!));
    }
    w.finish();
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 4));
    const out = new Float64Array(3);
    const got: Array<{ nums: number[]; row: unknown }> = [];
    f.rangeRaw(0, Infinity, (b, at, key) => {
      f.numbersAt(b, at, [3, 4, 5], out);
      got.push({ nums: [...out], row: f.rowFrom(b, at, key) });
    });
    expect(got.map((g) => g.row)).toEqual(want);
    // Computed here from the rows written, not by the reader: a null is NaN.
    expect(got.map((g) => g.nums)).toEqual(want.map((w) => [w.lat ?? NaN, w.beds ?? NaN, w.lng ?? NaN]));
    // A dict column's number is its code into the dictionary; a text column has none.
    const dict = f.dictionary('kind')!;
    expect(new Set(dict)).toEqual(new Set(['K0', 'K1', 'K2', 'K3', 'K4']));
    expect(f.dictionary('note')).toBeUndefined();
    expect(f.dictionary('nowhere')).toBeUndefined();
    const codes: number[] = [];
    const two = new Float64Array(2);
    f.rangeRaw(0, Infinity, (b, at) => {
      f.numbersAt(b, at, [1, 5], two);
      codes.push(two[0]!);
      expect(two[1]).toEqual(want[codes.length - 1]!.lng ?? NaN);
    });
    expect(codes.map((c) => (Number.isNaN(c) ? null : dict[c]))).toEqual(want.map((w) => w.kind));
    f.rangeRaw(100, 100, (b, at) => expect(() => f.numbersAt(b, at, [0], two)).toThrow(/column note is a text, not a number or a dict code/));
    f.close();
  });

  it('reads a run of smalls (a listing\'s months) by numbersAt, with and without nulls among them, whole or in part', () => {
    const p = join(dir, 'runs.rows');
    const cols = [
      { name: 'name', kind: 'text' as const }, ...Array.from({ length: 20 }, (_, q) => ({ name: `m${q}`, kind: 'small' as const })), { name: 'end', kind: 'num' as const },
    ];
    const w = new KeyedRowsWriter(p, { key: { name: 'rn', kind: 'num' }, columns: cols, unique: true });
    const r = rng(21);
    const want: Value[][] = [];
    for (let i = 0; i < 500; i++) {
      // A fifth of the rows with a null month somewhere in the run.
      const nullAt = r() < 0.2 ? Math.floor(r() * 20) : -1;
      const values: Value[] = [`n${'x'.repeat(i % 13)}`, ...Array.from({ length: 20 }, (_, q) => (q === nullAt ? null : Math.fround(r() * 1000))), i * 2.5];
      want.push(values);
      w.add(i, values);
    }
    w.finish();
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 4));
    const run = Array.from({ length: 20 }, (_, q) => q + 1);
    const asNumbers = (vs: Value[]) => vs.map((v) => (v === null ? NaN : (v as number)));
    for (const [wanted, label] of [[run, 'the whole run'], [run.slice(5), 'its tail'], [run.slice(3, 9), 'its middle'], [[...run.slice(15), 21], 'its tail and the num after it']] as const) {
      const out = new Float64Array(wanted.length);
      for (let i = 0; i < 500; i++) {
        expect(f.firstRaw(i, (page, at) => f.numbersAt(page, at, wanted, out))).toBe(true);
        expect([...out], `${label}, row ${i}`).toEqual(asNumbers(wanted.map((c) => want[i]![c]!)));
      }
    }
    f.close();
  });

  it('refuses a small value an f32 does not hold exactly, and a dict value that is not a string', () => {
    const w = new KeyedRowsWriter(join(dir, 'bad-small.rows'), { key: { name: 'k', kind: 'num' }, columns: [{ name: 'beds', kind: 'small' }, { name: 'type', kind: 'dict' }], unique: true });
    expect(() => w.add(1, [0.1, 'Flat'])).toThrow(/beds of row 0 is 0.1, not a number a float32 holds exactly/);
    expect(() => w.add(2, [2, 7])).toThrow(/type of row 0 is number, not a string/);
    w.discard();
  });

  it('refuses to open a file whose dict column has no dictionary, and a code past its dictionary', () => {
    const p = join(dir, 'dict-bad.rows');
    const w = new KeyedRowsWriter(p, { key: { name: 'k', kind: 'num' }, columns: [{ name: 'type', kind: 'dict' }], unique: true });
    for (let i = 0; i < 10; i++) w.add(i, [`T${i}`]);
    w.finish();
    const whole = readFileSync(p);
    const metaBytes = whole.readUInt32LE(whole.length - 12);
    const metaAt = whole.length - 16 - metaBytes;
    const meta = JSON.parse(whole.subarray(metaAt, metaAt + metaBytes).toString('utf8')) as { dictionaries: Record<string, string[]> };
    // The meta rewritten (same trailer layout) without the dictionary, then with one too short.
    const rewrite = (m: unknown) => {
      const mb = Buffer.from(JSON.stringify(m), 'utf8');
      const trailer = Buffer.from(whole.subarray(whole.length - 16));
      trailer.writeUInt32LE(mb.length, 4);
      writeFileSync(p, Buffer.concat([whole.subarray(0, metaAt), mb, trailer]));
    };
    rewrite({ ...meta, dictionaries: {} });
    expect(() => KeyedRowsFile.open(p, new BlockCache(PAGE * 4))).toThrow(/dict column type has no dictionary/);
    rewrite({ ...meta, dictionaries: { type: meta.dictionaries.type!.slice(0, 3) } });
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 4));
    expect(f.first(1)).toEqual({ k: 1, type: 'T1' });
    expect(() => f.first(7)).toThrow(/type has code 7, past its dictionary of 3/);
    f.close();
  });

  it('refuses rows out of order, a repeated key where keys are unique, a wrong type or count', () => {
    const w = new KeyedRowsWriter(join(dir, 'bad.rows'), { key: { name: 'k', kind: 'num' }, columns: COLUMNS, unique: true });
    w.add(5, [1, true, 'a']);
    expect(() => w.add(5, [1, true, 'a'])).toThrow(/strictly ascending key order \(5 after 5/);
    expect(() => w.add(4, [1, true, 'a'])).toThrow(/ascending key order/);
    expect(() => w.add('6', [1, true, 'a'])).toThrow(TypeError);
    expect(() => w.add(Number.NaN, [1, true, 'a'])).toThrow(TypeError);
    expect(() => w.add(6, [1, true])).toThrow(/has 2 values, not 3/);
    expect(() => w.add(7, ['1', true, 'a'])).toThrow(/price of row 1 is string, not a number/);
    expect(() => w.add(8, [1, 'yes', 'a'])).toThrow(/not a boolean/);
    expect(() => w.add(9, [1, true, 3] as Value[])).toThrow(/not a string/);
    w.discard();
    expect(() => w.add(10, [1, true, 'a'])).toThrow(/closed/);
  });

  it('refuses to open a file that is not one, was never finished, or was cut short', () => {
    const cache = new BlockCache(PAGE * 4);
    const junk = join(dir, 'junk.rows');
    writeFileSync(junk, 'hello world, not rows at all');
    expect(() => KeyedRowsFile.open(junk, cache)).toThrow(/not a keyed-rows file/);
    writeFileSync(junk, 'tiny');
    expect(() => KeyedRowsFile.open(junk, cache)).toThrow(BlockFileError);
    const unfinished = join(dir, 'unfinished.rows');
    const w = new KeyedRowsWriter(unfinished, { key: { name: 'k', kind: 'num' }, columns: COLUMNS, unique: false });
    // More than the writer's 1 MB output buffer, so pages reach the file before it is abandoned.
    for (let i = 0; i < 60_000; i++) w.add(i, [i, true, 'row']);
    w.discard();
    expect(statSync(unfinished).size).toBeGreaterThanOrEqual(1 << 20);
    expect(() => KeyedRowsFile.open(unfinished, cache)).toThrow(/was not finished/);
    const cut = join(dir, 'cut.rows');
    writeFileSync(cut, readFileSync(path).subarray(0, 10_000));
    expect(() => KeyedRowsFile.open(cut, cache)).toThrow(BlockFileError);
    // The trailer kept but the rows before it cut out: the directory points past the rows.
    const whole = readFileSync(path);
    writeFileSync(cut, Buffer.concat([whole.subarray(0, PAGE), whole.subarray(whole.length - 4000)]));
    expect(() => KeyedRowsFile.open(cut, cache)).toThrow(BlockFileError);
  });

  it('a file truncated while open throws on the pages it lost; one renamed over it changes nothing', () => {
    const p = join(dir, 'swap.rows');
    writeSales(p, rows);
    const f = KeyedRowsFile.open(p, new BlockCache(PAGE * 2));
    const keys = [...byUprn.keys()];
    const lastKey = keys[keys.length - 1]!;
    // Renamed over: the opened file answers on, with its own rows.
    const other = join(dir, 'other.rows');
    writeSales(other, rows.map((s) => ({ ...s, price: 1 })));
    renameSync(other, p);
    expect(f.get(lastKey)).toEqual(byUprn.get(lastKey));
    f.close();
    // Truncated in place under an open reader: a clear error, never rows from another place.
    const g = KeyedRowsFile.open(p, new BlockCache(PAGE * 2));
    truncateSync(p, PAGE * 3);
    expect(() => g.get(lastKey)).toThrow(/shorter than the .* bytes it had when opened/);
    expect(g.get(keys[0]!)).toEqual(byUprn.get(keys[0]!)!.map((s) => ({ ...s, price: 1 })));
    g.close();
  });
});
