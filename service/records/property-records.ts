import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlockCache } from '../../lib/files/block-file.ts';
import { PagedRecordFile, PROPERTY_RECORDS_PAGED_FILE } from '../../lib/files/paged-record-file.ts';
import { PROPERTY_RECORD_BASE_COLUMNS, PROPERTY_RECORDS_FILE, RecordFile } from '../../lib/files/record-file-format.ts';
import { recordView, type RecordOf, type RecordView } from '../../lib/files/record-view.ts';

/**
 * A build's property records as the service reads them: the columns every record file has,
 * typed (lib/files/record-view.ts). Readers of the later flag columns (risks, the HMO
 * valuation) make views of their own over `.file`, so they read the same file.
 */
export interface PropertyRecords extends RecordView<typeof PROPERTY_RECORD_BASE_COLUMNS> {
  /** Whether the records are read where they lie (the paged file) rather than held in the heap. */
  readonly paged: boolean;
  /** Closes the paged file (nothing to close in the heap); the build's resources close it when it retires. */
  close(): void;
}
export type PropertyRecord = RecordOf<typeof PROPERTY_RECORD_BASE_COLUMNS>;

/**
 * Opens the build's records: the paged file (`property-records.rows`) on the build's block
 * cache `pages` when the build has one, so the process holds its page directory and not the
 * records (ADR 0015, step 3); else, for a build published before it, the columnar
 * `property-records.bin` read whole into the heap, without blocking the event loop on the
 * read. A file that is not a record file, or lacks one of the declared columns (or holds one
 * of another kind), throws naming it, so the resource is unavailable (its endpoints answer
 * 503) rather than read a column as missing: a paged file that does not open is not passed
 * over for the .bin, so a broken build is seen, not served from the heap unnoticed.
 */
export async function loadPropertyRecords(buildDir: string, pages: BlockCache): Promise<PropertyRecords> {
  const paged = openPaged(join(buildDir, PROPERTY_RECORDS_PAGED_FILE), pages);
  if (paged) {
    try {
      return { ...recordView(paged, PROPERTY_RECORD_BASE_COLUMNS), paged: true, close: () => paged.close() };
    } catch (e) {
      paged.close();
      throw e;
    }
  }
  const path = join(buildDir, PROPERTY_RECORDS_FILE);
  return { ...recordView(new RecordFile(await readFile(path), path), PROPERTY_RECORD_BASE_COLUMNS), paged: false, close: () => undefined };
}

/** The paged record file, or undefined when the build has none. */
function openPaged(path: string, pages: BlockCache): PagedRecordFile | undefined {
  try {
    return PagedRecordFile.open(path, pages);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
