import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import { KeyedRowsFile, KeyedRowsWriter } from '../../lib/files/keyed-rows-file.ts';
import { lookupSql } from '../../lib/files/lookup-tables-format.ts';
import { cellKeyOf } from '../../lib/geo/grid-cells.ts';
import { Points } from '../../lib/geo/points.ts';
import { tempDir } from '../support/tmp.ts';
import { seededRandom } from '../support/chaos.ts';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

/** Seeded (mulberry32): every run sees the same values. */
const rng = seededRandom;

type Row = { cell: number; id: number; lat: number | null; lng: number | null };

/** 3,000 points around Bristol, a tenth of them stacked on another's spot (flats of one building), some without a position. */
function points(): Array<{ id: number; lat: number | null; lng: number | null }> {
  const r = rng(7);
  const out: Array<{ id: number; lat: number | null; lng: number | null }> = [];
  for (let id = 0; id < 3000; id++) {
    const t = r();
    if (t < 0.03) out.push({ id, lat: null, lng: null });
    else if (t < 0.13 && out.length > 0 && out.at(-1)!.lat !== null) out.push({ id, lat: out.at(-1)!.lat, lng: out.at(-1)!.lng });
    else out.push({ id, lat: 51.40 + r() * 0.12, lng: -2.70 + r() * 0.2 });
  }
  return out;
}

/** The points in a keyed-rows file by cell of `m` metres, each cell's in id order; unplaced left out as the ETL leaves them. */
function writeFile(name: string, m: number): CellPoints<Row> {
  const path = join(tmp.dir, name);
  const w = new KeyedRowsWriter(path, { key: { name: 'cell', kind: 'num' }, columns: [{ name: 'id', kind: 'num' }, { name: 'lat', kind: 'num' }, { name: 'lng', kind: 'num' }], unique: false });
  const placed = points().filter((p) => p.lat !== null).map((p) => ({ ...p, cell: cellKeyOf(p.lat!, p.lng!, m) }));
  placed.sort((a, b) => a.cell - b.cell || a.id - b.id);
  for (const p of placed) w.add(p.cell, [p.id, p.lat, p.lng]);
  w.finish();
  const file = KeyedRowsFile.open<Row>(path, new BlockCache(1 << 16));
  return new CellPoints(file, m);
}

const all = points();
const placed = all.filter((p) => p.lat !== null);
const COS_54 = Math.cos((54 * Math.PI) / 180);
/** Distances computed here, not by the code under test. */
const greatCircle = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
};
const planar = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  Math.hypot((a.lng - b.lng) * 111_320 * COS_54, (a.lat - b.lat) * 110_540);

describe('CellPoints: radius and nearest over a file of points by grid cell', () => {
  const r = rng(100);
  const queries = Array.from({ length: 60 }, (_, i) => {
    r();
    return { lat: 51.38 + r() * 0.16, lng: -2.72 + r() * 0.24, radius: [50, 250, 800, 2000][i % 4]! };
  });

  for (const m of [50, 125, 500]) {
    const cells = writeFile(`points-${m}.rows`, m);

    it(`within (cells of ${m} m): every point within the great-circle radius, each once, at its distance; the same as Points`, () => {
      const heap = new Points(all.map((p) => p.lat ?? NaN), all.map((p) => p.lng ?? NaN));
      let found = 0;
      for (const q of queries) {
        const got: Array<[number, number]> = [];
        cells.within(q.lat, q.lng, q.radius, (row, d) => got.push([row.id, d]));
        const want = placed.filter((p) => greatCircle(q, p as { lat: number; lng: number }) <= q.radius).map((p) => p.id);
        expect(got.map(([id]) => id).sort((a, b) => a - b)).toEqual(want);
        for (const [id, d] of got) expect(d).toBeCloseTo(greatCircle(q, all[id] as { lat: number; lng: number }), 6);
        expect(got.map(([id]) => id).sort((a, b) => a - b)).toEqual(heap.withinIds(q.lat, q.lng, q.radius));
        found += got.length;
      }
      expect(found).toBeGreaterThan(1000);
    });

    it(`within (cells of ${m} m) with keep: the rows it accepts, tested undecoded; withinRaw: the same rows at the same distances, undecoded`, () => {
      const idCol = [cells.file.meta.columns.findIndex((c) => c.name === 'id')];
      const n = new Float64Array(1);
      let found = 0;
      for (const q of queries) {
        const kept: number[] = [];
        cells.within(q.lat, q.lng, q.radius, (row) => kept.push(row.id), (page, at) => {
          cells.file.numbersAt(page, at, idCol, n);
          return n[0]! % 3 === 1;
        });
        const want = placed.filter((p) => p.id % 3 === 1 && greatCircle(q, p as { lat: number; lng: number }) <= q.radius).map((p) => p.id);
        expect(kept.sort((a, b) => a - b)).toEqual(want);
        const raw: Array<[number, number]> = [];
        cells.withinRaw(q.lat, q.lng, q.radius, (page, at, key, d) => raw.push([cells.file.rowFrom(page, at, key).id, d]));
        const all: Array<[number, number]> = [];
        cells.within(q.lat, q.lng, q.radius, (row, d) => all.push([row.id, d]));
        expect(raw).toEqual(all);
        found += kept.length;
      }
      expect(found).toBeGreaterThan(300);
    });

    it(`nearest (cells of ${m} m): the k nearest within maxM by planar distance, ties by cell then id, with keep`, () => {
      let [found, ties] = [0, 0];
      for (const [i, q] of queries.entries()) {
        const k = [1, 5, 40][i % 3]!;
        const keep = i % 2 === 0 ? undefined : (r: Row) => r.id % 3 !== 0;
        const got = cells.nearest(q.lat, q.lng, k, q.radius, keep);
        const want = placed
          .filter((p) => (i % 2 === 0 || p.id % 3 !== 0))
          .map((p) => ({ id: p.id, d: planar(q, p as { lat: number; lng: number }), cell: cellKeyOf(p.lat!, p.lng!, m) }))
          .filter((p) => p.d <= q.radius)
          .sort((a, b) => a.d - b.d || a.cell - b.cell || a.id - b.id)
          .slice(0, k);
        found += got.length;
        ties += got.filter((g, j) => j > 0 && g.d === got[j - 1]!.d).length;
        expect(got.map((g) => g.row.id)).toEqual(want.map((w) => w.id));
        got.forEach((g, j) => expect(g.d).toBeCloseTo(want[j]!.d, 6));
      }
      // Not vacuous: answers found, stacked points among them.
      expect(found).toBeGreaterThan(200);
      expect(ties).toBeGreaterThan(5);
    });
  }

  it('no answer from a place that is not one; a bound that is not finite is refused', () => {
    const cells = writeFile('points-edge.rows', 125);
    const seen: number[] = [];
    cells.within(NaN, -2.6, 500, (r) => seen.push(r.id));
    expect(seen).toEqual([]);
    expect(cells.nearest(51.45, NaN, 3, 500)).toEqual([]);
    expect(cells.nearest(51.45, -2.6, 0, 500)).toEqual([]);
    expect(() => cells.nearest(51.45, -2.6, 3, Infinity)).toThrow(/finite maxM/);
    expect(() => new CellPoints(cells.file, 5)).toThrow(/at least 10/);
    expect(() => new CellPoints(cells.file, 125, { lat: "id", lng: "nowhere" })).toThrow(/no number column nowhere/);
    // Far from every point: nothing within the bound, and the rings stop at it.
    expect(cells.nearest(55.9, -3.2, 3, 2000)).toEqual([]);
  });
});

describe('CellPoints over rows without a position', () => {
  it('never answers a row whose latitude or longitude is null, and answers the placed ones of its cell', () => {
    const path = join(tmp.dir, 'unplaced.rows');
    const w = new KeyedRowsWriter(path, { key: { name: 'cell', kind: 'num' }, columns: [{ name: 'id', kind: 'num' }, { name: 'lat', kind: 'num' }, { name: 'lng', kind: 'num' }], unique: false });
    const cell = cellKeyOf(51.45, -2.6, 125);
    w.add(cell, [1, 51.45, -2.6]);
    w.add(cell, [2, null, -2.6]);
    w.add(cell, [3, 51.45, null]);
    w.add(cell, [4, 51.4501, -2.6001]);
    w.finish();
    const cells = new CellPoints(KeyedRowsFile.open<Row>(path, new BlockCache(1 << 16)), 125);
    const seen: number[] = [];
    cells.within(51.45, -2.6, 500, (r) => seen.push(r.id));
    expect(seen).toEqual([1, 4]);
    expect(cells.nearest(51.45, -2.6, 10, 500).map((h) => h.row.id)).toEqual([1, 4]);
  });
});

describe('the cell_key macro (lookup-sql/cell_key_macro.sql)', () => {
  it('puts every point in the cell JavaScript does, at several cell sizes, and a point without a position in none', async () => {
    const db = await DuckDBInstance.create(':memory:');
    try {
      const conn = await db.connect();
      await conn.run(lookupSql('cell_key_macro'));
      const r = rng(3);
      // Points over Great Britain, and ones on cell edges (multiples of the cell side in local metres).
      const pts = Array.from({ length: 2000 }, () => ({ lat: 49.9 + r() * 10.9, lng: -8.2 + r() * 10 }));
      for (const m of [125, 500]) pts.push({ lat: (m * 1000) / 110_540, lng: (m * -300) / (111_320 * COS_54) });
      const values = pts.map((p) => `(${p.lat}::DOUBLE, ${p.lng}::DOUBLE)`).join(', ');
      for (const m of [50, 125, 500, 1000]) {
        const res = await conn.runAndReadAll(`SELECT cell_key(lat, lng, ${m}) AS k FROM (VALUES ${values}) t(lat, lng)`);
        expect(res.getRowObjects().map((o) => Number(o.k))).toEqual(pts.map((p) => cellKeyOf(p.lat, p.lng, m)));
      }
      const nul = await conn.runAndReadAll('SELECT cell_key(NULL, -2.6, 125) AS k');
      expect(nul.getRowObjects()[0]!.k).toBeNull();
    } finally {
      db.closeSync();
    }
  });
});
