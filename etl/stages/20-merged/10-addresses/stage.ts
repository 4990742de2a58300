import type { Stage } from '../../../pipeline/context.ts';
import { countRows, sqlFolder } from '../../../pipeline/sql.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The canonical address of every UPRN, with location and postcode geography. */
export const addressesStage: Stage = {
  name: 'addresses',
  description: 'one row per address-base UPRN with coordinates, postcode geography, country and local authority',
  reads: ['stg_addressbase', 'stg_os_uprn', 'stg_onspd'],
  writes: ['addresses'],
  reuse: { today: false },
  async run(ctx) {
    await sql.run(ctx.conn, 'addresses');
    ctx.quality.addresses = await countRows(ctx.conn, 'addresses');
  },
};
