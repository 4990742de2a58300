import { runBuild } from '../../etl/pipeline/run.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { quietLog, synthRegion } from './region.ts';

/**
 * Runs the real ETL (every stage, Parquet, manifest, `current` switch) over a synthetic
 * region into `dataDir`, e.g. a test server's DATA_DIR, so endpoint tests read exactly
 * what production serves. The region is generated once per (addresses, seed) per test
 * process; the build clock defaults to the generator's data date.
 */
export async function publishSynthBuild(
  dataDir: string,
  opts: { addresses?: number; seed?: number; now?: Date } = {},
): Promise<{ build_id: string; manifest: Manifest; sourcesDir: string }> {
  const sourcesDir = await synthRegion(opts.addresses ?? 2000, opts.seed ?? 11);
  const { build_id, manifest } = await runBuild({
    dataDir, sourcesDir, log: quietLog, now: opts.now ?? new Date('2025-10-01T00:00:00Z'),
  });
  return { build_id, manifest, sourcesDir };
}
