import { PROPERTY_RECORD_COLUMNS } from '../../lib/files/record-file-format.ts';
import { missingColumns, recordView, type RecordView } from '../../lib/files/record-view.ts';
import type { BuildInfo } from '../build/source.ts';
import type { Designations } from './designations.ts';
import type { PropertyRecords } from './property-records.ts';

/**
 * What one build answers risks with: its property records with the flag columns (the same
 * record file the property record endpoint reads, paged or in the heap, so both report the same flags) and its
 * designations.
 */
export interface RiskData {
  build: BuildInfo;
  records: RecordView<typeof PROPERTY_RECORD_COLUMNS>;
  designations: Designations;
}

/**
 * Undefined when the build has no designations table or its record file lacks the flag
 * columns (published before them); a flag column of another kind throws (RecordColumnsError).
 */
export function riskData(build: BuildInfo, records: PropertyRecords, designations: Designations | undefined): RiskData | undefined {
  if (!designations || missingColumns(records.file, PROPERTY_RECORD_COLUMNS).length > 0) return undefined;
  return { build, records: recordView(records.file, PROPERTY_RECORD_COLUMNS), designations };
}
