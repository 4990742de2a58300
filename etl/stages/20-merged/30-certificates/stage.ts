import type { DuckDBConnection } from '@duckdb/node-api';
import type { Stage } from '../../../pipeline/context.ts';
import { memoryLimitBytes } from '../../../pipeline/memory-limit.ts';
import { countRows, sqlFolder } from '../../../pipeline/sql.ts';
import { certificatesChunks } from './chunks.ts';

/** This stage's statements, beside this module. */
const sql = sqlFolder(import.meta.dirname);

/** Certificates linked to UPRNs, and the latest value of each field per UPRN. */
export const certificatesStage: Stage = {
  name: 'certificates',
  description: 'link certificates to UPRNs (their own UPRN, else the address match); latest value per field per UPRN',
  reads: ['stg_epc', 'addresses', 'epc_matches'],
  writes: ['epc_linked', 'epc_by_uprn'],
  reuse: { today: false },
  async run(ctx) {
    const chunks = certificatesChunks(await countRows(ctx.conn, 'stg_epc'), await memoryLimitBytes(ctx.conn));
    await buildCertificates(ctx.conn, chunks);
    ctx.log.info({ stage: 'certificates', chunks }, 'certificates linked in chunks by certificate, values per UPRN in chunks by UPRN');
  },
};

/**
 * Builds `epc_linked` in `chunks` statements, each over the certificates of one hash bucket,
 * then `epc_by_uprn` in as many, each over the UPRNs of one bucket (chunks.ts).
 */
export async function buildCertificates(conn: DuckDBConnection, chunks: number): Promise<void> {
  try {
    await sql.run(conn, 'set_certificates_cut', { chunks, chunk: 0 });
    await sql.run(conn, 'epc_link');
    if (chunks === 1) await sql.run(conn, 'epc_linked');
    else {
      for (let chunk = 0; chunk < chunks; chunk++) {
        await sql.run(conn, 'set_certificates_cut', { chunks, chunk });
        await sql.run(conn, chunk === 0 ? 'epc_linked_chunk' : 'epc_linked_append');
      }
    }
    // DuckDB checks a macro's tables when it is created: this one reads epc_linked.
    await sql.run(conn, 'epc_by_uprn_chunk');
    for (let chunk = 0; chunk < chunks; chunk++) {
      await sql.run(conn, 'set_certificates_cut', { chunks, chunk });
      await sql.run(conn, chunk === 0 ? 'epc_by_uprn' : 'epc_by_uprn_append');
    }
  } finally {
    await sql.run(conn, 'drop_epc_link');
    await sql.run(conn, 'drop_epc_by_uprn_chunk');
  }
}
