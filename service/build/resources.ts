import { loadDesignations } from '../records/designations.ts';
import { loadPropertyRecords, type PropertyRecords } from '../records/property-records.ts';
import { riskData, type RiskData } from '../records/risk-data.ts';
import { loadDealsSet, type DealsSet } from '../location/deals-set.ts';
import { loadHmoSet, type HmoSet } from '../location/hmo-set.ts';
import { loadCrimeSet, loadListingsSet, loadSchoolsSet, type CrimeSet, type ListingsSet, type SchoolsSet } from '../location/sets.ts';
import type { SearchIndex } from '../search/engine.ts';
import { loadSearchIndex } from '../search/indexes.ts';
import { BuildStore } from '../store/store.ts';
import { StrListingIndex } from '../str/listing-index.ts';
import { loadStrListingRows, type StrListingRows } from '../str/listing-rows.ts';
import { StrMarketSet } from '../str/market-set.ts';
import { loadNewBuildPremiums, loadRentLets, loadSqftSales, type RentLetsIndex, type SqftSalesIndex } from '../valuers/evidence.ts';
import { openHmoValuer, type HmoValuer } from '../valuers/hmo-areas.ts';
import { GdvValuer } from '../valuers/gdv-valuer.ts';
import { openRentalValuer, type RentalValuer } from '../valuers/rental-valuer.ts';
import { loadPostcodePoints, type PostcodePoints } from '../valuers/postcode-points.ts';
import { loadPointCountry, type PointCountry } from '../location/point-country.ts';
import { SaleValuer } from '../valuers/sale-valuer.ts';
import { loadComparables, type ComparablesIndex } from '../lookups/comparables.ts';
import { loadPlanningIndex, type PlanningIndex } from '../lookups/planning.ts';
import { loadLookupTables, type LookupTables } from '../lookups/tables.ts';
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
  /** Answers kept per build (bounded; see cache.ts). Declared first: loaders hand them on. */
  readonly caches = new BuildCaches();
  /** DuckDB over the build's Parquet tables (the named queries of service/store/sql). */
  readonly store = new Lazy<BuildStore>('store', () => BuildStore.open(this.build.dir), (s) => s.close());
  /** The address search index file (GET /addresses/search). */
  readonly searchIndex = new Lazy<SearchIndex>('search index', () => loadSearchIndex(this.build.dir, this.caches.searchResults));
  /** The property record file, in memory (GET /properties/{uprn}, risks, HMO, GDV, STR estimate). */
  readonly records = new Lazy<PropertyRecords>('property records', () => loadPropertyRecords(this.build.dir));
  /** The sale valuation model (GET /valuations/{uprn}/sale, `service_estimate`). */
  readonly saleValuer = new Lazy<SaleValuer>('sale valuer', async () => SaleValuer.open(await this.store.get(), flaggedDistricts(this.build.manifest)));
  /** Undefined when the build cannot serve HMO valuations. */
  readonly hmoValuer = new Lazy<HmoValuer | undefined>('HMO valuer', async () => openHmoValuer(this.build, await this.store.get(), () => this.records.get()));
  /** Every postcode's point. */
  readonly postcodePoints = new Lazy<PostcodePoints>('postcode points', async () => loadPostcodePoints(await this.store.get()));
  /** The country of a bare point, from the nearest postcode (GET /flood-risk, GET /planning/constraints). */
  readonly pointCountry = new Lazy<PointCountry>('point country', async () => loadPointCountry(await this.store.get()));
  /** Whole-property lets of the last 24 months (GET /rents/long-term, GET /valuations/{uprn}/rental). */
  readonly rentLets = new Lazy<RentLetsIndex>('rent lets', async () => loadRentLets(await this.store.get()));
  /** Undefined when the build cannot serve rental valuations (GET /valuations/{uprn}/rental). */
  readonly rentalValuer = new Lazy<RentalValuer | undefined>('rental valuer', async () => openRentalValuer(await this.store.get(), () => this.records.get(), () => this.rentLets.get()));
  /** Sales with a floor area (POST /valuations/development-gdv). */
  readonly sqftSales = new Lazy<SqftSalesIndex>('sqft sales', async () => loadSqftSales(await this.store.get()));
  /** New-build premium by kind, measured on the build's sqft_sales. */
  readonly gdvPremiums = new Lazy<Map<string, number>>('GDV premiums', async () => loadNewBuildPremiums(await this.store.get()));
  /** The development valuer over the two above (POST /valuations/development-gdv). */
  readonly gdvValuer = new Lazy<GdvValuer>('GDV valuer', async () => new GdvValuer(await this.sqftSales.get(), await this.gdvPremiums.get()));
  /** Short-term-let listings for the estimate. */
  readonly strListings = new Lazy<StrListingIndex>('STR listing index', async () => StrListingIndex.load(await this.store.get()));
  /** Short-term-let listings and their months for the market analysis. */
  readonly strMarket = new Lazy<StrMarketSet>('STR market set', async () => StrMarketSet.load(await this.store.get()));
  /** What GET /str/listings shows of each listing, in the market set's rows. */
  readonly strListingRows = new Lazy<StrListingRows>('STR listing rows', async () => {
    const [store, set] = await Promise.all([this.store.get(), this.strMarket.get()]);
    return loadStrListingRows(store, set);
  });
  /** Undefined when the build cannot serve GET /risks (no designations, or no flag columns). */
  readonly risks = new Lazy<RiskData | undefined>('risk data', async () => {
    const [records, designations] = await Promise.all([this.records.get(), loadDesignations(this.build.dir)]);
    return riskData(this.build, records, designations);
  });

  /** In-memory lookup tables made in the store: sales and certificates by UPRN, area counts and mixes, the index by area. */
  readonly lookups = new Lazy<LookupTables>('lookup tables', async () => loadLookupTables(await this.store.get(), this.build));
  /** Every standard sale of a located home in an R-tree (GET /prices/comparables). */
  readonly comparables = new Lazy<ComparablesIndex>('comparables index', async () => loadComparables(await this.store.get(), await this.saleValuer.get()));
  /** Planning features with a point index, and the per-UPRN designations (GET /flood-risk, /planning/constraints). */
  readonly planning = new Lazy<PlanningIndex | undefined>('planning index', async () => loadPlanningIndex(await this.store.get(), this.build));
  /** Crime points, rates and postcode homes (GET /crime); undefined when the build has no crime tables. */
  readonly crime = new Lazy<CrimeSet | undefined>('crime set', async () => loadCrimeSet(await this.store.get()));
  /** Schools with positions (GET /schools); undefined when the build has none. */
  readonly schools = new Lazy<SchoolsSet | undefined>('schools set', async () => loadSchoolsSet(await this.store.get()));
  /** Current listings (GET /listings); undefined when the build has none. */
  readonly listings = new Lazy<ListingsSet | undefined>('listings set', async () => loadListingsSet(await this.store.get()));
  /** HMO licences of the council registers (GET /hmo/licences); undefined when the build has none. */
  readonly hmoLicences = new Lazy<HmoSet | undefined>('HMO licence set', async () => loadHmoSet(await this.store.get()));
  /** Every for-sale listing's valuation, rent and area yield, computed once (GET /sourcing/deals). */
  readonly deals = new Lazy<DealsSet | undefined>('deals set', async () =>
    loadDealsSet(await this.listings.get(), await this.saleValuer.get(), await this.store.get()));

  constructor(readonly build: BuildInfo) {}

  /** Every resource, in the order the warmer opens them (the store before what reads it). */
  get all(): readonly Resource[] {
    return [this.store, this.searchIndex, this.records, this.saleValuer, this.hmoValuer, this.postcodePoints, this.pointCountry, this.rentLets, this.rentalValuer, this.sqftSales, this.gdvPremiums, this.gdvValuer, this.strListings, this.strMarket, this.strListingRows, this.risks, this.lookups, this.comparables, this.planning, this.crime, this.schools, this.listings, this.deals, this.hmoLicences];
  }

  /** Opens every resource one after another; one that fails is reported and left to the request path (503 for it). */
  async warm(onFail: (name: string, err: unknown) => void = () => undefined): Promise<void> {
    for (const r of this.all) await r.get().catch((err: unknown) => onFail(r.name, err));
  }

  /** Closes every opened resource (the store's DuckDB connections; the rest is memory). */
  async close(): Promise<void> {
    for (const r of this.all) await r.close().catch(() => undefined);
  }
}

/**
 * The districts whose index the build flagged against UK HPI (manifest `quality.index_vs_ukhpi`,
 * docs/marts.md): their index carries no High sale valuation. None for an older build.
 */
export function flaggedDistricts(manifest: Record<string, unknown>): ReadonlySet<string> {
  const check = (manifest.quality as Record<string, unknown> | undefined)?.index_vs_ukhpi as { flagged?: unknown } | undefined;
  return new Set(Array.isArray(check?.flagged) ? check.flagged.map(String) : []);
}
