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

const UNITS: Record<string, number> = {
  bytes: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40,
};

/** Bytes in a size as DuckDB prints it (`953.6 MiB`, `2.5 GiB`, `512 bytes`). */
export function duckdbSizeBytes(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$/i.exec(text);
  const unit = m && UNITS[m[2]!.toLowerCase()];
  if (!m || !unit) throw new Error(`not a DuckDB size: ${text}`);
  return Number(m[1]) * unit;
}
