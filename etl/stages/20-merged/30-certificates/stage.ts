import type { Stage } from '../../../pipeline/context.ts';
import { runSql } from '../../../pipeline/sql.ts';

/** Certificates linked to UPRNs, and the latest value of each field per UPRN. */
export const certificatesStage: Stage = {
  name: 'certificates',
  description: 'link certificates to UPRNs (their own UPRN, else the address match); latest value per field per UPRN',
  reads: ['stg_epc', 'addresses', 'epc_matches'],
  writes: ['epc_linked', 'epc_by_uprn'],
  reuse: { today: false },
  async run(ctx) {
    await runSql(ctx.conn, 'epc_linked');
    await runSql(ctx.conn, 'epc_by_uprn');
  },
};
