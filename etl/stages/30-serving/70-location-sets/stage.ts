import type { Stage } from '../../../pipeline/context.ts';
import { LOCATION_SET_FILES } from '../../../../lib/files/location-sets-files.ts';
import { writeLookupFile } from '../write-lookup-file.ts';

/**
 * Writes the crime, listings and HMO licence sets as keyed-rows files, points by grid cell and
 * lists by outcode (lib/files/location-sets-files.ts), so the service reads them where they
 * lie instead of holding them in every process's heap (issue 46, ADR 0015 step 6). A serving
 * stage listed after the marts it reads (crime, listings, HMO licences, postcodes).
 */
export const locationSetsStage: Stage = {
  name: 'location-sets',
  description: 'crime, listings and HMO licences by grid cell and by outcode written as keyed-rows files (crime-*, listings-*, hmo-*.rows)',
  reads: ['crime', 'crime_la', 'postcodes', 'listings', 'hmo_licences'],
  writes: Object.values(LOCATION_SET_FILES).map((s) => s.file),
  async run(ctx) {
    for (const spec of Object.values(LOCATION_SET_FILES)) await writeLookupFile(ctx, spec);
  },
};
