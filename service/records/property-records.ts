import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROPERTY_RECORDS_FILE, RecordFile } from '../../schemas/record-file-format.ts';
import { PerBuild } from '../store/per-build.ts';

/** Reads the build's published record file without blocking the event loop on the read. */
export async function loadPropertyRecords(buildDir: string): Promise<RecordFile> {
  const path = join(buildDir, PROPERTY_RECORDS_FILE);
  return new RecordFile(await readFile(path), path);
}

/** The process's property records of the build being served, swapped like the search index. */
export const propertyRecords = new PerBuild<RecordFile>((b) => loadPropertyRecords(b.dir));
