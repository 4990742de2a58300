import type { BlockCache } from '../../lib/files/block-file.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { BuildInfo } from '../build/source.ts';
import type { BuildStore } from '../store/store.ts';
import type { Row } from '../store/queries.ts';
import { KeyedRows } from './keyed.ts';
import { openLookupFile, type LookupFiles } from './lookup-files.ts';
import { RowsByNumber, RowsByText } from './packed-rows.ts';
import { lastDayOf } from '../../schemas/months.ts';

/**
 * The tables the lookup endpoints read: the big keyed ones (sales, certificates, postcodes, the
 * monthly medians by type) from the ETL's keyed-rows files (lookup-files.ts), the per-area ones
 * (service/store/sql/lookup_*_table.sql) made in the build's store when the build opens, each
 * from tables every build has: point lookups
 * by UPRN or area key are then index probes, not Parquet row-group scans, and the area counts
 * and mixes are one aggregate per build instead of one per request. A table whose inputs the
 * build lacks (an older build) is not made, and its endpoint answers 503.
 */
export type LookupTable = 'sales' | 'epc' | 'area' | 'index' | 'area_stats' | 'str' | 'room_rents';

/**
 * A big table looked up by key: the ETL's keyed-rows file read where it lies (KeyedRowsFile,
 * lookup-files.ts), or, for a build published before those files, the rows packed in the
 * heap (RowsByNumber / RowsByText). Both give a key's rows in the query's order.
 */
export interface KeyedLookup<K extends number | string, R> {
  get(key: K): R[];
  readonly size: number;
}
export interface KeyedLookupFirst<K extends number | string, R> extends KeyedLookup<K, R> {
  first(key: K): R | undefined;
}

export interface LookupTables {
  store: BuildStore;
  has: ReadonlySet<LookupTable>;
  /** The small per-area tables, in the heap keyed "level:code" (empty where `has` lacks their table). */
  rows: AreaRows;
  /** Every matched sale by UPRN (where `has` has 'sales'). */
  sales: KeyedLookup<number, SaleRow> | null;
  /** Every linked certificate by UPRN (where `has` has 'epc'). */
  epc: KeyedLookup<number, EpcRow> | null;
  /** The postcode directory by canonical postcode (where the build has it). */
  postcodes: KeyedLookupFirst<string, Row<'lookup_postcode_rows'>> | null;
  /** Monthly median price and sales of each property type by area, keyed "level:code:type" (where `has` has 'sales'). */
  typeMonths: KeyedLookup<string, Row<'lookup_type_months_rows'>> | null;
  /** The keyed-rows files opened for the tables above (closed with the build: `closeLookupTables`). */
  files: readonly KeyedRowsFile<unknown>[];
  /** The build date (YYYY-MM-DD): the day the sources were read; no window ends on it (`windowEndDate`). */
  buildDate: string;
  /** The latest month of Price Paid the statistics run to (YYYY-MM), where the build has price_growth. */
  salesMonth: string | null;
  /** Local authority names by GSS code (UK HPI's), where the build has them. */
  laNames: ReadonlyMap<string, string>;
  /** The local authority each outcode mostly lies in, by the postcode directory (where the build has it). */
  outcodeDistricts: ReadonlyMap<string, string>;
}

/** A row of a keyed table, without its key. */
export type KeyedRow<N extends 'lookup_area_counts' | 'lookup_area_mix' | 'lookup_growth' | 'lookup_index_series' | 'lookup_area_prices' | 'lookup_area_rents' | 'lookup_area_str' | 'lookup_room_rents'> = Omit<Row<N>, 'key'>;
export type SaleRow = Omit<Row<'lookup_sales_rows'>, 'uprn'>;
export type EpcRow = Omit<Row<'lookup_epc_rows'>, 'uprn'>;

export interface AreaRows {
  counts: KeyedRows<KeyedRow<'lookup_area_counts'>>;
  mix: KeyedRows<KeyedRow<'lookup_area_mix'>>;
  growth: KeyedRows<KeyedRow<'lookup_growth'>>;
  index: KeyedRows<KeyedRow<'lookup_index_series'>>;
  sqft: KeyedRows<KeyedRow<'lookup_area_prices'>>;
  rents: KeyedRows<KeyedRow<'lookup_area_rents'>>;
  str: KeyedRows<KeyedRow<'lookup_area_str'>>;
  rooms: KeyedRows<KeyedRow<'lookup_room_rents'>>;
}

/** The build date: the day its manifest was created (the ETL's `today`). */
export function buildDate(build: BuildInfo): string {
  return String(build.manifest.created_at ?? '').slice(0, 10);
}

/**
 * Makes the lookup tables (a BuildResources field, opened after the store): the big keyed
 * tables from the build's keyed-rows files on `pages` (the build's page cache) where its
 * manifest lists them, else in the heap from the store as before the ETL wrote them; the
 * small per-area tables in the store. A listed file that is missing, cut short, or not the
 * table's fails the load with an error naming it (its endpoints answer 503; never a wrong
 * answer). Without `pages` (tests of the in-heap path) every table is made in the heap.
 */
export async function loadLookupTables(store: BuildStore, build: BuildInfo, opts: { pages?: BlockCache } = {}): Promise<LookupTables> {
  const files = opts.pages ? new LookupFilesOpener(build, opts.pages) : null;
  try {
    return await loadTables(store, build, files);
  } catch (e) {
    files?.closeAll();
    throw e;
  }
}

/** Closes the keyed-rows files the tables read (BuildResources.close). */
export function closeLookupTables(t: LookupTables): void {
  for (const f of t.files) f.close();
}

/** Opens a build's lookup files as the tables ask for them, remembering each to close. */
class LookupFilesOpener {
  readonly opened: KeyedRowsFile<unknown>[] = [];
  constructor(private readonly build: BuildInfo, private readonly pages: BlockCache) {}

  /** The file of `name` when the build's manifest lists it, else null (an older build: the in-heap path). */
  open<N extends keyof LookupFiles>(name: N): LookupFiles[N] | null {
    const f = openLookupFile(this.build, name, this.pages);
    if (f) this.opened.push(f as KeyedRowsFile<unknown>);
    return f;
  }

  closeAll(): void {
    for (const f of this.opened) f.close();
  }
}

async function loadTables(store: BuildStore, build: BuildInfo, files: LookupFilesOpener | null): Promise<LookupTables> {
  const t = store.tables;
  const has = new Set<LookupTable>();
  const date = buildDate(build);
  const none = KeyedRows.empty<never>();
  const rows: AreaRows = { counts: none, mix: none, growth: none, index: none, sqft: none, rents: none, str: none, rooms: none };
  let sales: LookupTables['sales'] = null;
  let typeMonths: LookupTables['typeMonths'] = null;
  let epc: LookupTables['epc'] = null;
  const salesFile = t.has('sales') && t.has('properties') ? files?.open('sales') ?? null : null;
  if (salesFile) {
    sales = salesFile;
    typeMonths = files!.open('typeMonths');
    if (!typeMonths) throw new Error(`build ${build.id} lists ${salesFile.path} but not its monthly medians' file: republish it`);
    has.add('sales');
  } else if (t.has('sales') && t.has('properties')) {
    await store.exec('lookup_sales_table');
    await store.exec('lookup_type_months_table');
    sales = await RowsByNumber.load(store, 'lookup_sales_rows', 'uprn');
    typeMonths = await RowsByText.load(store, 'lookup_type_months_rows', 'key');
    await store.exec('lookup_sales_tables_drop');
    has.add('sales');
  }
  // A build published before epc_linked had potential_energy_efficiency and main_fuel cannot make it.
  if (t.has('epc_linked')) epc = files?.open('epc') ?? await RowsByNumber.load(store, 'lookup_epc_rows', 'uprn').catch(() => null);
  if (epc) has.add('epc');
  const postcodes = t.has('postcodes') ? files?.open('postcodes') ?? await RowsByText.load(store, 'lookup_postcode_rows', 'postcode', { unique: true }) : null;
  if (t.has('sales') && t.has('properties') && t.has('addresses') && /^\d{4}-\d{2}-\d{2}$/.test(date)) {
    await store.exec('lookup_area_counts_table', [windowEndDate(build, 'price_paid')]);
    await store.exec('lookup_area_counts_index');
    await store.exec('lookup_area_mix_table');
    rows.counts = await KeyedRows.load(store, 'lookup_area_counts');
    rows.mix = await KeyedRows.load(store, 'lookup_area_mix');
    has.add('area');
  }
  if (t.has('price_index_monthly')) {
    await store.exec('lookup_index_table');
    rows.index = await KeyedRows.load(store, 'lookup_index_series');
    has.add('index');
  }
  if (['price_growth', 'price_per_sqft', 'rents_area', 'yields_area'].every((n) => t.has(n))) {
    await store.exec('lookup_area_stats_tables');
    rows.growth = await KeyedRows.load(store, 'lookup_growth');
    rows.sqft = await KeyedRows.load(store, 'lookup_area_prices');
    rows.rents = await KeyedRows.load(store, 'lookup_area_rents');
    has.add('area_stats');
  }
  if (t.has('str_area_snapshot') && t.has('str_area_months')) {
    await store.exec('lookup_area_str_table');
    rows.str = await KeyedRows.load(store, 'lookup_area_str');
    has.add('str');
  }
  if (t.has('rents_rooms')) {
    rows.rooms = await KeyedRows.load(store, 'lookup_room_rents');
    has.add('room_rents');
  }
  const names = t.has('ukhpi_monthly') ? await store.rows('lookup_la_names') : [];
  const laNames = new Map(names.map((r) => [r.area_code, r.name]));
  const outcodeDistricts = new Map((t.has('postcodes') ? await store.rows('lookup_outcode_districts') : []).map((r) => [r.outcode, r.la_code]));
  const month = t.has('price_growth') ? (await store.rows('lookup_sales_month'))[0]?.month : null;
  return { store, has, rows, sales, epc, postcodes, typeMonths, files: files?.opened ?? [], buildDate: date, salesMonth: month ?? null, laNames, outcodeDistricts };
}

/**
 * Where the windows over a source end (YYYY-MM-DD): the last day of its as-of month, as the ETL
 * ended them (etl/pipeline/source-as-of.ts); the build date where the build has no dated row of it.
 */
export function windowEndDate(build: BuildInfo, name: string): string {
  const month = sourceAsOfMonth(build, name);
  return month === null ? buildDate(build) : lastDayOf(month);
}

/**
 * A source's latest complete month in the build (YYYY-MM), where its windows end: the manifest's
 * `source_as_of` (how the ETL decided it); for an older build, the month of its files' latest
 * full date. Null when none of its rows is dated.
 */
export function sourceAsOfMonth(build: BuildInfo, name: string): string | null {
  const decided = (build.manifest.source_as_of as Record<string, { month?: unknown }> | undefined)?.[name];
  if (decided && (typeof decided.month === 'string' || decided.month === null)) return decided.month;
  const d = sourceAsOf(build, name);
  return d !== null && /^\d{4}-\d{2}/.test(d) ? d.slice(0, 7) : null;
}

/**
 * The date the planning features are in force on: the planning layer's as-of (its latest full
 * date not after the build date, as the spatial-flags stage took it); the build date without one.
 */
export function planningAsOfDate(build: BuildInfo): string {
  const d = sourceAsOf(build, 'planning');
  return d !== null && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : buildDate(build);
}

/** A source's as-of as answers list it: its latest date and the month its windows end in. */
export function sourceAsOfEntry(build: BuildInfo, name: string): { name: string; as_of: string | null; as_of_month: string | null } {
  return { name, as_of: sourceAsOf(build, name), as_of_month: sourceAsOfMonth(build, name) };
}

/** The latest as-of date of a source's files in the build (null when none says). */
export function sourceAsOf(build: BuildInfo, name: string, pathIncludes?: string): string | null {
  const sources = Array.isArray(build.manifest.sources) ? (build.manifest.sources as Record<string, unknown>[]) : [];
  let best: string | null = null;
  for (const s of sources) {
    if (s.name !== name || (pathIncludes !== undefined && !String(s.path).includes(pathIncludes))) continue;
    const d = s.as_of == null ? null : String(s.as_of);
    if (d !== null && (best === null || d > best)) best = d;
  }
  return best;
}
