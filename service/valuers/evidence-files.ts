import type { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import { EVIDENCE_FILES, letAreaKey, type RentLetsMeta } from '../../lib/files/evidence-files.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import type { LetRow, RentLetsIndex, SqftSaleRow, SqftSalesIndex } from './evidence.ts';

/**
 * The rent lets and sqft sales read where they lie (issue 46, ADR 0015 step 6): the ETL's
 * keyed-rows files (lib/files/evidence-files.ts) through the build's page cache, a radius
 * search reading the cells around its point (CellPoints), an area's lets its key's run. Null
 * from `open…` when the build's manifest lists no such file (an older build: the heap's, evidence.ts);
 * a listed file missing, cut short or of another table throws a `LookupFileError` naming it.
 */

interface LetCellRow { cell: number; lat: number; lng: number; rent_pcm: number; bedrooms: number; flat: number; let_date: string; uprn: number | null; floor_area_sqft: number | null }
interface LetAreaRow { area: string; rent_pcm: number; bedrooms: number; flat: number; let_date: string }
interface SaleCellRow { cell: number; lat: number; lng: number; gbp_sqft: number; flat: number; new_build: number }

const letOf = (r: LetCellRow): LetRow => ({ rent: r.rent_pcm, bedrooms: r.bedrooms, flat: r.flat, date: r.let_date, uprn: r.uprn ?? 0, floorAreaSqft: r.floor_area_sqft ?? NaN });

class FileRentLets implements RentLetsIndex {
  private readonly points: CellPoints<LetCellRow>;

  constructor(
    private readonly cells: KeyedRowsFile<LetCellRow>,
    private readonly areas: KeyedRowsFile<LetAreaRow>,
    readonly asOf: string,
    readonly growthPerMonth: number,
  ) {
    this.points = new CellPoints(cells, EVIDENCE_FILES.rentLets.cell.m, (r) => r);
  }

  within(lat: number, lng: number, radiusM: number, visit: (l: LetRow, d: number) => void): void {
    this.points.within(lat, lng, radiusM, (r, d) => visit(letOf(r), d));
  }

  inArea(level: 'sector' | 'outcode', code: string, visit: (l: LetRow) => void): void {
    for (const r of this.areas.get(letAreaKey(level, code))) {
      visit({ rent: r.rent_pcm, bedrooms: r.bedrooms, flat: r.flat, date: r.let_date, uprn: 0, floorAreaSqft: NaN });
    }
  }

  close(): void {
    this.cells.close();
    this.areas.close();
  }
}

/** The build's rent lets files, or null when its manifest lists neither (an older build). */
export function openRentLetsFiles(build: BuildInfo, pages: BlockCache): (RentLetsIndex & { close(): void }) | null {
  const cells = openServingFile<LetCellRow>(build, EVIDENCE_FILES.rentLets, pages, 'rent lets');
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
  private readonly points: CellPoints<SaleCellRow>;

  constructor(private readonly file: KeyedRowsFile<SaleCellRow>) {
    this.points = new CellPoints(file, EVIDENCE_FILES.sqftSales.cell.m, (r) => r);
  }

  within(lat: number, lng: number, radiusM: number, visit: (s: SqftSaleRow, d: number) => void): void {
    this.points.within(lat, lng, radiusM, (r, d) => visit({ gbpSqft: r.gbp_sqft, flat: r.flat, newBuild: r.new_build }, d));
  }

  close(): void {
    this.file.close();
  }
}

/** The build's sqft sales file, or null when its manifest does not list it (an older build). */
export function openSqftSalesFile(build: BuildInfo, pages: BlockCache): (SqftSalesIndex & { close(): void }) | null {
  const file = openServingFile<SaleCellRow>(build, EVIDENCE_FILES.sqftSales, pages, 'sqft sales');
  return file && new FileSqftSales(file);
}
