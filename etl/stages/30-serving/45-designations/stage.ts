import type { Stage } from '../../../pipeline/context.ts';
import { DESIGNATIONS_FILE } from '../../../../lib/files/designations-file.ts';
import { writeLookupFile } from '../write-lookup-file.ts';

/**
 * Writes the features containing each UPRN as a keyed-rows file by UPRN
 * (lib/files/designations-file.ts), so the risk and planning endpoints read a home's page
 * where it lies instead of each process loading uprn_designations (issue 46, ADR 0015 step 6).
 */
export const designationsStage: Stage = {
  name: 'designations',
  description: 'the planning and flood features containing each UPRN written as designations.rows',
  reads: ['uprn_designations'],
  writes: [DESIGNATIONS_FILE.file],
  async run(ctx) {
    await writeLookupFile(ctx, DESIGNATIONS_FILE);
  },
};
