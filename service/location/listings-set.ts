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
  /** The listings a place selects that `want` (if given) keeps: within its radius (with distances) or in its outcode (no distance). */
  at(place: SetPlace, want?: ListingWant): Array<{ l: Listing; d: number | null }>;
  /** Every listing (for benches and checks, not requests). */
  all(): Iterable<Listing>;
  asOf: string | null;
  close(): void;
}

/** What a query keeps of a place's listings: each field optional, the bounds inclusive. */
export interface ListingWant {
  channel?: Listing['channel'] | undefined; status?: string | undefined; property_type?: string | undefined;
  min_price?: number | undefined; max_price?: number | undefined; min_bedrooms?: number | undefined; max_bedrooms?: number | undefined;
}

/** The fields a `ListingWant` reads, which the files' reader takes from a row before decoding it. */
type Wanted = Pick<Listing, 'channel' | 'status' | 'price' | 'bedrooms' | 'property_type'>;
const WANTED_COLUMNS = ['channel', 'status', 'price', 'bedrooms', 'property_type'] as const;

/** Whether `want` keeps listing `l`. */
export function listingWanted(want: ListingWant, l: Wanted): boolean {
  return (want.channel === undefined || l.channel === want.channel) && (want.status === undefined || l.status === want.status)
    && (want.min_price === undefined || l.price >= want.min_price) && (want.max_price === undefined || l.price <= want.max_price)
    && (want.min_bedrooms === undefined || l.bedrooms >= want.min_bedrooms) && (want.max_bedrooms === undefined || l.bedrooms <= want.max_bedrooms)
    && (want.property_type === undefined || l.property_type === want.property_type);
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
    at(place, want) {
      const kept = (l: Listing) => !want || listingWanted(want, l);
      if (place.kind === 'outcode') return (byOutcode.get(place.outcode) ?? []).filter((i) => kept(listings[i]!)).map((i) => ({ l: listings[i]!, d: null }));
      const out: Array<{ l: Listing; d: number | null }> = [];
      grid.within(place.lat, place.lng, place.radius_m, (i, d) => { if (kept(listings[i]!)) out.push({ l: listings[i]!, d }); });
      return out;
    },
    all: () => listings,
    asOf: listings.map((l) => l.updated_at.slice(0, 10)).sort().at(-1) ?? null,
    close: () => undefined,
  };
}

/** Reads a listing's `Wanted` fields from its undecoded row in `file` (a `CellPoints` visit's page and place), as `toListing` would give them. */
function wantedReader(file: KeyedRowsFile<ListingRow>): (page: Buffer, at: number) => Wanted {
  // In the files' column order (lib/files/location-sets-files.ts), as numbersAt reads them.
  const cols = WANTED_COLUMNS.map((name) => file.meta.columns.findIndex((c) => c.name === name));
  const [channels = [], statuses = [], types = []] = (['channel', 'status', 'property_type'] as const).map((c) => file.dictionary(c));
  const v = new Float64Array(cols.length);
  const orNull = (n: number) => (Number.isNaN(n) ? null : n);
  return (page, at) => {
    file.numbersAt(page, at, cols, v);
    return {
      channel: channels[v[0]!] === 'rent' ? 'rent' : 'sale', status: statuses[v[1]!] ?? null, price: orNull(v[2]!), bedrooms: orNull(v[3]!),
      property_type: types[v[4]!] ?? null,
    } as Wanted;
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
    const wantedOf = wantedReader(points);
    return {
      at(place, want) {
        if (place.kind === 'outcode') return outcodes.get(place.outcode).map(toListing).filter((l) => !want || listingWanted(want, l)).map((l) => ({ l, d: null }));
        const out: Array<{ l: Listing; d: number | null }> = [];
        // A radius holds hundreds of listings: each is tested on its few fields before it is decoded.
        grid.within(place.lat, place.lng, place.radius_m, (r, d) => out.push({ l: toListing(r), d }), want && ((page, at) => listingWanted(want, wantedOf(page, at))));
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
