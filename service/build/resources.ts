import { openDesignations, type Designations } from '../records/designations.ts';
import { loadPropertyRecords, type PropertyRecords } from '../records/property-records.ts';
import { riskData, type RiskData } from '../records/risk-data.ts';
import { loadDealsSet, type DealsSet } from '../location/deals-set.ts';
import { loadHmoSet, openHmoFiles, type HmoSet } from '../location/hmo-set.ts';
import { loadCrimeSet, openCrimeFiles, type CrimeSet } from '../location/crime-set.ts';
import { loadListingsSet, openListingsFiles, type ListingsSet } from '../location/listings-set.ts';
import { loadSchoolsSet, type SchoolsSet } from '../location/sets.ts';
import type { SearchIndex } from '../search/engine.ts';
import { loadSearchIndex } from '../search/indexes.ts';
import { BuildStore } from '../store/store.ts';
import { StrListingIndex } from '../str/listing-index.ts';
import { loadStrListingRows, type StrListingRows } from '../str/listing-rows.ts';
import { StrMarketSet, type StrMarket } from '../str/market-set.ts';
import { StrMarketFiles } from '../str/market-files.ts';
import { loadNewBuildPremiums, loadRentLets, loadSqftSales, type RentLetsIndex, type SqftSalesIndex } from '../valuers/evidence.ts';
import { openHmoValuer, type HmoValuer } from '../valuers/hmo-areas.ts';
import { GdvValuer } from '../valuers/gdv-valuer.ts';
import { openRentalValuer, type RentalValuer } from '../valuers/rental-valuer.ts';
import { loadPostcodePoints, type PostcodePoints } from '../valuers/postcode-points.ts';
import { loadPointCountry, type PointCountryIndex } from '../location/point-country.ts';
import { openPointCountryFile } from '../location/point-country-file.ts';
import { openRentLetsFiles, openSqftSalesFile } from '../valuers/evidence-files.ts';
import { SaleValuer } from '../valuers/sale-valuer.ts';
import { loadComparables, type ComparablesSource } from '../lookups/comparables.ts';
import { ComparablesFile } from '../lookups/comparables-file.ts';
import { loadPlanningIndex, type PlanningIndex } from '../lookups/planning.ts';
import { closeLookupTables, loadLookupTables, type LookupTables } from '../lookups/tables.ts';
import { BuildCaches } from './cache.ts';
import { Lazy, type Resource } from './lazy.ts';
import type { BuildInfo } from './source.ts';

/**
 * Everything the service reads from one published build, in one object: the DuckDB store and
 * every in-memory index and model built from the build's files. Each is opened at most once,
 * on first use or by the build warmer (`warm`, in declaration order, one after another so their
 * peak memory does not stack), and all are closed together (`close`) once a newer build has
 * served for the grace period. Handlers receive the `BuildResources` of the build that was
 * serving when their request started, so a response never mixes two builds.
 *
 * A new resource is one `Lazy` field here (its loader lives beside the code that reads it);
 * a new cache is one field of `BuildCaches` (cache.ts).
 */
export class BuildResources {
  /** Answers kept per build, and the pages of its serving files (bounded; see cache.ts). */
  readonly caches: BuildCaches;
  /** DuckDB over the build's Parquet tables (the named queries of service/store/sql). */
  readonly store = new Lazy<BuildStore>('store', () => BuildStore.open(this.build.dir), (s) => s.close());
  /** The address search index file, read where it lies through the build's page cache (GET /addresses/search). */
  readonly searchIndex = new Lazy<SearchIndex>('search index', () => loadSearchIndex(this.build.dir, this.caches.searchResults, this.caches.pages), (s) => s.close());
  /** The property record file, read paged on the build's block cache (GET /properties/{uprn}, risks, HMO, GDV, STR estimate). */
  readonly records = new Lazy<PropertyRecords>('property records', () => loadPropertyRecords(this.build.dir, this.caches.pages), (r) => r.close());
  /** The sale valuation model (GET /valuations/{uprn}/sale, `service_estimate`). */
  readonly saleValuer = new Lazy<SaleValuer>('sale valuer', () => this.withStore(async (store) =>
    SaleValuer.open(store, flaggedDistricts(this.build.manifest), { dir: this.build.dir, cache: this.caches.pages })), (v) => v.close());
  /** Undefined when the build cannot serve HMO valuations. */
  readonly hmoValuer = new Lazy<HmoValuer | undefined>('HMO valuer', () => this.withStore(async (store) => openHmoValuer(this.build, store, () => this.records.get())));
  /** Every postcode's point. */
  readonly postcodePoints = new Lazy<PostcodePoints>('postcode points', () => this.withStore(async (store) => loadPostcodePoints(store)));
  /** The country of a bare point, from the nearest postcode (GET /flood-risk, GET /planning/constraints). */
  readonly pointCountry = new Lazy<PointCountryIndex>('point country', async () =>
    openPointCountryFile(this.build, this.caches.pages) ?? this.withStore(async (store) => loadPointCountry(store)), closeIfFile);
  /** Whole-property lets of the last 24 months (GET /rents/long-term, GET /valuations/{uprn}/rental): the build's files on its page cache, or for a build without them the heap's. */
  readonly rentLets = new Lazy<RentLetsIndex>('rent lets', async () =>
    openRentLetsFiles(this.build, this.caches.pages) ?? this.withStore(async (store) => loadRentLets(store)), closeIfFile);
  /** Undefined when the build cannot serve rental valuations (GET /valuations/{uprn}/rental). */
  readonly rentalValuer = new Lazy<RentalValuer | undefined>('rental valuer', () => this.withStore(async (store) => openRentalValuer(store, () => this.records.get(), () => this.rentLets.get())));
  /** Sales with a floor area (POST /valuations/development-gdv). */
  readonly sqftSales = new Lazy<SqftSalesIndex>('sqft sales', async () =>
    openSqftSalesFile(this.build, this.caches.pages) ?? this.withStore(async (store) => loadSqftSales(store)), closeIfFile);
  /** New-build premium by kind, measured on the build's sqft_sales. */
  readonly gdvPremiums = new Lazy<Map<string, number>>('GDV premiums', () => this.withStore(async (store) => loadNewBuildPremiums(store)));
  /** The development valuer over the two above (POST /valuations/development-gdv). */
  readonly gdvValuer = new Lazy<GdvValuer>('GDV valuer', async () => new GdvValuer(await this.sqftSales.get(), await this.gdvPremiums.get()));
  /** Short-term-let listings for the estimate. */
  readonly strListings = new Lazy<StrListingIndex>('STR listing index', () => this.withStore(async (store) => StrListingIndex.load(store)));
  /** Short-term-let listings and their months for the market analysis: the build's str-market*.rows read where they lie, or an older build's set in the heap. */
  readonly strMarket = new Lazy<StrMarket>('STR market set', async () => StrMarketFiles.open(this.build, this.caches.pages) ?? this.withStore(async (store) => StrMarketSet.load(store)), (m) => m.close?.());
  /** What GET /str/listings shows of each listing, in the market set's rows. */
  readonly strListingRows = new Lazy<StrListingRows>('STR listing rows', () => this.withStore(async (store) => loadStrListingRows(store, await this.strMarket.get())));
  /** The features containing each UPRN: the build's designations.rows read where it lies, or an older build's table in the heap; undefined without either. */
  readonly designations = new Lazy<Designations | undefined>('designations', () => openDesignations(this.build, this.caches.pages), (d) => d?.close());
  /** Undefined when the build cannot serve GET /risks (no designations, or no flag columns). */
  readonly risks = new Lazy<RiskData | undefined>('risk data', async () => {
    const [records, designations] = await Promise.all([this.records.get(), this.designations.get()]);
    return riskData(this.build, records, designations);
  });

  /** Lookup tables: sales, certificates and postcodes by key read from the build's files on its page cache; area counts and mixes, the index by area made in the store. */
  readonly lookups = new Lazy<LookupTables>('lookup tables', () => this.withStore(async (store) => loadLookupTables(store, this.build, { pages: this.caches.pages })), closeLookupTables);
  /**
   * Every standard sale of a located home (GET /prices/comparables): the build's comparables
   * file read through the page cache, or for a build without one, an R-tree made from the store.
   */
  readonly comparables = new Lazy<ComparablesSource>('comparables index', async () => {
    const valuer = await this.saleValuer.get();
    return ComparablesFile.open(this.build.dir, this.caches.pages, valuer.lookup, valuer.asOfMonth)
      ?? this.withStore(async (store) => loadComparables(store, valuer));
  }, (c) => c.close());
  /** Planning features with a point index, and the per-UPRN designations (GET /flood-risk, /planning/constraints). */
  readonly planning = new Lazy<PlanningIndex | undefined>('planning index', () => this.withStore(async (store) => loadPlanningIndex(store, await this.designations.get())));
  /**
   * Crime points, rates and postcode homes (GET /crime): the build's crime files read where they
   * lie, or for a build without them, held in the heap from the store; undefined when the build has no crime tables.
   */
  readonly crime = new Lazy<CrimeSet | undefined>('crime set', async () =>
    openCrimeFiles(this.build, this.caches.pages) ?? this.withStore(async (store) => loadCrimeSet(store)), (s) => s?.close());
  /** Schools with positions (GET /schools); undefined when the build has none. */
  readonly schools = new Lazy<SchoolsSet | undefined>('schools set', () => this.withStore(async (store) => loadSchoolsSet(store)));
  /** Current listings (GET /listings): the build's listings files, or for a build without them the heap; undefined when the build has none. */
  readonly listings = new Lazy<ListingsSet | undefined>('listings set', async () =>
    openListingsFiles(this.build, this.caches.pages) ?? this.withStore(async (store) => loadListingsSet(store)), (s) => s?.close());
  /** HMO licences of the council registers (GET /hmo/licences): the build's HMO files, or the heap; undefined when the build has none. */
  readonly hmoLicences = new Lazy<HmoSet | undefined>('HMO licence set', async () =>
    openHmoFiles(this.build, this.caches.pages) ?? this.withStore(async (store) => loadHmoSet(store)), (s) => s?.close());
  /** A for-sale listing's valuation, rent and area yield, computed when a query first selects it (GET /sourcing/deals). */
  readonly deals = new Lazy<DealsSet | undefined>('deals set', () =>
    this.withStore(async (store) => loadDealsSet(await this.listings.get(), await this.saleValuer.get(), store)));

  constructor(readonly build: BuildInfo, opts: { pageCacheBytes?: number } = {}) {
    this.caches = new BuildCaches(opts);
  }

  /** Every resource, in the order the warmer opens them (the store before what reads it). */
  get all(): readonly Resource[] {
    return [this.store, this.searchIndex, this.records, this.saleValuer, this.hmoValuer, this.postcodePoints, this.pointCountry, this.rentLets, this.rentalValuer, this.sqftSales, this.gdvPremiums, this.gdvValuer, this.strListings, this.strMarket, this.strListingRows, this.designations, this.risks, this.lookups, this.comparables, this.planning, this.crime, this.schools, this.listings, this.deals, this.hmoLicences];
  }

  /** Opens every resource one after another; one that fails is reported and left to the request path (503 for it). */
  async warm(onFail: (name: string, err: unknown) => void = () => undefined): Promise<void> {
    for (const r of this.all) await r.get().catch((err: unknown) => onFail(r.name, err));
  }

  /**
   * Runs a loader with the store held open throughout (BuildStore.use): reopened first if it was
   * released, and not closed between the statements of a load that makes and reads a derived table.
   */
  private withStore<T>(load: (store: BuildStore) => Promise<T>): Promise<T> {
    return this.store.get().then((store) => store.use(() => load(store)));
  }

  /**
   * Releases the store's DuckDB instance once every resource has been built from it (the
   * warmer, after the warm-up): its tables stay known (`store.tables`); a resource opened later
   * reopens it, and it is released again `lingerMs` after its last use. False when the store
   * is not open (it failed to open: the request path retries it).
   */
  releaseStore(lingerMs?: number): boolean {
    const store = this.store.peek();
    store?.release(lingerMs);
    return store !== undefined;
  }

  /** Whether the store's DuckDB instance is open now; undefined before the store has opened. */
  storeOpen(): boolean | undefined {
    return this.store.peek()?.isOpen;
  }

  /** Closes every opened resource (the store's DuckDB connections, the files read where they lie; the rest is memory). */
  async close(): Promise<void> {
    for (const r of this.all) await r.close().catch(() => undefined);
  }

  /** Requests under way that took these resources (`hold`). */
  private holds = 0;
  private whenFree: (() => void) | undefined;

  /**
   * Marks a request as using these resources until the returned release is called (once):
   * `closeWhenFree` waits for it, so a slow request on a replaced build still reads its files.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.whenFree?.();
    };
  }

  /** Requests holding these resources now. */
  get held(): number {
    return this.holds;
  }

  /**
   * Closes the resources once no request holds them, or after `maxWaitMs` whatever holds them
   * (a request that never ends must not keep a replaced build open for good).
   */
  closeWhenFree(maxWaitMs: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        this.whenFree = undefined;
        void this.close().then(resolve);
      };
      if (this.holds === 0) return done();
      this.whenFree = done;
      timer = setTimeout(done, maxWaitMs);
      timer.unref();
    });
  }
}

/** Closes a resource read where it lies (it has `close`); one held in the heap has nothing to close. */
function closeIfFile(r: object): void {
  if ('close' in r && typeof r.close === 'function') (r as { close(): void }).close();
}

/**
 * The districts whose index the build flagged against UK HPI (manifest `quality.index_vs_ukhpi`,
 * docs/marts.md): their index carries no High sale valuation. None for an older build.
 */
export function flaggedDistricts(manifest: Record<string, unknown>): ReadonlySet<string> {
  const check = (manifest.quality as Record<string, unknown> | undefined)?.index_vs_ukhpi as { flagged?: unknown } | undefined;
  return new Set(Array.isArray(check?.flagged) ? check.flagged.map(String) : []);
}
