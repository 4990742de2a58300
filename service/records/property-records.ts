import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROPERTY_RECORDS_FILE, RecordFile } from '../../lib/files/record-file-format.ts';

/** Reads the build's published record file without blocking the event loop on the read. */
export async function loadPropertyRecords(buildDir: string): Promise<RecordFile> {
  const path = join(buildDir, PROPERTY_RECORDS_FILE);
  return new RecordFile(await readFile(path), path);
}
