/**
 * How many key ranges a serving stage reads its rows in. Both stages stream one ORDER BY
 * out of DuckDB, and DuckDB (1.5) keeps a streamed sort's rows in memory instead of
 * spilling them (docs/etl.md, "Memory": at 1M addresses under 200 MB the property records'
 * sort failed to pin a block holding 156 MB, the same sort into a table passed); read a key
 * range at a time, ordered within it, each sort stays within a third of the limit and the
 * rows arrive in the same order.
 */
export function sortChunks(rows: number, bytesPerRow: number, memoryLimitBytes: number): number {
  return Math.max(1, Math.ceil((rows * bytesPerRow) / (memoryLimitBytes / 3)));
}

/** One key range: from `lo` (inclusive) to `hi` (exclusive), null for an open end. */
export type KeyRange<K> = { lo: K | null; hi: K | null };

/** The ranges between ascending cut points: below the first, between each pair, from the last on. */
export function keyRanges<K>(cuts: readonly K[]): KeyRange<K>[] {
  return [null, ...cuts].map((lo, i) => ({ lo, hi: i < cuts.length ? cuts[i]! : null }));
}

/**
 * Cut points for `chunks` ranges of about equal rows, from each key's row count in key order:
 * a key starts a new range once the rows before it reach the next multiple of total / chunks.
 */
export async function cutsFromCounts<K>(counts: AsyncIterable<[K, number]>, total: number, chunks: number): Promise<K[]> {
  const cuts: K[] = [];
  let before = 0;
  for await (const [key, n] of counts) {
    if (cuts.length < chunks - 1 && before >= (total * (cuts.length + 1)) / chunks) cuts.push(key);
    before += n;
  }
  return cuts;
}
