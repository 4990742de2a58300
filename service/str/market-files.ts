import type { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import type { KeyedRowsFile, Value } from '../../lib/files/keyed-rows-file.ts';
import { STR_MARKET_AREAS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_CELL_M, STR_MARKET_ROWS_FILE, STR_RATING_FIELDS, type StrMarketRowsExtra } from '../../lib/files/str-market-file.ts';
import { cellRanges } from '../../lib/geo/grid-cells.ts';
import { localMetres } from '../../lib/geo/points.ts';
import { benchmarkOf, dimensionValues, type GradeBenchmark } from '../domain/str/market-grade.ts';
import { HISTORY_MONTHS, LISTING_TYPE_CODES, TIER_NAMES, type MarketListings } from '../domain/str/market-listings.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import { emptyMarketListings, pointInRing, type StrMarket } from './market-set.ts';

type Row = Record<string, number | string | boolean | null>;
interface CellRow { cell: number; rn: number; lat: number; lng: number }
interface AreaRow { area: string; rn: number }

const M4 = HISTORY_MONTHS * 4;
const COLUMN_NAMES: readonly string[] = STR_MARKET_ROWS_FILE.columns.map((c) => c.name);
const at = (name: string) => COLUMN_NAMES.indexOf(name);
/** Each column's index in a row's values (the rows file's columns: lib/files/str-market-file.ts). */
const ROW_AT = {
  lat: at('lat'), lng: at('lng'), postcode: at('postcode'), sector: at('sector'), outcode: at('outcode'), country: at('country'),
  listing_type: at('listing_type'), property_type: at('property_type'), bedrooms: at('bedrooms'), price_tier: at('price_tier'),
  rating: at(`rating_${STR_RATING_FIELDS[0]}`), active: at('active'), blocked: at('blocked'), new_30d: at('new_30d'),
  booked_ahead_30d: at('booked_ahead_30d'), available_next_30d: at('available_next_30d'), stay_nights: at('stay_nights'),
  amenities: at('amenities'), end_month: at('end_month'), m0: at('m0'), p0: at('p0'),
};

/** The cells file's rn column (its first: lib/files/str-market-file.ts). */
const RN_COLUMN = [0];

/** The months' columns (m0… then p0…, the row's last): read as numbers, none boxed as a value. */
const MONTH_COLUMNS = Array.from({ length: M4 + 24 }, (_, q) => ROW_AT.m0 + q);
if (ROW_AT.p0 !== ROW_AT.m0 + M4 || MONTH_COLUMNS.at(-1) !== COLUMN_NAMES.length - 1) throw new Error('str-market-file: the months are not the rows\' last columns, m0… then p0…');

/**
 * The market set read where it lies (lib/files/str-market-file.ts; issue 46, ADR 0015 step 6):
 * a location's listings from the cell or area file, their rows from the rows file, made into a
 * set of just those listings. The same listings, in the same order, with the same values as
 * the in-heap StrMarketSet, so the same answers (test/service/str-market-files.test.ts).
 */
export class StrMarketFiles implements StrMarket {
  private readonly points: CellPoints<CellRow>;
  private readonly extra: StrMarketRowsExtra;
  private benchmark: Promise<GradeBenchmark> | undefined;
  /** One row's leading values and its months, reused (a request reads its listings one after another). */
  private readonly values: Value[] = [];
  private readonly monthValues = new Float64Array(MONTH_COLUMNS.length);
  /** Each amenity key's place in a listing's amenity flags. */
  private readonly amenityAt: ReadonlyMap<string, number>;
  /** A cell row's listing number, read without decoding the row. */
  private readonly rn = new Float64Array(1);

  private constructor(
    private readonly rows: KeyedRowsFile<Row>,
    private readonly cells: KeyedRowsFile<CellRow>,
    private readonly areas: KeyedRowsFile<AreaRow>,
  ) {
    this.points = new CellPoints(cells, STR_MARKET_CELL_M);
    const extra = rows.meta.extra as Partial<StrMarketRowsExtra> | undefined;
    if (!Array.isArray(extra?.amenityKeys) || typeof extra.unplaced !== 'number' || !Array.isArray(extra.countries)) {
      throw new LookupFileError(`${rows.path}: its meta has no amenity keys, unplaced count or countries`);
    }
    if (cells.size !== rows.size) throw new LookupFileError(`${cells.path}: ${cells.size} listings, the rows file ${rows.size}`);
    this.extra = extra as StrMarketRowsExtra;
    this.amenityAt = new Map(this.extra.amenityKeys.map((k, a) => [k, a]));
  }

  /**
   * The build's market files when its manifest lists them (null when it lists none: an older
   * build, served from the heap); a listed file missing, cut short or foreign throws a
   * LookupFileError, as does a build listing only some of them.
   */
  static open(build: BuildInfo, pages: BlockCache): StrMarketFiles | null {
    const opened: KeyedRowsFile<unknown>[] = [];
    try {
      const files = [STR_MARKET_ROWS_FILE, STR_MARKET_CELLS_FILE, STR_MARKET_AREAS_FILE].map((spec) => {
        const f = openServingFile<unknown>(build, spec, pages, `STR market ${spec.artifact}`);
        if (f) opened.push(f);
        return f;
      });
      if (files.every((f) => f === null)) return null;
      if (files.some((f) => f === null)) throw new LookupFileError(`build ${build.id}: lists only some of the STR market files`);
      const [rows, cells, areas] = files as [KeyedRowsFile<Row>, KeyedRowsFile<CellRow>, KeyedRowsFile<AreaRow>];
      return new StrMarketFiles(rows, cells, areas);
    } catch (e) {
      for (const f of opened) f.close();
      throw e;
    }
  }

  get size(): number {
    return this.rows.size;
  }

  sector(code: string): readonly number[] {
    return this.areas.get(`S:${code}`).map((r) => r.rn);
  }

  outcode(code: string): readonly number[] {
    return this.areas.get(`O:${code}`).map((r) => r.rn);
  }

  unplacedCount(): number {
    return this.extra.unplaced;
  }

  countries(): readonly string[] {
    return this.extra.countries;
  }

  within(lat: number, lng: number, radiusM: number): number[] {
    const out: number[] = [];
    const rn = this.rn;
    this.points.withinRaw(lat, lng, radiusM, (page, at) => {
      this.cells.numbersAt(page, at, RN_COLUMN, rn);
      out.push(rn[0]!);
    });
    return out.sort((a, b) => a - b);
  }

  inPolygon(ring: readonly (readonly [number, number])[]): number[] {
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const [x, y] of ring) {
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    // The box in local metres, as the in-heap set's R-tree searches it.
    const [x0, y0] = localMetres(minY, minX);
    const [x1, y1] = localMetres(maxY, maxX);
    const out: number[] = [];
    if (!(x0 <= x1 && y0 <= y1)) return out;
    for (const [lo, hi] of cellRanges(x0, y0, x1, y1, STR_MARKET_CELL_M)) {
      for (const r of this.cells.range(lo, hi)) {
        const [x, y] = localMetres(r.lat, r.lng);
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1 && pointInRing(r.lng, r.lat, ring)) out.push(r.rn);
      }
    }
    return out.sort((a, b) => a - b);
  }

  select(rns: readonly number[]): { s: MarketListings; at: number[] } {
    return { s: this.listingsOf(rns), at: rns.map((_, k) => k) };
  }

  ltm(): Float64Array | undefined {
    return undefined;
  }

  bench(): Promise<GradeBenchmark> {
    this.benchmark ??= Promise.resolve().then(() => this.benchFromSectors());
    return this.benchmark;
  }

  lats(): Float64Array {
    const lat = new Float64Array(this.size).fill(NaN);
    for (const r of this.cells.scan()) if (r.rn >= 0 && r.rn < lat.length) lat[r.rn] = r.lat;
    return lat;
  }

  close(): void {
    this.rows.close();
    this.cells.close();
    this.areas.close();
  }

  /** One pass over the sectors, one sector's listings at a time, as gradeBenchmark makes it. */
  private benchFromSectors(): GradeBenchmark {
    const sectors: Array<{ area: string; rns: number[] }> = [];
    for (const r of this.areas.range('S:', 'S;')) {
      const last = sectors[sectors.length - 1];
      if (last?.area === r.area.slice(2)) last.rns.push(r.rn);
      else sectors.push({ area: r.area.slice(2), rns: [r.rn] });
    }
    return benchmarkOf(sectors.map(({ area, rns }) => {
      // Each sector's values now, so no more than one sector's listings are held at a time.
      const s = this.listingsOf(rns);
      let active = 0;
      for (let k = 0; k < s.n; k++) active += s.active[k]!;
      const values = dimensionValues(s, rns.map((_, k) => k));
      return { area, active, values: () => values };
    }));
  }

  /** The listings `rns` (row numbers of the set) as a set of their own: its listing k is rns[k]. */
  listingsOf(rns: readonly number[]): MarketListings {
    const n = rns.length;
    const amenityKeys = this.extra.amenityKeys;
    const K = amenityKeys.length;
    // Every listing's end month is read from its row.
    const s: MarketListings = { ...emptyMarketListings(n, amenityKeys), prior: new Float32Array(n * 24) };
    const amenityAt = this.amenityAt;
    const c = ROW_AT;
    const v = this.values;
    const mv = this.monthValues;
    const read = (page: Buffer, at: number) => {
      this.rows.valuesFrom(page, at, v, c.m0);
      this.rows.numbersAt(page, at, MONTH_COLUMNS, mv);
    };
    for (let i = 0; i < n; i++) {
      if (!this.rows.firstRaw(rns[i]!, read)) throw new LookupFileError(`${this.rows.path}: no listing ${rns[i]} (the cell or area file names it)`);
      s.lat[i] = v[c.lat] as number;
      s.lng[i] = v[c.lng] as number;
      s.postcode[i] = v[c.postcode] as string | null;
      s.sector[i] = v[c.sector] as string | null;
      s.outcode[i] = v[c.outcode] as string | null;
      s.country[i] = v[c.country] as string | null;
      const t = LISTING_TYPE_CODES.indexOf(v[c.listing_type] as (typeof LISTING_TYPE_CODES)[number]);
      s.type[i] = t < 0 ? 255 : t;
      s.kind[i] = v[c.property_type] === 'house' ? 1 : v[c.property_type] === 'apartment' ? 2 : 0;
      s.beds[i] = (v[c.bedrooms] as number | null) ?? -1;
      s.tier[i] = TIER_NAMES.indexOf(v[c.price_tier] as (typeof TIER_NAMES)[number]);
      for (let k = 0; k < 7; k++) s.ratings[i * 7 + k] = (v[c.rating + k] as number | null) ?? NaN;
      s.active[i] = v[c.active] ? 1 : 0;
      s.blocked[i] = v[c.blocked] ? 1 : 0;
      s.new30[i] = v[c.new_30d] ? 1 : 0;
      s.bookedAhead30[i] = (v[c.booked_ahead_30d] as number | null) || 0;
      s.openNext30[i] = (v[c.available_next_30d] as number | null) || 0;
      s.stay[i] = (v[c.stay_nights] as number | null) || 0;
      const amen = v[c.amenities] as string | null;
      if (amen) for (const key of amen.split(',')) s.amenities[i * K + amenityAt.get(key)!] = 1;
      s.endMonth[i] = v[c.end_month] as number;
      for (let q = 0; q < M4; q++) s.months[i * M4 + q] = mv[q]!;
      for (let q = 0; q < 24; q++) s.prior![i * 24 + q] = mv[M4 + q]!;
    }
    return s;
  }
}
