import type { Stage } from '../../../pipeline/context.ts';
import { runSql } from '../../../pipeline/sql.ts';

/** The merged property record. */
export const propertiesStage: Stage = {
  name: 'properties',
  description: 'merge address, certificates, sales and flags into one record per UPRN',
  reads: ['addresses', 'epc_by_uprn', 'sales', 'uprn_flags'],
  writes: ['properties'],
  async run(ctx) {
    await runSql(ctx.conn, 'properties');
  },
};
