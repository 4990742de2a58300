import type { GiasSchoolRow } from '../../../../../schemas/sources/gias.ts';
import type { ListingRow } from '../../../../../schemas/sources/listings.ts';
import type { PoliceCrimeRow } from '../../../../../schemas/sources/police-crime.ts';
import { readGiasSchools } from '../../../../sources/gias.ts';
import { readPoliceCrime } from '../../../../sources/police-crime.ts';
import type { RejectLog } from '../../../../sources/rejects.ts';
import { readRightmoveBlm } from '../../../../sources/rightmove-blm.ts';
import { readRightmoveRtdf } from '../../../../sources/rightmove-rtdf.ts';
import { same, spec } from './spec.ts';

export const policeCrime = spec<PoliceCrimeRow>({
  kind: 'police_crime', version: 1,
  table: 'stg_police_crime',
  read: readPoliceCrime,
  columns: [
    ...same<PoliceCrimeRow>('VARCHAR', 'crime_id', 'month', 'release', 'force', 'reported_by', 'falls_within'),
    ...same<PoliceCrimeRow>('DOUBLE', 'lat', 'lng'),
    ...same<PoliceCrimeRow>('VARCHAR', 'location', 'lsoa_code', 'lsoa_name', 'crime_type', 'last_outcome'),
  ],
  // A month speaks for its last day; the first is enough for the as-of month.
  date: (r) => `${r.month}-01`,
});

export const giasSchools = spec<GiasSchoolRow>({
  kind: 'gias_schools', version: 1,
  table: 'stg_gias_schools',
  read: readGiasSchools,
  columns: [
    ...same<GiasSchoolRow>('INTEGER', 'urn'),
    ...same<GiasSchoolRow>('VARCHAR', 'name', 'type', 'status', 'phase'),
    ...same<GiasSchoolRow>('INTEGER', 'low_age', 'high_age', 'pupils', 'capacity'),
    ...same<GiasSchoolRow>('VARCHAR', 'ofsted_rating', 'ofsted_date', 'open_date', 'close_date', 'street', 'town', 'postcode', 'la_name', 'district_code'),
    ...same<GiasSchoolRow>('BIGINT', 'uprn'),
    ...same<GiasSchoolRow>('DOUBLE', 'easting', 'northing', 'lat', 'lng'),
  ],
  date: (r) => r.ofsted_date,
});

/** Both listing feeds into one table: a `.blm` file is a bulk load, anything else RTDF requests. */
function readListings(path: string, rejects: RejectLog): AsyncGenerator<ListingRow> {
  return /\.blm(\.gz)?$/i.test(path) ? readRightmoveBlm(path, rejects) : readRightmoveRtdf(path, rejects);
}

type Flat = Partial<Record<string, unknown>> & ListingRow;
const get = (k: string) => (r: Flat) => (r as Record<string, unknown>)[k];

export const listings = spec<ListingRow>({
  kind: 'listings', version: 1,
  table: 'stg_listings',
  read: readListings,
  columns: [
    ...(['feed', 'branch_id', 'agent_ref', 'listing_id', 'event', 'updated_at', 'channel', 'status'] as const).map((name) => ({ name, type: 'VARCHAR' as const, get: get(name) })),
    { name: 'published', type: 'BOOLEAN', get: get('published') },
    ...(['created_at', 'address_1', 'address_2', 'address_3', 'address_4', 'town', 'postcode', 'display_address'] as const).map((name) => ({ name, type: 'VARCHAR' as const, get: get(name) })),
    ...(['lat', 'lng', 'price', 'advertised_rent'] as const).map((name) => ({ name, type: 'DOUBLE' as const, get: get(name) })),
    ...(['rent_frequency', 'price_qualifier', 'tenure'] as const).map((name) => ({ name, type: 'VARCHAR' as const, get: get(name) })),
    { name: 'bedrooms', type: 'INTEGER', get: get('bedrooms') },
    { name: 'property_type', type: 'VARCHAR', get: get('property_type') },
    { name: 'rightmove_type', type: 'INTEGER', get: get('rightmove_type') },
    { name: 'new_home', type: 'BOOLEAN', get: get('new_home') },
    { name: 'removal_reason', type: 'INTEGER', get: get('removal_reason') },
  ],
  date: (r) => r.updated_at.slice(0, 10),
});
