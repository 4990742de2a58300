import type { ListingRow } from '../../../schemas/sources/listings.ts';
import { source } from '../source.ts';
import type { RejectLog } from '../rejects.ts';
import { readRightmoveBlm } from './read-blm.ts';
import { readRightmoveRtdf } from './read-rtdf.ts';

/** Both listing feeds into one table: a `.blm` file is a bulk load, anything else RTDF requests. */
function readListings(path: string, rejects: RejectLog): AsyncGenerator<ListingRow> {
  return /\.blm(\.gz)?$/i.test(path) ? readRightmoveBlm(path, rejects) : readRightmoveRtdf(path, rejects);
}

type Flat = Partial<Record<string, unknown>> & ListingRow;
const get = (k: string) => (r: Flat) => (r as Record<string, unknown>)[k];

export const listings = source<ListingRow, 'listings'>({
  kind: 'listings', version: 1,
  folders: ['listings', 'listings_feeds'],
  sniff: (f) => {
    if (/\.blm(\.gz)?$/.test(f.name)) return true;
    if (f.name.includes('schema')) return { reason: 'a JSON Schema, not listings' };
    if (f.parts.includes('rtdf') || f.parts.some((p) => p.startsWith('rightmove_rtdf'))) return true;
    return { reason: 'not a Rightmove BLM or RTDF file' };
  },
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
