import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROPERTY_RECORD_BASE_COLUMNS, PROPERTY_RECORDS_FILE, RecordFile } from '../../lib/files/record-file-format.ts';
import { recordView, type RecordOf, type RecordView } from '../../lib/files/record-view.ts';

/**
 * A build's property records as the service reads them: the columns every record file has,
 * typed (lib/files/record-view.ts). Readers of the later flag columns (risks, the HMO
 * valuation) make views of their own over `.file`.
 */
export type PropertyRecords = RecordView<typeof PROPERTY_RECORD_BASE_COLUMNS>;
export type PropertyRecord = RecordOf<typeof PROPERTY_RECORD_BASE_COLUMNS>;

/**
 * Reads the build's published record file without blocking the event loop on the read. A
 * file without one of the declared columns (or with one of another kind) throws naming it, so
 * the resource is unavailable (its endpoints answer 503) rather than read a column as missing.
 */
export async function loadPropertyRecords(buildDir: string): Promise<PropertyRecords> {
  const path = join(buildDir, PROPERTY_RECORDS_FILE);
  return recordView(new RecordFile(await readFile(path), path), PROPERTY_RECORD_BASE_COLUMNS);
}
