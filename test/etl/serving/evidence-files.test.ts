import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildContext } from '../../../etl/pipeline/context.ts';
import { writeLookupFile } from '../../../etl/stages/30-serving/write-lookup-file.ts';
import { BlockCache } from '../../../lib/files/block-file.ts';
import { EVIDENCE_FILES } from '../../../lib/files/evidence-files.ts';
import { KeyedRowsFile } from '../../../lib/files/keyed-rows-file.ts';
import { lookupSql } from '../../../lib/files/lookup-tables-format.ts';
import { quietLog } from '../../support/region.ts';
import { tempDir } from '../../support/tmp.ts';

/**
 * The evidence files' specs (lib/files/evidence-files.ts) written by the ETL's writer over
 * crafted tables: each row's key is the cell JavaScript puts its point in (the writer checks
 * it), including points on cell edges; a spec whose cell size is not its SQL's fails naming
 * the point, never a file whose cells a reader would search wrong.
 */
const tmp = tempDir();
let db: DuckDBInstance;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
});
afterAll(() => {
  db?.closeSync();
  tmp.cleanup();
});

/** Local metres per degree of latitude, and of longitude at 54°N (lib/geo/points.ts), written out here. */
const M_LAT = 110_540;
const M_LNG = 111_320 * Math.cos((54 * Math.PI) / 180);

async function contextWith(table: string, columns: string, rows: string[]): Promise<BuildContext> {
  const conn = await db.connect();
  await conn.run(`CREATE OR REPLACE TABLE ${table} AS SELECT * FROM (VALUES ${rows.join(', ')}) t(${columns})`);
  return { db, conn, buildDir: tmp.dir, artifacts: {}, log: quietLog, buildId: table } as unknown as BuildContext;
}

/** Postcodes at cell corners and edges of 250 m (and a hair either side), far north and west, without a position or a country. */
function postcodeRows(): string[] {
  const out: string[] = [];
  let n = 0;
  const add = (lat: number | null, lng: number | null, country: string | null = 'England') =>
    out.push(`('PC${String(n++).padStart(3, '0')} 1AA', ${lat ?? 'NULL'}::DOUBLE, ${lng ?? 'NULL'}::DOUBLE, ${country === null ? 'NULL' : `'${country}'`})`);
  for (const cy of [214_000, 214_001, 240_000]) {
    for (const cx of [-1_000, -999, 0, 1, 200]) {
      for (const dy of [0, 1e-9, -1e-9]) for (const dx of [0, 1e-9]) add(((cy + dy) * 250) / M_LAT, ((cx + dx) * 250) / M_LNG);
    }
  }
  add(60.86, -8.9, 'Scotland');
  add(49.9, 1.9);
  add(null, null);
  add(51.5, -2.6, null);
  return out;
}

describe('writeLookupFile with the evidence files\' specs', () => {
  it('postcode points: every placed postcode with a country, keyed by JavaScript\'s cell, in cell then postcode order', async () => {
    const ctx = await contextWith('postcodes', 'postcode, lat, lng, country', postcodeRows());
    const { rows } = await writeLookupFile(ctx, EVIDENCE_FILES.postcodePoints);
    expect(rows).toBe(postcodeRows().length - 2);
    expect(ctx.artifacts.postcode_points_cells?.file).toBe('postcode-points.rows');
    const f = KeyedRowsFile.open<{ cell: number; lat: number; lng: number; postcode: string; country: string }>(join(tmp.dir, 'postcode-points.rows'), new BlockCache(1 << 16));
    try {
      const got = [...f.scan()];
      for (const r of got) {
        // JavaScript's cell, computed here from the definition (lib/geo/grid-cells.ts).
        const want = (Math.floor((r.lat * M_LAT) / 250) + 2 ** 20) * 2 ** 21 + (Math.floor((r.lng * 111_320 * Math.cos((54 * Math.PI) / 180)) / 250) + 2 ** 20);
        expect(r.cell, `${r.postcode} ${r.lat} ${r.lng}`).toBe(want);
      }
      const order = [...got].sort((a, b) => a.cell - b.cell || (a.postcode < b.postcode ? -1 : 1));
      expect(got.map((r) => r.postcode)).toEqual(order.map((r) => r.postcode));
      expect(f.meta.extra).toEqual({ cell: { m: 250, lat: 'lat', lng: 'lng' } });
      expect(new Set(got.map((r) => r.country))).toEqual(new Set(['England', 'Scotland']));
    } finally {
      f.close();
    }
  });

  it('a row whose key is not JavaScript\'s cell (the spec\'s cell size is not its SQL\'s): a clear error naming the point, no file', async () => {
    const ctx = await contextWith('postcodes', 'postcode, lat, lng, country', postcodeRows());
    const wrong = { ...EVIDENCE_FILES.postcodePoints, cell: { ...EVIDENCE_FILES.postcodePoints.cell, m: 500 } };
    await expect(writeLookupFile(ctx, wrong)).rejects.toThrow(/postcode_point_cell_rows: DuckDB put \(.+, .+\) in cell \d+, JavaScript in \d+/);
    expect(ctx.artifacts.postcode_points_cells).toBeUndefined();
  });

  it('sqft sales: flags as 1 or 0, keyed by cell; the rent lets file keeps the meta it is given beside its cell', async () => {
    const sales = await contextWith('sqft_sales', 'lat, lng, kind, new_build, gbp_sqft', [
      "(51.45::DOUBLE, -2.58::DOUBLE, 'flat', true, 410.5::DOUBLE)", "(51.45::DOUBLE, -2.58::DOUBLE, 'house', NULL, 300::DOUBLE)",
      "(NULL, -2.58::DOUBLE, 'house', false, 300::DOUBLE)", "(51.46::DOUBLE, -2.57::DOUBLE, 'house', false, 0::DOUBLE)",
    ]);
    expect((await writeLookupFile(sales, EVIDENCE_FILES.sqftSales)).rows).toBe(2);
    const f = KeyedRowsFile.open(join(tmp.dir, 'sqft-sales.rows'), new BlockCache(1 << 16));
    expect([...f.scan()].map(({ cell: _c, ...r }) => r)).toEqual([
      { lat: 51.45, lng: -2.58, gbp_sqft: 300, flat: 0, new_build: 0 },
      { lat: 51.45, lng: -2.58, gbp_sqft: 410.5, flat: 1, new_build: 1 },
    ]);
    f.close();

    const conn = await db.connect();
    await conn.run(`CREATE OR REPLACE TABLE properties AS SELECT 7::BIGINT AS uprn, 850.0::DOUBLE AS floor_area_sqft`);
    const lets = await contextWith('rent_lets', 'evidence_id, let_date, let_type, property_type, bedrooms, rent_pcm, postcode, sector, outcode, uprn, lat, lng', [
      "('e1', DATE '2025-03-01', 'whole', 'flat', 2, 1200::DOUBLE, 'BS1 4AA', 'BS1 4', 'BS1', 7::BIGINT, 51.45::DOUBLE, -2.58::DOUBLE)",
      "('e2', DATE '2025-04-01', 'room', 'house', 4, 500::DOUBLE, 'BS1 4AA', 'BS1 4', 'BS1', NULL, 51.45::DOUBLE, -2.58::DOUBLE)",
      "('e3', DATE '2025-05-01', 'whole', 'house', 300, 2000::DOUBLE, 'BS2 8AB', 'BS2 8', 'BS2', NULL, 51.46::DOUBLE, -2.57::DOUBLE)",
    ]);
    await writeLookupFile(lets, EVIDENCE_FILES.rentLets, { as_of: '2025-05-01', growth_per_month: 0.004 });
    await writeLookupFile(lets, EVIDENCE_FILES.rentLetAreas);
    const l = KeyedRowsFile.open(join(tmp.dir, 'rent-lets.rows'), new BlockCache(1 << 16));
    const a = KeyedRowsFile.open(join(tmp.dir, 'rent-lets-areas.rows'), new BlockCache(1 << 16));
    try {
      expect(l.meta.extra).toEqual({ as_of: '2025-05-01', growth_per_month: 0.004, cell: { m: 500, lat: 'lat', lng: 'lng' } });
      expect([...l.scan()].map(({ cell: _c, ...r }) => r)).toEqual([
        // Days since 1970 written out (2025-03-01 is day 20,148); no UPRN 0, no floor area NaN: no column null.
        { lat: 51.45, lng: -2.58, rent_pcm: 1200, bedrooms: 2, flat: 1, let_day: 20_148, uprn: 7, floor_area_sqft: 850 },
        { lat: 51.46, lng: -2.57, rent_pcm: 2000, bedrooms: 255, flat: 0, let_day: 20_148 + 61, uprn: 0, floor_area_sqft: NaN },
      ]);
      expect([...a.scan()].map((r) => r.area)).toEqual(['O:BS1', 'O:BS2', 'S:BS1 4', 'S:BS2 8']);
      expect(a.get('S:BS1 4')).toEqual([{ area: 'S:BS1 4', rent_pcm: 1200, bedrooms: 2, flat: 1, let_day: 20_148 }]);
    } finally {
      l.close();
      a.close();
    }
  });
});

describe('the evidence files\' SQL', () => {
  for (const [name, spec] of Object.entries(EVIDENCE_FILES)) {
    it(`${name}: sorted by its key in SQL${'cell' in spec ? ', its cells of the spec\'s size' : ''}`, () => {
      const sql = lookupSql(spec.query);
      expect(sql).toMatch(new RegExp(`ORDER BY ${spec.key.name}\\b`));
      if ('cell' in spec) {
        expect(spec.before).toContain('cell_key_macro');
        expect([...sql.matchAll(/cell_key\([^)]*,\s*(\d+)\)/g)].map((m) => Number(m[1]))).toEqual([spec.cell.m]);
      }
    });
  }
});
