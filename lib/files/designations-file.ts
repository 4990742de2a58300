import type { LookupFileSpec } from './lookup-tables-format.ts';

/**
 * The planning and flood features containing each UPRN (the published `uprn_designations`) as a
 * keyed-rows file by UPRN (issue 46, ADR 0015 step 6): GET /risks, /flood-risk and
 * /planning/constraints read a home's page where it lies instead of every process loading the
 * table (1.1 s at 1M addresses, twice: for the risks and the planning index) into its heap. A
 * UPRN's rows are its features in the table's lookup order (dataset, entity, reference).
 */
export const DESIGNATIONS_FILE = {
  artifact: 'designations',
  file: 'designations.rows',
  query: 'designation_rows',
  before: [],
  after: [],
  key: { name: 'uprn', kind: 'num' },
  unique: false,
  columns: [
    // A feature's texts once in the meta (a few thousand features contain millions of homes):
    // 23 MB at 1M addresses as text.
    { name: 'dataset', kind: 'dict' },
    { name: 'entity', kind: 'num' },
    { name: 'reference', kind: 'dict' },
    { name: 'name', kind: 'dict' },
    { name: 'flood_risk_level', kind: 'num' },
  ],
} as const satisfies LookupFileSpec;
