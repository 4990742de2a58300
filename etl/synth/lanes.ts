/**
 * How the generator splits its work over threads. Every lane walks the same region (the same
 * units, properties, sales and lets, drawn from the same per-entity random streams) but writes
 * only its own groups of files and skips the work only other groups need. A group is the set
 * of files that share a counter or an accumulator (Price Paid's update counts, the Airbnb ids,
 * the rental evidence sequence …), so a group is never split and every file is byte for byte
 * what a single lane writes.
 */

export const GROUPS = [
  'addressbase', 'uprn', 'onspd', 'epc', 'scotland', 'sales', 'airbnb', 'hpi', 'onsRents', 'evidence', 'hmo',
  'properties', 'areaIndex', 'crime', 'schools', 'market',
] as const;
export type Group = (typeof GROUPS)[number];

/** The group of each streamed source file (keys of FILES in generate.ts). */
export const FILE_GROUP: Record<string, Group> = {
  addressbase: 'addressbase', uprn: 'uprn', onspd: 'onspd', epc: 'epc', epcScotland: 'scotland', ppd: 'sales',
  ppdUpdate: 'sales', listings: 'airbnb', calendar: 'airbnb', reviews: 'airbnb', hpi: 'hpi', onsRents: 'onsRents',
  evidence: 'evidence', hmo: 'hmo',
};

/** The group of each truth file (keys of TRUTH in generate.ts). */
export const TRUTH_GROUP: Record<string, Group> = {
  properties: 'properties', sales: 'sales', areaIndex: 'areaIndex', listings: 'airbnb', listingMonths: 'airbnb',
  rentals: 'evidence', crimeFiles: 'crime', listingsMarket: 'market', hmoLicences: 'hmo', scottishCertificates: 'scotland',
};

/**
 * Two lanes of about equal CPU time (measured at 100,000 addresses; each lane also pays for
 * the shared walk: units, homes, sales and rents; lets only where certificates or the rental
 * evidence need them). More threads would each repeat that
 * walk, and the build machine has two cores, so the generator uses at most two.
 */
const TWO_LANES: Group[][] = [
  ['epc', 'scotland', 'addressbase', 'uprn', 'schools', 'evidence', 'hmo'],
  ['sales', 'hpi', 'airbnb', 'onsRents', 'market', 'properties', 'areaIndex', 'crime', 'onspd'],
];

export const MAX_THREADS = TWO_LANES.length;

export function lanesFor(threads: number): Group[][] {
  if (!Number.isInteger(threads) || threads < 1) throw new Error(`threads must be a positive integer, got ${threads}`);
  return threads === 1 ? [[...GROUPS]] : TWO_LANES;
}
