import { runBuild } from '../../etl/pipeline/run.ts';
import type { Manifest } from '../../schemas/manifest.ts';
import { publishCached, sourcesDigest } from './build-cache.ts';
import { quietLog, synthRegion } from './region.ts';

/**
 * Runs the real ETL (every stage, Parquet, manifest, `current` switch) over a synthetic
 * region into `dataDir`, e.g. a test server's DATA_DIR, so endpoint tests read exactly
 * what production serves. The region is generated once per (addresses, seed) per test
 * process; the build once per (addresses, seed, clock) per test run, then published into
 * each DATA_DIR that asks (test/support/build-cache.ts). The build clock defaults to the
 * generator's data date.
 */
export async function publishSynthBuild(
  dataDir: string,
  /** fresh: run the ETL into `dataDir` even when the run's cache holds this build (a test of the ETL's own determinism). */
  opts: { addresses?: number; seed?: number; now?: Date; fresh?: boolean; openData?: boolean } = {},
): Promise<{ build_id: string; manifest: Manifest; sourcesDir: string }> {
  const addresses = opts.addresses ?? 2000;
  const seed = opts.seed ?? 11;
  const now = opts.now ?? new Date('2025-10-01T00:00:00Z');
  const sourcesDir = await synthRegion(addresses, seed, { openData: opts.openData === true });
  const make = (into: string) => runBuild({ dataDir: into, sourcesDir, log: quietLog, now });
  const cached = opts.fresh ? undefined : await publishCached(`${addresses}-${seed}-${now.toISOString()}-${await sourcesDigest(sourcesDir)}`, dataDir, make);
  const { build_id, manifest } = cached ?? (await make(dataDir));
  return { build_id, manifest, sourcesDir };
}
