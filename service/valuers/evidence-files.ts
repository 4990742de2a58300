import type { BlockCache } from '../../lib/files/block-file.ts';
import { EVIDENCE_FILES, letAreaKey, type RentLetsMeta } from '../../lib/files/evidence-files.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import { FixedCellRows } from './fixed-cell-rows.ts';
import type { LetRow, RentLetsIndex, SqftSaleRow, SqftSalesIndex } from './evidence.ts';

/**
 * The rent lets and sqft sales read where they lie (issue 46, ADR 0015 step 6): the ETL's
 * keyed-rows files (lib/files/evidence-files.ts) through the build's page cache, a radius
 * search reading the cells around its point at fixed offsets (FixedCellRows: CellPoints' search
 * without a row object), an area's lets its key's run. Null
 * from `open…` when the build's manifest lists no such file (an older build: the heap's, evidence.ts);
 * a listed file missing, cut short or of another table throws a `LookupFileError` naming it.
 */

interface LetAreaRow { area: string; rent_pcm: number; bedrooms: number; flat: number; let_day: number }

/** A let's date from its day (a few hundred distinct days: made once each). */
class Dates {
  private readonly memo = new Map<number, string>();
  of(day: number): string {
    let d = this.memo.get(day);
    if (d === undefined) this.memo.set(day, (d = new Date(day * 86_400_000).toISOString().slice(0, 10)));
    return d;
  }
}

class FileRentLets implements RentLetsIndex {
  private readonly points: FixedCellRows;
  private readonly col: Record<'rent' | 'bedrooms' | 'flat' | 'day' | 'uprn' | 'area', number>;
  private readonly dates = new Dates();

  constructor(
    private readonly cells: KeyedRowsFile<unknown>,
    private readonly areas: KeyedRowsFile<LetAreaRow>,
    readonly asOf: string,
    readonly growthPerMonth: number,
  ) {
    const p = (this.points = new FixedCellRows(cells, EVIDENCE_FILES.rentLets.cell.m, 'lat', 'lng'));
    this.col = { rent: p.column('rent_pcm'), bedrooms: p.column('bedrooms'), flat: p.column('flat'), day: p.column('let_day'), uprn: p.column('uprn'), area: p.column('floor_area_sqft') };
  }

  within(lat: number, lng: number, radiusM: number, visit: (l: LetRow, d: number) => void): void {
    const c = this.col;
    this.points.within(lat, lng, radiusM, (v, d) => {
      const day = v[c.day]!;
      visit({ rent: v[c.rent]!, bedrooms: v[c.bedrooms]!, flat: v[c.flat]!, date: this.dates.of(day), day, uprn: v[c.uprn]!, floorAreaSqft: v[c.area]! }, d);
    });
  }

  inArea(level: 'sector' | 'outcode', code: string, visit: (l: LetRow) => void): void {
    for (const r of this.areas.get(letAreaKey(level, code))) {
      visit({ rent: r.rent_pcm, bedrooms: r.bedrooms, flat: r.flat, date: this.dates.of(r.let_day), day: r.let_day, uprn: 0, floorAreaSqft: NaN });
    }
  }

  close(): void {
    this.cells.close();
    this.areas.close();
  }
}

/** The build's rent lets files, or null when its manifest lists neither (an older build). */
export function openRentLetsFiles(build: BuildInfo, pages: BlockCache): (RentLetsIndex & { close(): void }) | null {
  const cells = openServingFile<unknown>(build, EVIDENCE_FILES.rentLets, pages, 'rent lets');
  let areas: KeyedRowsFile<LetAreaRow> | null = null;
  try {
    areas = openServingFile<LetAreaRow>(build, EVIDENCE_FILES.rentLetAreas, pages, 'rent lets by area');
    if (!cells && !areas) return null;
    if (!cells || !areas) throw new LookupFileError(`build ${build.id}: its manifest lists ${cells ? EVIDENCE_FILES.rentLets.file : EVIDENCE_FILES.rentLetAreas.file} without ${cells ? EVIDENCE_FILES.rentLetAreas.file : EVIDENCE_FILES.rentLets.file}`);
    const meta = cells.meta.extra as Partial<RentLetsMeta> | undefined;
    if (typeof meta?.as_of !== 'string' || typeof meta.growth_per_month !== 'number' || !Number.isFinite(meta.growth_per_month)) {
      throw new LookupFileError(`build ${build.id}: ${cells.path} has no as-of date or rent growth in its meta`);
    }
    return new FileRentLets(cells, areas, meta.as_of, meta.growth_per_month);
  } catch (e) {
    cells?.close();
    areas?.close();
    throw e;
  }
}

class FileSqftSales implements SqftSalesIndex {
  private readonly points: FixedCellRows;
  private readonly col: Record<'gbp' | 'flat' | 'newBuild', number>;

  constructor(private readonly file: KeyedRowsFile<unknown>) {
    const p = (this.points = new FixedCellRows(file, EVIDENCE_FILES.sqftSales.cell.m, 'lat', 'lng'));
    this.col = { gbp: p.column('gbp_sqft'), flat: p.column('flat'), newBuild: p.column('new_build') };
  }

  within(lat: number, lng: number, radiusM: number, visit: (s: SqftSaleRow, d: number) => void): void {
    const c = this.col;
    this.points.within(lat, lng, radiusM, (v, d) => visit({ gbpSqft: v[c.gbp]!, flat: v[c.flat]!, newBuild: v[c.newBuild]! }, d));
  }

  close(): void {
    this.file.close();
  }
}

/** The build's sqft sales file, or null when its manifest does not list it (an older build). */
export function openSqftSalesFile(build: BuildInfo, pages: BlockCache): (SqftSalesIndex & { close(): void }) | null {
  const file = openServingFile<unknown>(build, EVIDENCE_FILES.sqftSales, pages, 'sqft sales');
  return file && new FileSqftSales(file);
}
