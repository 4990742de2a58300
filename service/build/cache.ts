import { LRUCache } from 'lru-cache';
import { BlockCache } from '../../lib/files/block-file.ts';
import type { summariseLets } from '../domain/rents.ts';
import type { MarketListings } from '../domain/str/market-listings.ts';
import { listingLtmSums } from '../domain/str/market.ts';
import { SEARCH_CACHE_ENTRIES, type Ranked } from '../search/engine.ts';

/** The default bound of a build's page cache (`BuildCaches.pages`). */
export const PAGE_CACHE_BYTES = 64 * 1048576;

/**
 * Every answer cache of the service, in one place with its key and size. Each belongs to one
 * build (a field of its BuildResources), so a new build starts empty and an old build's
 * answers are dropped with it; no cache outlives the data it was computed from.
 */
export class BuildCaches {
  /**
   * The pages of the build's serving files read where they lie (lib/files/block-file.ts): the
   * process's whole share of them, whatever the region's size (issue 46, ADR 0015); the
   * operating system's page cache holds the files once for every worker.
   */
  readonly pages: BlockCache;

  constructor(opts: { pageCacheBytes?: number } = {}) {
    this.pages = new BlockCache(opts.pageCacheBytes ?? PAGE_CACHE_BYTES);
  }

  /** Address search: ranked hits (up to MAX_RESULTS) per normalised query; key: the parsed query's key. */
  readonly searchResults = new LRUCache<string, Ranked>({ max: SEARCH_CACHE_ENTRIES });
  /**
   * Long-term rents of a sector or outcode with its filters (a radius is not cached); key:
   * `level:code:property_type:bedroom_group`. At most areas × 3 types × 6 bedroom choices
   * exist; the bound keeps a build with many areas from growing without limit.
   */
  readonly rentAreaAnswers = new LRUCache<string, { summary: ReturnType<typeof summariseLets> }>({ max: 50_000 });
  /** The STR market set's per-listing last-12-month sums (`listingLtmSums`), computed on first use. */
  private strLtm: { of: MarketListings; sums: Float64Array } | undefined;
  strListingLtm(s: MarketListings): Float64Array {
    if (this.strLtm?.of !== s) this.strLtm = { of: s, sums: listingLtmSums(s) };
    return this.strLtm.sums;
  }
}
