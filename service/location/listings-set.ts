import type { BlockCache } from '../../lib/files/block-file.ts';
import { CellPoints } from '../../lib/files/cell-points.ts';
import type { KeyedRowsFile } from '../../lib/files/keyed-rows-file.ts';
import { LOCATION_SET_FILES } from '../../lib/files/location-sets-files.ts';
import { Points } from '../../lib/geo/points.ts';
import type { ListingPropertyType } from '../../schemas/sources/listings.ts';
import type { BuildInfo } from '../build/source.ts';
import { LookupFileError, openServingFile } from '../lookups/lookup-files.ts';
import type { Row } from '../store/queries.ts';
import type { BuildStore } from '../store/store.ts';
import { mapPoint, type Listing, type SetPlace } from './sets.ts';

/**
 * The build's current listings (the `listings` resource of BuildResources; GET /listings, GET
 * /sourcing/deals): those within a radius, with distances, or in an outcode. Read where they
 * lie from the ETL's files (lib/files/location-sets-files.ts), or for a build published before
 * them held in the heap from the store. The two give a place's listings in different orders;
 * every answer sorts them in a total order (the listing id last). A build without the listings
 * table yields undefined: the endpoints answer 503.
 */
export interface ListingsSet {
  /** The listings a place selects: within its radius (with distances) or in its outcode (no distance). */
  at(place: SetPlace): Array<{ l: Listing; d: number | null }>;
  /** Every listing (for benches and checks, not requests). */
  all(): Iterable<Listing>;
  asOf: string | null;
  close(): void;
}

/** A listing row (the store's or a file's: the same columns) as the set gives it. */
type ListingRow = Omit<Row<'listings_all'>, 'lat' | 'lng' | 'listed_date'> & { lat: number | null; lng: number | null; listed_date: string | null };

function toListing(r: ListingRow): Listing {
  return {
    listing_id: r.listing_id, agent_ref: r.agent_ref, channel: r.channel === 'rent' ? 'rent' : 'sale', status: r.status, uprn: r.uprn,
    address: r.address, postcode: r.postcode, outcode: r.outcode, sector: r.sector, la_code: r.la_code, price: r.price,
    price_qualifier: r.price_qualifier, bedrooms: r.bedrooms, property_type: r.property_type as ListingPropertyType, tenure: r.tenure,
    listed_date: r.listed_date, updated_at: r.updated_at, location: mapPoint(r.lat, r.lng),
  };
}

export async function loadListingsSet(store: BuildStore): Promise<ListingsSet | undefined> {
  if (!store.tables.has('listings')) return undefined;
  const rows = await store.rows('listings_all');
  const listings: Listing[] = rows.map((r) => toListing(r as ListingRow));
  const byOutcode = new Map<string, number[]>();
  listings.forEach((l, i) => {
    let a = byOutcode.get(l.outcode);
    if (!a) byOutcode.set(l.outcode, (a = []));
    a.push(i);
  });
  const grid = new Points(Float64Array.from(rows, (r) => r.lat), Float64Array.from(rows, (r) => r.lng ?? NaN));
  return {
    at(place) {
      if (place.kind === 'outcode') return (byOutcode.get(place.outcode) ?? []).map((i) => ({ l: listings[i]!, d: null }));
      const out: Array<{ l: Listing; d: number | null }> = [];
      grid.within(place.lat, place.lng, place.radius_m, (i, d) => out.push({ l: listings[i]!, d }));
      return out;
    },
    all: () => listings,
    asOf: listings.map((l) => l.updated_at.slice(0, 10)).sort().at(-1) ?? null,
    close: () => undefined,
  };
}

/**
 * The listings over the build's two listings files (by cell, by outcode), or null when its
 * manifest lists neither. Listed but missing, cut short, not theirs, or one listed without the
 * other: a `LookupFileError`.
 */
export function openListingsFiles(build: BuildInfo, pages: BlockCache): ListingsSet | null {
  const f = LOCATION_SET_FILES;
  const opened: KeyedRowsFile<unknown>[] = [];
  try {
    const points = openServingFile<ListingRow>(build, f.listingPoints, pages, 'listings points');
    if (points) opened.push(points);
    const outcodes = openServingFile<ListingRow>(build, f.listingOutcodes, pages, 'listings by outcode');
    if (outcodes) opened.push(outcodes);
    if (!points && !outcodes) return null;
    if (!points || !outcodes) throw new LookupFileError(`build ${build.id}: its manifest lists only one of the listings files (${f.listingPoints.artifact}, ${f.listingOutcodes.artifact})`);
    const asOf = (points.meta.extra?.summary as { as_of?: unknown } | undefined)?.as_of;
    const grid = new CellPoints(points, f.listingPoints.cell.m);
    return {
      at(place) {
        if (place.kind === 'outcode') return outcodes.get(place.outcode).map((r) => ({ l: toListing(r), d: null }));
        const out: Array<{ l: Listing; d: number | null }> = [];
        grid.within(place.lat, place.lng, place.radius_m, (r, d) => out.push({ l: toListing(r), d }));
        return out;
      },
      *all() {
        for (const r of outcodes.scan()) yield toListing(r);
      },
      asOf: typeof asOf === 'string' ? asOf : null,
      close: () => { for (const o of opened) o.close(); },
    };
  } catch (e) {
    for (const o of opened) o.close();
    throw e;
  }
}
