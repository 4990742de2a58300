/**
 * How many chunks the certificates stage builds `epc_linked` and `epc_by_uprn` in. Joined to
 * the address base, every column of every certificate held for the window that keeps one
 * row per certificate, DuckDB (1.5) fails to allocate once they outgrow the memory limit
 * (at 10M addresses under 1 GB, `docs/scale.md`) rather than spill; cut by certificate, a
 * chunk's certificates stay within a third of it.
 */
export function certificatesChunks(certificates: number, memoryLimitBytes: number): number {
  return Math.max(1, Math.ceil((certificates * BYTES_PER_CERTIFICATE) / (memoryLimitBytes / 3)));
}

/**
 * Bytes per staged certificate: 1.18M certificates (1M addresses) failed under 100 MB in one
 * chunk and passed in 4 (`docs/etl.md`, "Memory"), so at most 110; taken as 100, the same as
 * `properties`' join rows.
 */
export const BYTES_PER_CERTIFICATE = 100;
