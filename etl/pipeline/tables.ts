import type { PublishedTable } from './context.ts';

/**
 * Every table a build publishes, with the key its Parquet file is sorted by (so row-group
 * statistics prune lookups) and a one-line description for the data dictionary.
 */
export const PUBLISHED_TABLES: readonly PublishedTable[] = [
  { name: 'properties', sortKey: ['uprn'], description: 'the merged property record, one row per UPRN' },
  { name: 'addresses', sortKey: ['uprn'], description: 'the canonical address of every UPRN with its structured parts and postcode geography' },
  { name: 'sales', sortKey: ['uprn', 'date'], description: 'price-paid sales matched to a UPRN (the sales history)' },
  { name: 'sales_unmatched', sortKey: ['postcode', 'date'], description: 'price-paid sales no UPRN could be given, with the reason' },
  { name: 'epc_linked', sortKey: ['uprn', 'lodgement_date'], description: 'energy certificates with the UPRN each belongs to' },
  { name: 'uprn_designations', sortKey: ['uprn'], description: 'planning and flood designations containing each UPRN' },
];

/**
 * Row contracts checked before a build is published: each query counts the rows that break
 * the rule and must return 0.
 */
export const CONTRACTS: readonly { table: string; rule: string; violations: string }[] = [
  { table: 'properties', rule: 'uprn unique and present', violations: 'SELECT count(*) - count(DISTINCT uprn) FROM properties' },
  { table: 'properties', rule: 'located in the UK', violations: 'SELECT count(*) FROM properties WHERE lat IS NULL OR lat NOT BETWEEN 49 AND 61 OR lng NOT BETWEEN -9 AND 2.5' },
  { table: 'properties', rule: 'country is England, Wales or Scotland', violations: "SELECT count(*) FROM properties WHERE country NOT IN ('England', 'Wales', 'Scotland')" },
  { table: 'properties', rule: 'plausible floor area (sq ft)', violations: 'SELECT count(*) FROM properties WHERE floor_area_sqft IS NOT NULL AND floor_area_sqft NOT BETWEEN 50 AND 50000' },
  { table: 'properties', rule: 'EPC ratings are A to G', violations: "SELECT count(*) FROM properties WHERE epc_current_rating NOT IN ('A','B','C','D','E','F','G') OR epc_potential_rating NOT IN ('A','B','C','D','E','F','G')" },
  { table: 'properties', rule: 'flood zone 3 implies zone 2', violations: 'SELECT count(*) FROM properties WHERE flood_zone_3 AND NOT flood_zone_2' },
  { table: 'sales', rule: 'positive price, date not in the future', violations: 'SELECT count(*) FROM sales WHERE price <= 0 OR date > current_date' },
  { table: 'sales', rule: 'every sale belongs to a known UPRN', violations: 'SELECT count(*) FROM sales s ANTI JOIN properties p USING (uprn)' },
];
