import type { BlockCache } from '../../lib/files/block-file.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import type { BuildInfo } from '../build/source.ts';
import type { BuildStore } from '../store/store.ts';
import type { Row } from '../store/queries.ts';
import { AreaRowsFile, KeyedRows, type AreaTable } from './keyed.ts';
import { LookupFileError, openLookupFile, type LookupFiles } from './lookup-files.ts';
import { RowsByNumber, RowsByText } from './packed-rows.ts';
import { lastDayOf } from '../../schemas/months.ts';

/**
 * The tables the lookup endpoints read, from the ETL's keyed-rows files (lookup-files.ts): the
 * big keyed ones (sales, certificates, postcodes, the monthly medians by type) and the per-area
 * ones (counts, mixes, index, growth, £ per sq ft, rents, short-term lets, room rents), so the
 * area counts and mixes are one aggregate per build, made by the ETL, not one per request or per
 * process. A build published before those files has them made from its store when it opens
 * (lib/files/lookup-sql/, the same SQL). A table whose inputs the build lacks (an older build)
 * is not made, and its endpoint answers 503.
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
  /** The per-area tables keyed "level:code": read from their files, or in the heap for an older build (empty where `has` lacks their table). */
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
  counts: AreaTable<KeyedRow<'lookup_area_counts'>>;
  mix: AreaTable<KeyedRow<'lookup_area_mix'>>;
  growth: AreaTable<KeyedRow<'lookup_growth'>>;
  index: AreaTable<KeyedRow<'lookup_index_series'>>;
  sqft: AreaTable<KeyedRow<'lookup_area_prices'>>;
  rents: AreaTable<KeyedRow<'lookup_area_rents'>>;
  str: AreaTable<KeyedRow<'lookup_area_str'>>;
  rooms: AreaTable<KeyedRow<'lookup_room_rents'>>;
}

/** Each per-area table's file (lib/files/lookup-tables-format.ts). */
const AREA_FILE = {
  counts: 'areaCounts', mix: 'areaMix', growth: 'areaGrowth', index: 'areaIndex', sqft: 'areaSqft', rents: 'areaRents', str: 'areaStr', rooms: 'areaRooms',
} as const satisfies Record<keyof AreaRows, keyof LookupFiles>;

/** The build date: the day its manifest was created (the ETL's `today`). */
export function buildDate(build: BuildInfo): string {
  return String(build.manifest.created_at ?? '').slice(0, 10);
}

/**
 * Makes the lookup tables (a BuildResources field, opened after the store): each from the
 * build's keyed-rows file on `pages` (the build's page cache) where its manifest lists it,
 * else in the heap from the store as before the ETL wrote it (the per-area tables a group at
 * a time: all of a group's files or none). A listed file that is missing, cut short, or not
 * the table's fails the load with an error naming it (its endpoints answer 503; never a wrong
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
  // The per-area tables: each group from its files where the build lists them, else made in the store.
  const area = files ? openAreaFiles(files) : {};
  const fromFiles = <K extends keyof AreaRows>(group: LookupTable, keys: readonly K[]): boolean => {
    const listed = keys.filter((k) => area[k]);
    if (listed.length === 0) return false;
    if (listed.length < keys.length) throw new LookupFileError(`build ${build.id} lists the ${listed.join(', ')} area file(s) but not ${keys.filter((k) => !area[k]).join(', ')}: republish it`);
    for (const k of keys) rows[k] = area[k]!;
    has.add(group);
    return true;
  };
  if (!fromFiles('area', ['counts', 'mix']) && t.has('sales') && t.has('properties') && t.has('addresses') && /^\d{4}-\d{2}-\d{2}$/.test(date)) {
    await store.exec('lookup_area_counts_table', [windowEndDate(build, 'price_paid')]);
    rows.counts = await KeyedRows.load(store, 'lookup_area_counts');
    await store.exec('lookup_area_counts_drop');
    await store.exec('lookup_area_mix_table');
    rows.mix = await KeyedRows.load(store, 'lookup_area_mix');
    await store.exec('lookup_area_mix_drop');
    has.add('area');
  }
  if (!fromFiles('index', ['index']) && t.has('price_index_monthly')) {
    await store.exec('lookup_index_table');
    rows.index = await KeyedRows.load(store, 'lookup_index_series');
    await store.exec('lookup_index_drop');
    has.add('index');
  }
  if (!fromFiles('area_stats', ['growth', 'sqft', 'rents']) && ['price_growth', 'price_per_sqft', 'rents_area', 'yields_area'].every((n) => t.has(n))) {
    await store.exec('lookup_area_stats_tables');
    rows.growth = await KeyedRows.load(store, 'lookup_growth');
    rows.sqft = await KeyedRows.load(store, 'lookup_area_prices');
    rows.rents = await KeyedRows.load(store, 'lookup_area_rents');
    await store.exec('lookup_area_stats_drop');
    has.add('area_stats');
  }
  if (!fromFiles('str', ['str']) && t.has('str_area_snapshot') && t.has('str_area_months')) {
    await store.exec('lookup_area_str_table');
    rows.str = await KeyedRows.load(store, 'lookup_area_str');
    await store.exec('lookup_area_str_drop');
    has.add('str');
  }
  if (!fromFiles('room_rents', ['rooms']) && t.has('rents_rooms')) {
    rows.rooms = await KeyedRows.load(store, 'lookup_room_rents');
    has.add('room_rents');
  }
  const names = t.has('ukhpi_monthly') ? await store.rows('lookup_la_names') : [];
  const laNames = new Map(names.map((r) => [r.area_code, r.name]));
  const outcodeDistricts = new Map((t.has('postcodes') ? await store.rows('lookup_outcode_districts') : []).map((r) => [r.outcode, r.la_code]));
  const month = t.has('price_growth') ? (await store.rows('lookup_sales_month'))[0]?.month : null;
  return { store, has, rows, sales, epc, postcodes, typeMonths, files: files?.opened ?? [], buildDate: date, salesMonth: month ?? null, laNames, outcodeDistricts };
}

/** The per-area tables whose files the build lists, each read through the build's page cache. */
function openAreaFiles(files: LookupFilesOpener): Partial<AreaRows> {
  const out: Partial<Record<keyof AreaRows, AreaTable<unknown>>> = {};
  for (const [k, name] of Object.entries(AREA_FILE) as [keyof AreaRows, (typeof AREA_FILE)[keyof AreaRows]][]) {
    const f = files.open(name);
    if (f) out[k] = new AreaRowsFile(f as KeyedRowsFile<{ key: string }>);
  }
  return out as Partial<AreaRows>;
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
