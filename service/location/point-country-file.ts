import { LRUCache } from 'lru-cache';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import { EVIDENCE_FILES } from '../../lib/files/evidence-files.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOOKUP_FILES } from '../../lib/files/lookup-tables-format.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import { NEAREST_POSTCODE_MAX_M, NEAREST_TIES, areaKeys, nearestOfTies, type PointCountryAnswer, type PointCountryIndex } from './point-country.ts';

interface PointRow { cell: number; lat: number; lng: number; postcode: string; country: string }
interface DirectoryRow { postcode: string; country: string | null }

/** Text keys sort by code unit, and postcodes are ASCII: every key that starts with a prefix is at most the prefix and this. */
const AFTER = '\x7f'.repeat(8);

/**
 * The countries of points and areas read where they lie (issue 46, ADR 0015 step 6): a bare
 * point's nearest postcode from postcode-points.rows (by grid cell), an area's postcodes from
 * the postcode directory's file (lookup-postcodes.rows, by postcode: a sector's or outcode's
 * postcodes are one run of keys). The answers of the heap's PointCountry
 * (test/service/evidence-files.test.ts); an area's countries are kept per build (a few KB).
 */
class FilePointCountry implements PointCountryIndex {
  private readonly points: CellPoints<PointRow>;
  private readonly areas = new LRUCache<string, readonly string[]>({ max: 4096 });

  constructor(private readonly cells: KeyedRowsFile<PointRow>, private readonly directory: KeyedRowsFile<DirectoryRow>) {
    this.points = new CellPoints(cells, EVIDENCE_FILES.postcodePoints.cell.m);
  }

  ofArea(code: string): readonly string[] {
    let got = this.areas.get(code);
    if (!got) this.areas.set(code, (got = this.read(code)));
    return got;
  }

  /** A postcode's, sector's or outcode's countries: every postcode it is an area of lies in the keys from `code` on that start with it. */
  private read(code: string): readonly string[] {
    const countries = new Set<string>();
    // A sector's or postcode's postcodes start with it; an outcode's with it and a space (not "B10 …" for "B1").
    const rows = code.includes(' ') ? this.directory.range(code, code + AFTER) : [...this.directory.get(code), ...this.directory.range(`${code} `, `${code} ${AFTER}`)];
    for (const r of rows) {
      if (r.country !== null && areaKeys(r.postcode).includes(code)) countries.add(r.country);
    }
    return [...countries].sort();
  }

  at(lat: number, lng: number): PointCountryAnswer | null {
    const best = nearestOfTies(this.points.nearest(lat, lng, NEAREST_TIES, NEAREST_POSTCODE_MAX_M), (f) => f.d, (f) => f.row.postcode);
    return best ? { country: best.row.country, distance_m: Math.round(best.d) } : null;
  }

  close(): void {
    this.cells.close();
    this.directory.close();
  }
}

/**
 * The build's postcode points file with its postcode directory file, or null when its manifest
 * lists no postcode points file (an older build: the heap's). Listed but unreadable, or listed
 * without the directory's file: a `LookupFileError` naming it.
 */
export function openPointCountryFile(build: BuildInfo, pages: BlockCache): (PointCountryIndex & { close(): void }) | null {
  const cells = openServingFile<PointRow>(build, EVIDENCE_FILES.postcodePoints, pages, 'postcode points');
  if (!cells) return null;
  try {
    const directory = openServingFile<DirectoryRow>(build, LOOKUP_FILES.postcodes, pages, 'postcodes lookup');
    if (!directory) throw new LookupFileError(`build ${build.id}: its manifest lists ${EVIDENCE_FILES.postcodePoints.file} without ${LOOKUP_FILES.postcodes.file}`);
    return new FilePointCountry(cells, directory);
  } catch (e) {
    cells.close();
    throw e;
  }
}
