/**
 * How many chunks the properties stage builds its table in. Its three joins keep their hash
 * tables in memory together, and DuckDB (1.5) fails to allocate rather than spill once they
 * outgrow the memory limit (docs/etl.md, "Memory"); cut by UPRN, a chunk's tables stay within
 * a third of it (the rest is the scans', the insert's and the window's).
 */
export function propertiesChunks(buildRows: number, memoryLimitBytes: number): number {
  return Math.max(1, Math.ceil((buildRows * BYTES_PER_BUILD_ROW) / (memoryLimitBytes / 3)));
}

/** Hash-table bytes per row of the joins' build sides: measured 84 (186 MB for 2.2M rows at 1M addresses), rounded up. */
export const BYTES_PER_BUILD_ROW = 100;
