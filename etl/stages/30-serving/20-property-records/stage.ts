import { join } from 'node:path';
import type { Stage } from '../../../pipeline/context.ts';
import { countRows } from '../../../pipeline/sql.ts';
import { PROPERTY_RECORD_COLUMNS, PROPERTY_RECORDS_FILE, RecordFileWriter } from '../../../../schemas/record-file-format.ts';
import { streamColumns } from '../stream-columns.ts';

const NAMES = ['uprn', ...PROPERTY_RECORD_COLUMNS.map((c) => c.name)];
const COLUMNS = NAMES.join(', ');

/**
 * Writes the property records as `property-records.bin`, sorted by UPRN, so the record
 * endpoint answers with a binary search in memory instead of a SQL round trip (the
 * `properties` Parquet file stays the table analysts and other endpoints query).
 */
export const propertyRecordsStage: Stage = {
  name: 'property-records',
  description: 'the property record endpoint\'s lookup file (UPRN-sorted columns) written as property-records.bin',
  reads: ['properties'],
  writes: [PROPERTY_RECORDS_FILE],
  async run(ctx) {
    const n = await countRows(ctx.conn, 'properties');
    const t0 = performance.now();
    const writer = new RecordFileWriter(PROPERTY_RECORD_COLUMNS, n);
    // One row object, refilled per row: the writer reads each row's values as it adds it.
    const row: Record<string, unknown> = {};
    for await (const { rows, columns } of streamColumns(ctx.db, `SELECT ${COLUMNS} FROM properties ORDER BY uprn`)) {
      for (let i = 0; i < rows; i++) {
        for (let c = 0; c < NAMES.length; c++) row[NAMES[c]!] = columns[c]![i];
        writer.add(row);
      }
    }
    const bytes = writer.finish(join(ctx.buildDir, PROPERTY_RECORDS_FILE));
    ctx.artifacts.property_records = { file: PROPERTY_RECORDS_FILE, description: 'property records by UPRN (format: schemas/record-file-format.ts)' };
    ctx.log.info({ stage: 'property-records', rows: n, bytes, ms: Math.round(performance.now() - t0) }, 'property records written');
  },
};
