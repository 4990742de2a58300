import type { RecordFile } from '../../lib/files/record-file-format.ts';
import type { BuildInfo } from '../build/source.ts';
import type { DesignationIndex } from './designations.ts';

/** The record file columns GET /risks reads (builds before they were added cannot serve it). */
const FLAG_COLUMNS = ['flood_zone', 'flood_zone_2', 'flood_zone_3', 'conservation_area', 'article_4', 'listed_building'];

/**
 * What one build answers risks with: its property records (the same in-memory file the
 * property record endpoint reads, so both report the same flags) and its designations.
 */
export interface RiskData {
  build: BuildInfo;
  records: RecordFile;
  designations: DesignationIndex;
}

/** Undefined when the build has no designations table or its record file lacks the flag columns. */
export function riskData(build: BuildInfo, records: RecordFile, designations: DesignationIndex | undefined): RiskData | undefined {
  const names = new Set(records.columns.map((c) => c.name));
  if (!designations || !FLAG_COLUMNS.every((c) => names.has(c))) return undefined;
  return { build, records, designations };
}
