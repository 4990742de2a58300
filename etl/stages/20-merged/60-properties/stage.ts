import type { DuckDBConnection } from '@duckdb/node-api';
import type { Stage } from '../../../pipeline/context.ts';
import { memoryLimitBytes } from '../../../pipeline/memory-limit.ts';
import { countRows, sqlFolder } from '../../../pipeline/sql.ts';
import { propertiesChunks } from './chunks.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** The merged property record. */
export const propertiesStage: Stage = {
  name: 'properties',
  description: 'merge address, certificates, sales and flags into one record per UPRN',
  reads: ['addresses', 'epc_by_uprn', 'sales', 'uprn_flags'],
  writes: ['properties'],
  async run(ctx) {
    const chunks = await chunksFor(ctx.conn);
    await buildProperties(ctx.conn, chunks);
    ctx.log.info({ stage: 'properties', chunks }, 'properties built in chunks by UPRN');
  },
};

/** The chunk count for this build's join sides and DuckDB's memory limit (chunks.ts). */
async function chunksFor(conn: DuckDBConnection): Promise<number> {
  let rows = 0;
  for (const t of ['epc_by_uprn', 'sales', 'uprn_flags']) rows += await countRows(conn, t);
  return propertiesChunks(rows, await memoryLimitBytes(conn));
}

/** Builds `properties` in `chunks` statements, each over the UPRNs of one hash bucket. */
export async function buildProperties(conn: DuckDBConnection, chunks: number): Promise<void> {
  await sql.run(conn, 'properties_chunk');
  try {
    for (let chunk = 0; chunk < chunks; chunk++) {
      await sql.run(conn, 'set_properties_cut', { chunks, chunk });
      await sql.run(conn, chunk === 0 ? 'properties' : 'properties_append');
    }
  } finally {
    await sql.run(conn, 'drop_properties_chunk');
  }
}
