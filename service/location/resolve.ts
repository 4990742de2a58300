import type { Location } from '../../schemas/api/location.ts';
import type { BuildResources } from '../build/resources.ts';
import type { Row } from '../store/queries.ts';

/**
 * A location resolved against one build: where it is and which areas it lies in. A UPRN is
 * placed by its property record, a postcode by the postcode directory; a sector, outcode or
 * local authority is an area without a point; a point has no postcode.
 */
export interface Place {
  kind: Location['kind'];
  /** How the answer names the place: the address, the postcode, the area code or "lat,lng". */
  label: string;
  uprn: number | null;
  postcode: string | null;
  sector: string | null;
  outcode: string | null;
  la_code: string | null;
  lat: number | null;
  lng: number | null;
  radius_m: number | null;
}

const parts = (postcode: string) => {
  const [outcode = ''] = postcode.split(' ');
  return { outcode, sector: postcode.slice(0, -2) };
};

/** Why a location could not be placed (the route answers 404 with it). */
export interface NotPlaced {
  notFound: string;
}

/**
 * Resolves a location; not placed for a UPRN the build does not know or a postcode not in its
 * directory (a terminated postcode resolves: it still has a place). Areas are not checked
 * here: an endpoint says itself when it has no data for one.
 */
export async function resolveLocation(loc: Location, data: BuildResources): Promise<Place | NotPlaced> {
  const none = { uprn: null, postcode: null, sector: null, outcode: null, la_code: null, lat: null, lng: null, radius_m: null };
  switch (loc.kind) {
    case 'uprn': {
      const row = (await data.records.get()).get(loc.uprn);
      if (!row) return { notFound: `No property with UPRN ${loc.uprn}.` };
      const { postcode, lat, lng } = row;
      const la = postcode ? await postcodeRow(postcode, data) : undefined;
      return {
        // A record without an address is labelled "null", the untyped read's text (issue 43: kept).
        ...none, kind: 'uprn', label: row.address ?? 'null', uprn: loc.uprn, postcode,
        ...(postcode ? parts(postcode) : {}), la_code: la?.la_code ?? null, lat, lng,
      };
    }
    case 'postcode': {
      const row = await postcodeRow(loc.postcode, data);
      if (!row) return { notFound: `Postcode ${loc.postcode} is not in the postcode directory.` };
      return {
        ...none, kind: 'postcode', label: loc.postcode, postcode: loc.postcode, ...parts(loc.postcode),
        la_code: row.la_code, lat: row.lat, lng: row.lng,
      };
    }
    case 'sector':
      return { ...none, kind: 'sector', label: loc.sector, sector: loc.sector, outcode: loc.sector.split(' ')[0]! };
    case 'outcode':
      return { ...none, kind: 'outcode', label: loc.outcode, outcode: loc.outcode };
    case 'local_authority':
      return { ...none, kind: 'local_authority', label: loc.code, la_code: loc.code };
    case 'point':
      return { ...none, kind: 'point', label: `${loc.lat},${loc.lng}`, lat: loc.lat, lng: loc.lng, radius_m: loc.radius_m };
  }
}

/** The directory row of a canonical postcode (held in the process by the lookup tables), or undefined. */
export async function postcodeRow(postcode: string, data: BuildResources): Promise<Row<'lookup_postcode_rows'> | undefined> {
  return (await data.lookups.get()).postcodes?.first(postcode);
}
