import type { Stage } from '../../../pipeline/context.ts';
import { LOOKUP_FILES } from '../../../../lib/files/lookup-tables-format.ts';
import { writeLookupFile } from '../write-lookup-file.ts';

/**
 * Writes the lookup tables keyed by UPRN and by area (every matched sale, every linked
 * certificate, each area's monthly medians by property type) as keyed-rows files, so the
 * service reads them where they lie instead of making them in every process's heap when a
 * build opens (issue 46, ADR 0015 step 2). The postcode directory's file is written once the
 * directory is made (40-marts/55-postcode-lookup).
 */
export const lookupTablesStage: Stage = {
  name: 'lookup-tables',
  description: 'sales and certificates by UPRN and monthly medians by area and type written as keyed-rows files (lookup-*.rows)',
  reads: ['sales', 'properties', 'epc_linked'],
  writes: [LOOKUP_FILES.sales.file, LOOKUP_FILES.typeMonths.file, LOOKUP_FILES.epc.file],
  async run(ctx) {
    // typeMonths is made from the sales' table, which its `after` drops: in this order.
    await writeLookupFile(ctx, LOOKUP_FILES.sales);
    await writeLookupFile(ctx, LOOKUP_FILES.typeMonths);
    await writeLookupFile(ctx, LOOKUP_FILES.epc);
  },
};
