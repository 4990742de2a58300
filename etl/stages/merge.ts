import { computeFlags } from '../spatial/flags.ts';
import type { Stage } from '../pipeline/context.ts';
import { countRows, runSql } from '../pipeline/sql.ts';

/** The canonical address of every UPRN, with location and postcode geography. */
export const addressesStage: Stage = {
  name: 'addresses',
  description: 'one row per address-base UPRN with coordinates, postcode geography, country and local authority',
  reads: ['stg_addressbase', 'stg_os_uprn', 'stg_onspd'],
  writes: ['addresses'],
  async run(ctx) {
    await runSql(ctx.conn, 'addresses');
    ctx.quality.addresses = await countRows(ctx.conn, 'addresses');
  },
};

/** Certificates linked to UPRNs, and the latest value of each field per UPRN. */
export const certificatesStage: Stage = {
  name: 'certificates',
  description: 'link certificates to UPRNs (their own UPRN, else the address match); latest value per field per UPRN',
  reads: ['stg_epc', 'addresses', 'epc_matches'],
  writes: ['epc_linked', 'epc_by_uprn'],
  async run(ctx) {
    await runSql(ctx.conn, 'epc_linked');
    await runSql(ctx.conn, 'epc_by_uprn');
  },
};

/** The sales history of every UPRN, and the sales that could not be placed. */
export const salesStage: Stage = {
  name: 'sales',
  description: 'matched sales by UPRN (history mart) and unmatched sales with their reason',
  reads: ['ppd_current', 'sale_matches'],
  writes: ['sales', 'sales_unmatched'],
  async run(ctx) {
    await runSql(ctx.conn, 'sales');
    await runSql(ctx.conn, 'sales_unmatched');
  },
};

/** Flood, conservation, Article 4 and listed-building flags by point-in-polygon. */
export const flagsStage: Stage = {
  name: 'spatial_flags',
  description: 'point-in-polygon of every UPRN against the planning layers in force (spatial index)',
  reads: ['addresses', 'stg_planning'],
  writes: ['uprn_flags', 'uprn_designations'],
  async run(ctx) {
    ctx.quality.spatial_flags = await computeFlags(ctx.conn, 'addresses', { today: ctx.today });
  },
};

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
