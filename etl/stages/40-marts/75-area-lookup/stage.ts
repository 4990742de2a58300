import type { Stage } from '../../../pipeline/context.ts';
import { AREA_LOOKUP_FILES, LOOKUP_FILES } from '../../../../lib/files/lookup-tables-format.ts';
import { writeLookupFile } from '../../30-serving/write-lookup-file.ts';

/**
 * Writes the per-area lookup tables (each area's counts and mixes, index series, growth, £ per
 * sq ft, rents, short-term lets and room rents, keyed "level:code") as keyed-rows files, so the
 * service reads them where they lie instead of aggregating them into every process's heap when
 * a build opens (issue 46, ADR 0015 step 6). A serving file like 30-serving's, here because the
 * tables are made from the marts, the short-term lets' last among them.
 */
export const areaLookupStage: Stage = {
  name: 'area-lookup',
  description: 'the per-area tables the area, trends and rents lookups read written as keyed-rows files (lookup-area-*.rows)',
  reads: [
    'properties', 'addresses', 'sales', 'sales_unmatched', 'price_index_monthly', 'price_growth', 'price_per_sqft', 'rents_area', 'yields_area',
    'rents_rooms', 'str_area_snapshot', 'str_area_months',
  ],
  writes: AREA_LOOKUP_FILES.map((n) => LOOKUP_FILES[n].file),
  async run(ctx) {
    // In this order: growth, sqft and rents read the tables one statement makes and the last drops.
    for (const name of AREA_LOOKUP_FILES) await writeLookupFile(ctx, LOOKUP_FILES[name]);
  },
};
