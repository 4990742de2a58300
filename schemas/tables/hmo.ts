import { col, type TableContract } from './contract.ts';

/** Contract of the HMO licence table (docs/hmo-licences.md). */

const c = col;

export const HMO_TABLES: TableContract[] = [
  {
    name: 'hmo_licences', sortKey: ['register', 'licence_reference'],
    description: 'licences of the council HMO registers (no licence holder or manager names), matched to UPRNs, current, pending or expired on the register\'s as-of date',
    columns: [
      c('licence_reference', 'VARCHAR', '', 'register Case Number / Licence number', 'the council\'s licence reference'),
      c('register', 'VARCHAR', '', 'source file', 'the register file it comes from, relative to the sources folder'),
      c('address', 'VARCHAR', '', 'register', 'the address as the register writes it'),
      c('postcode', 'VARCHAR', '', 'register', 'the postcode ending the address (Oxford) or its column (Sheffield); null when the register gives none'),
      c('outcode', 'VARCHAR', '', 'derived', ''),
      c('uprn', 'BIGINT', '', 'address match', 'null when the address allows no match'),
      c('match_method', 'VARCHAR', '', 'address match', 'postcode or street'),
      c('unmatched_reason', 'VARCHAR', '', 'address match', 'why no UPRN: no_postcode_candidates, no_number_match, ambiguous or low_similarity'),
      c('max_occupants', 'INTEGER', 'people', 'register', 'permitted occupants; null when not recorded'),
      c('households', 'INTEGER', 'households', 'register Total Number Units', 'units of accommodation (households) the licence allows; null when not recorded (Sheffield never records it)'),
      c('storeys', 'INTEGER', 'storeys', 'register Number of Storeys', 'null where the register has no such column'),
      c('valid_from', 'DATE', 'ISO date', 'register', 'licence start (as published, typos included)'),
      c('valid_to', 'DATE', 'ISO date', 'register', 'licence end'),
      c('status', 'VARCHAR', '', 'derived', 'on the register\'s as-of date (register_as_of; the build date without one): expired when valid_to is before it, pending when valid_from is after it, else current; null when a date is missing'),
      c('lat', 'DOUBLE', 'WGS84 degrees', 'matched UPRN, else postcode', 'null when neither is known'),
      c('lng', 'DOUBLE', 'WGS84 degrees', 'as lat', ''),
      c('position_source', 'VARCHAR', '', 'derived', 'uprn or postcode; null when unplaced'),
      c('la_code', 'VARCHAR', 'GSS code', 'matched address, else postcode', ''),
      c('register_as_of', 'VARCHAR', 'ISO date', 'source manifest', 'the register\'s as-of date: its latest licence start on or before the build date'),
    ],
    rules: [
      { rule: 'one row per licence of a register', unique: ['register', 'licence_reference'] },
      { rule: 'status is current, pending or expired', never: "status NOT IN ('current', 'pending', 'expired')" },
      { rule: 'a position is both coordinates, in the UK', never: '(lat IS NULL) <> (lng IS NULL) OR lat NOT BETWEEN 49 AND 61 OR lng NOT BETWEEN -9 AND 2.5' },
      { rule: 'matched or a reason', never: '(uprn IS NULL) = (unmatched_reason IS NULL)' },
    ],
  },
];
