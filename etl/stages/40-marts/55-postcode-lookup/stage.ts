import type { Stage } from '../../../pipeline/context.ts';
import { LOOKUP_FILES } from '../../../../lib/files/lookup-tables-format.ts';
import { writeLookupFile } from '../../30-serving/write-lookup-file.ts';

/**
 * Writes the postcode directory by postcode as a keyed-rows file (GET /postcodes/{postcode},
 * the location resolver), read where it lies by the service (issue 46, ADR 0015 step 2); a
 * serving file like 30-serving's, here because the directory is made by the postcodes mart.
 */
export const postcodeLookupStage: Stage = {
  name: 'postcode-lookup',
  description: 'the postcode directory by postcode written as a keyed-rows file (lookup-postcodes.rows)',
  reads: ['postcodes'],
  writes: [LOOKUP_FILES.postcodes.file],
  async run(ctx) {
    await writeLookupFile(ctx, LOOKUP_FILES.postcodes);
  },
};
